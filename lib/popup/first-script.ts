/**
 * What the popup's first script (entrypoints/popup-start.ts) does, a classic script at the top of
 * popup.html: it puts the cached theme on the page before the first paint, and starts reading the
 * tab and the storage keys the last opening read; they answer while the modules still load
 * (early-reads.ts).
 *
 * No WXT browser import: the polyfill would make the script as big as what it runs ahead of;
 * both browsers' own APIs return promises. (Nor zod: what it reads is checked where it is used.)
 */
import { fingerprintOfKey, STORED_API_KEY } from '@/lib/account/key-fingerprint';
import { bucketKeysFor, scopeOfBucketKey } from '@/lib/cache/list-buckets';
import { hostnameFromUrl } from '@/lib/filtering/hostname';
import { applyCachedTheme, pageLocalStorage } from '@/lib/theme/first-paint';
import { publishEarlyReads, startEarlyReads } from './early-reads';
import { markStep } from './mark-step';
import { publishEarlyTab, readTabAddress, type TabAddress } from './read-tab';
import { startMirrorUsed } from './start-mirror';

type StorageArea = { get(keys: string[]): Promise<Record<string, unknown>> };

export type ExtensionApi = {
  storage: { local: StorageArea; session?: StorageArea };
  tabs: Parameters<typeof readTabAddress>[0];
};

export function startPopupEarly(page: {
  document: Document;
  location: Location;
  /** The extension API; the page's own (`browser`, else `chrome`) when not given (tests give one). */
  api?: ExtensionApi;
}): void {
  markStep('first-script');
  const hints = pageLocalStorage();
  applyCachedTheme(page.document.documentElement, hints);
  const scope = globalThis as { browser?: ExtensionApi; chrome?: ExtensionApi };
  const api = page.api ?? scope.browser ?? scope.chrome;
  if (!api) return;
  // The stored keys are asked first, the tab next: Firefox sets up each extension API on its
  // first call, `tabs` in ~2 ms, and the reads need not wait for that (the later batch, the
  // buckets of the tab's site, waits for the tab anyway).
  let tabAsked: (tab: Promise<TabAddress>) => void = () => {};
  const tabLater = new Promise<TabAddress>((resolve) => {
    tabAsked = resolve;
  });
  // The cached lists' buckets the last opening read were its site's: this opening reads its own
  // site's, in the scopes the last one read, as soon as the tab is known.
  // In Firefox the start mirror answers (start-mirror.ts); storage only when it lacks a key.
  const mirror = startMirrorUsed() ? api.storage.session : undefined;
  const areas = { local: api.storage.local, ...(mirror ? { mirror } : {}) };
  const reads = startEarlyReads(areas, hints ?? { getItem: () => null }, {
    matches: (key) => scopeOfBucketKey(key) !== null,
    keysFor: async (remembered) => {
      const { url } = await tabLater;
      const host = url === undefined ? null : hostnameFromUrl(url);
      return host === null ? [] : bucketKeysFor(remembered, host);
    },
  });
  const tab = readTabAddress(api.tabs, page.location.search);
  tabAsked(tab);
  tab.then(
    () => markStep('early-tab'),
    () => {},
  );
  publishEarlyTab(tab);
  reads.values.then(
    (values) => {
      markStep('early-reads');
      // The account identity's one costly step, done while the modules still load; the identity
      // uses it only for exactly this key (lib/account/key-fingerprint.ts).
      const key = values[STORED_API_KEY];
      if (typeof key === 'string' && key !== '') fingerprintOfKey(key);
    },
    () => {},
  );
  publishEarlyReads(reads);
  markStep('first-script-done');
}
