/**
 * Room in `storage.local` for what cannot be fetched again.
 *
 * Without the `unlimitedStorage` permission Chrome gives an extension 10 MB of `storage.local`
 * (Firefox more). The popup's cached lists are by far the largest items (a profile with 2 × 100k
 * entries is several MB) and can always be fetched again; a queued change, a setting or a
 * registration record cannot. So, rather than asking for one more permission:
 * - cached lists have a budget: saving one scope's lists evicts the views of the scopes fetched
 *   least recently (the popup fetches a scope's lists whenever it shows them stale, so the time of
 *   the fetch says when the scope was last used), and a view larger than the whole budget is not
 *   kept at all (the popup then fetches it each time it opens);
 * - a write of something that cannot be fetched again that the browser refuses for quota frees
 *   every cached view and is tried once more (`withRoom`). Only if that fails too is the write
 *   lost, and its caller says so to the user.
 */
import { browser } from 'wxt/browser';
import { exclusively } from '@/lib/outbox/lease';
import { removeRaw } from '@/lib/settings/item';
import { type CachedLists, cachedBlockedTodayItem, cachedListsIndexItem } from '@/lib/settings/storage';
import { cachedListsItem } from './cached-lists';
import { CACHED_LISTS_BUCKET_PREFIX, CACHED_LISTS_PREFIX } from './list-buckets';

/**
 * Characters of cached lists kept across all scopes: enough for one profile with 2 × 100k
 * entries (about 5.8 MB), and 4 MB of Chrome's 10 MB left for settings, the outbox (at most 500
 * entries) and the rest.
 */
const LIST_CACHE_BUDGET = 6 * 1024 * 1024;

/** The browser refused a write because the extension's storage is full. */
export function isQuotaError(error: unknown): boolean {
  if (!(error instanceof Error) && !(typeof error === 'object' && error !== null)) return false;
  const { name, message } = error as { name?: unknown; message?: unknown };
  // Chrome: "QUOTA_BYTES quota exceeded"; Firefox: a QuotaExceededError DOMException.
  return name === 'QuotaExceededError' || (typeof message === 'string' && /quota/i.test(message));
}

/** The keys of `storage.local`, without reading the values where the browser allows it. */
async function storedKeys(): Promise<string[]> {
  const area = browser.storage.local as typeof browser.storage.local & { getKeys?: () => Promise<string[]> };
  if (typeof area.getKeys === 'function') return area.getKeys();
  return Object.keys(await area.get(null));
}

/**
 * Removes every cached view the service can give again (lists of every scope, today's blocked
 * counts). Returns how many items went. Never throws: freeing room is best effort.
 */
async function freeCacheSpace(): Promise<number> {
  try {
    return await exclusively('list-caches', async () => {
      const caches = (await storedKeys()).filter(
        (key) =>
          key.startsWith(CACHED_LISTS_PREFIX) ||
          key.startsWith(CACHED_LISTS_BUCKET_PREFIX) ||
          key === cachedBlockedTodayItem.name,
      );
      await removeRaw('local', caches);
      await cachedListsIndexItem.removeValue();
      return caches.length;
    });
  } catch {
    return 0;
  }
}

/**
 * Runs a write of something that cannot be fetched again; refused for quota, it frees the cached
 * views and tries once more. A second refusal is thrown to the caller.
 */
export async function withRoom<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isQuotaError(error)) throw error;
    await freeCacheSpace();
    return write();
  }
}

/** Stored size of a view, as the browser counts it (its JSON; its buckets add a few bytes each). */
const sizeOf = (value: CachedLists) => JSON.stringify(value).length;

/**
 * Stores one scope's lists within the budget: the views of other scopes fetched most recently
 * are kept as long as they fit beside it, the others are removed first. Resolves to false when
 * the view was not kept (larger than the budget, or refused by the browser): the popup then
 * fetches it again next time, nothing else is affected.
 */
export function storeListsWithinBudget(
  scope: string,
  value: CachedLists,
  budget = LIST_CACHE_BUDGET,
): Promise<boolean> {
  return exclusively('list-caches', async () => {
    const size = sizeOf(value);
    const index = await cachedListsIndexItem.getValue();
    const fits = size <= budget;
    const kept: typeof index = {};
    const evicted: string[] = fits ? [] : [scope];
    let used = fits ? size : 0;
    const others = Object.entries(index)
      .filter(([other]) => other !== scope)
      .sort(([, a], [, b]) => b.fetchedAt - a.fetchedAt);
    for (const [other, entry] of others) {
      if (used + entry.size <= budget) {
        kept[other] = entry;
        used += entry.size;
      } else evicted.push(other);
    }
    // Room is made before the write, so the write itself is not the one that overflows.
    for (const other of evicted) await cachedListsItem(other).removeValue();
    let stored = false;
    if (fits) {
      try {
        await cachedListsItem(scope).setValue(value);
        kept[scope] = { fetchedAt: value.fetchedAt, size };
        stored = true;
      } catch (error) {
        if (!isQuotaError(error)) throw error;
        // Something else filled the storage: this view is the one that gives way.
        await cachedListsItem(scope).removeValue();
      }
    }
    await cachedListsIndexItem.setValue(kept);
    return stored;
  });
}
