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
import { laterNames, START_NAMES } from './start-keys';

type StorageArea = { get(keys: string[]): Promise<Record<string, unknown>> };

export type ExtensionApi = {
  storage: { local: StorageArea };
  tabs: Parameters<typeof readTabAddress>[0];
};

/** One `get`; one that throws becomes a failed read, which the modules make good. */
function ask(area: StorageArea, names: readonly string[]): AnswerBatch {
  let values: Promise<Record<string, unknown>>;
  try {
    values = names.length === 0 ? Promise.resolve({}) : area.get([...names]);
  } catch (error) {
    values = Promise.reject(error);
  }
  return { names, values };
}

export function startPopupEarly(page: {
  document: Document;
  location: Location;
  /** The extension API; the page's own (`browser`, else `chrome`) when not given (tests give one). */
  api?: ExtensionApi;
}): void {
  markStep('first-script');
  applyCachedTheme(page.document.documentElement, pageLocalStorage());
  const scope = globalThis as { browser?: ExtensionApi; chrome?: ExtensionApi };
  const api = page.api ?? scope.browser ?? scope.chrome;
  if (!api) return;
  // The stored values are asked first, the tab next: Firefox sets up each extension API on its
  // first call, and the reads need not wait for the tabs API's.
  const first = ask(api.storage.local, START_NAMES);
  first.values.then(
    () => markStep('early-reads'),
    () => {},
  );
  const tab = readTabAddress(api.tabs, page.location.search);
  const later = Promise.all([first.values, tab]).then(([values, { url }]) =>
    ask(api.storage.local, laterNames(values, url)),
  );
  publishEarlyAnswers({ tab, first, later });
  markStep('first-script-done');
}
