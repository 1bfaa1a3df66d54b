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
import { type CopyArea, keepsStartCopies, readThroughCopies } from '@/lib/settings/start-copies';
import { applyCachedTheme, pageLocalStorage } from '@/lib/theme/first-paint';
import { markStep } from './mark-step';
import { readTabAddress } from './read-tab';
import { rememberedNames, rememberNames } from './remembered-names';
import { laterNames, START_NAMES } from './start-keys';

type StorageArea = { get(keys: string[]): Promise<Record<string, unknown>> };

export type ExtensionApi = {
  storage: { local: StorageArea; session?: CopyArea };
  tabs: Parameters<typeof readTabAddress>[0];
};

const getFrom = (area: StorageArea) => (some: string[]) => {
  try {
    return some.length === 0 ? Promise.resolve({}) : area.get(some);
  } catch (error) {
    return Promise.reject(error);
  }
};

/**
 * Chromium answers any `get` in one message. Firefox reads keys one after another (an IndexedDB
 * request each, its events on the page's own thread): it reads its start copies first
 * (lib/settings/start-copies.ts), and storage for a name without one, each name on its own, all at once
 * (docs/performance.md, "Where the popup's time goes").
 */
function ask(api: ExtensionApi, names: readonly string[], browserName: string): AnswerBatch {
  const get = getFrom(api.storage.local);
  if (!keepsStartCopies(browserName) || !api.storage.session) return { names, values: get([...names]) };
  const eachOnItsOwn = (some: string[]) =>
    Promise.all(some.map((name) => get([name]))).then((answers) => Object.assign({}, ...answers));
  return { names, values: readThroughCopies(api.storage.session, names, eachOnItsOwn) };
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
  const store = pageLocalStorage();
  applyCachedTheme(page.document.documentElement, store);
  const scope = globalThis as { browser?: ExtensionApi; chrome?: ExtensionApi };
  const api = page.api ?? scope.browser ?? scope.chrome;
  if (!api) return;
  // The stored values are asked first, the tab next: Firefox sets up each extension API on its
  // first call, and the reads need not wait for the tabs API's. With them, the names the last
  // opening read once its tab was known (./remembered-names.ts).
  const remembered = rememberedNames(store);
  const first = ask(api, [...START_NAMES, ...remembered], browserName);
  first.values.then(
    () => markStep('early-reads'),
    () => {},
  );
  const tab = readTabAddress(api.tabs, page.location.search);
  // The site's lists and notes, once the account, the profile and the tab are known: those not
  // asked already.
  const later = Promise.all([first.values, tab]).then(([values, { url }]) => {
    const names = laterNames(values, url);
    const batch = ask(
      api,
      names.filter((name) => !remembered.includes(name)),
      browserName,
    );
    // Once asked: the record is for the next opening, not this one's.
    rememberNames(store, names);
    return batch;
  });
  publishEarlyAnswers({ tab, first, later });
  markStep('first-script-done');
}
