/**
 * What the popup's first script (entrypoints/popup-start.ts) does, a classic script at the top of
 * popup.html: it puts the cached theme on the page before the first paint, and asks for the tab
 * and the stored values the first view needs (./start-keys.ts), which answer while the modules
 * still load. It leaves them in the page's one global (lib/settings/early-answers.ts).
 *
 * No WXT browser import: the polyfill would make the script as big as what it runs ahead of;
 * both browsers' own APIs return promises. (Nor zod: what it reads is checked where it is used.)
 */
import { type AnswerBatch, publishEarlyAnswers } from '@/lib/settings/early-answers';
import { applyCachedTheme, pageLocalStorage } from '@/lib/theme/first-paint';
import { markStep } from './mark-step';
import { readTabAddress } from './read-tab';
import { LATER_NEEDS, laterNames, START_NAMES } from './start-keys';

type StorageArea = { get(keys: string[]): Promise<Record<string, unknown>> };

export type ExtensionApi = {
  storage: { local: StorageArea };
  tabs: Parameters<typeof readTabAddress>[0];
};

/**
 * How each browser answers a `get` of several keys soonest. Firefox reads them one after another
 * (an IndexedDB request each, its events on the page's own thread, busy loading the modules), so
 * there each key is asked on its own, all at once; Chromium answers any `get` in one message
 * (docs/performance.md, "Where the popup's time goes").
 */
const KEYS_PER_GET: Record<string, 'one' | 'all'> = { firefox: 'one', chrome: 'all' };

/** A read of `names`, each name's answer on its own; a `get` that throws becomes a failed read. */
interface Asked extends AnswerBatch {
  /** The answer that holds `name` (every name's, where the browser answers all in one). */
  of(name: string): Promise<Record<string, unknown>>;
}

function ask(area: StorageArea, names: readonly string[], browserName: string): Asked {
  const get = (some: string[]) => {
    try {
      return some.length === 0 ? Promise.resolve({}) : area.get(some);
    } catch (error) {
      return Promise.reject(error);
    }
  };
  if (KEYS_PER_GET[browserName] === 'one') {
    const each = new Map(names.map((name) => [name, get([name])] as const));
    const values = Promise.all(each.values()).then((answers) => Object.assign({}, ...answers));
    return { names, values, of: (name) => each.get(name) ?? values };
  }
  const values = get([...names]);
  return { names, values, of: () => values };
}

export function startPopupEarly(page: {
  document: Document;
  location: Location;
  /** The extension API; the page's own (`browser`, else `chrome`) when not given (tests give one). */
  api?: ExtensionApi;
  /** The browser this build is for (tests name one). */
  browserName?: string;
}): void {
  const browserName = page.browserName ?? import.meta.env.BROWSER;
  markStep('first-script');
  applyCachedTheme(page.document.documentElement, pageLocalStorage());
  const scope = globalThis as { browser?: ExtensionApi; chrome?: ExtensionApi };
  const api = page.api ?? scope.browser ?? scope.chrome;
  if (!api) return;
  // The stored values are asked first, the tab next: Firefox sets up each extension API on its
  // first call, and the reads need not wait for the tabs API's.
  const first = ask(api.storage.local, START_NAMES, browserName);
  first.values.then(
    () => markStep('early-reads'),
    () => {},
  );
  const tab = readTabAddress(api.tabs, page.location.search);
  // The site's lists and notes need only the account, the profile and the tab.
  const later = Promise.all([...LATER_NEEDS.map((name) => first.of(name)), tab]).then((answers) => {
    const { url } = answers.pop() as { url?: string };
    return ask(api.storage.local, laterNames(Object.assign({}, ...answers), url), browserName);
  });
  publishEarlyAnswers({ tab, first, later });
  markStep('first-script-done');
}
