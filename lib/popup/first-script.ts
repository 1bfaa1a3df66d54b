/**
 * What the popup's first script (entrypoints/popup-start.ts) does, a classic script at the top of
 * popup.html: it puts the cached theme on the page before the first paint, and starts reading the
 * tab and the storage keys the last opening read; they answer while the modules still load
 * (early-reads.ts).
 *
 * No WXT browser import: the polyfill would make the script as big as what it runs ahead of;
 * both browsers' own APIs return promises.
 */
import { applyCachedTheme, pageLocalStorage } from '@/lib/theme/first-paint';
import { publishEarlyReads, startEarlyReads } from './early-reads';
import { markStep } from './mark-step';
import { publishEarlyTab, readTabAddress } from './read-tab';

type ExtensionApi = {
  storage: { local: { get(keys: string[]): Promise<Record<string, unknown>> } };
  tabs: Parameters<typeof readTabAddress>[0];
};

export function startPopupEarly(page: { document: Document; location: Location }): void {
  markStep('first-script');
  const hints = pageLocalStorage();
  applyCachedTheme(page.document.documentElement, hints);
  const scope = globalThis as { browser?: ExtensionApi; chrome?: ExtensionApi };
  const api = scope.browser ?? scope.chrome;
  if (!api) return;
  const reads = startEarlyReads(api.storage.local, hints ?? { getItem: () => null });
  reads.values.then(
    () => markStep('early-reads'),
    () => {},
  );
  publishEarlyReads(reads);
  const tab = readTabAddress(api.tabs, page.location.search);
  tab.then(
    () => markStep('early-tab'),
    () => {},
  );
  publishEarlyTab(tab);
  markStep('first-script-done');
}
