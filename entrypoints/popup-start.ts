import { publishEarlyTab, readTabAddress } from '@/components/popup/read-tab';
import { publishEarlyReads, startEarlyReads } from '@/lib/settings/early-reads';
import { applyCachedTheme, pageLocalStorage } from '@/lib/theme/first-paint';

/**
 * The popup's first script, a classic one at the top of popup.html. It puts the cached theme on
 * the page before the first paint, and starts reading the tab and the storage keys the last
 * opening read; they answer while the modules still load (lib/settings/early-reads.ts).
 *
 * Parser-blocking on purpose: it is tiny, and a parser-blocking script is fetched first, while
 * the browser's preload scanner goes on fetching the modules. Measured against `async` and
 * `defer` (scripts/bench), this order gave the popup its verdict soonest.
 *
 * No WXT browser import: the polyfill would make this script as big as what it runs ahead of;
 * both browsers' own APIs return promises.
 */
type ExtensionApi = {
  storage: { local: { get(keys: string[]): Promise<Record<string, unknown>> } };
  tabs: Parameters<typeof readTabAddress>[0];
};

export default defineUnlistedScript(() => {
  const hints = pageLocalStorage();
  applyCachedTheme(document.documentElement, hints);
  const scope = globalThis as { browser?: ExtensionApi; chrome?: ExtensionApi };
  const api = scope.browser ?? scope.chrome;
  if (!api) return;
  publishEarlyReads(startEarlyReads(api.storage.local, hints ?? { getItem: () => null }));
  publishEarlyTab(readTabAddress(api.tabs, location.search));
});
