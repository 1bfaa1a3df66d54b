/**
 * The popup's cached views of the service, each with the time it was fetched, in storage.local
 * (items in lib/settings/storage.ts). Reading never calls the service; lib/cache/refresh.ts
 * fetches and writes. A view of another account (its identity, lib/identity/identity.ts) reads as missing.
 */
import { packDomains, unpackDomains } from '@/lib/filtering/domain-index';
import { cachedBlockedTodayItem, profilesCacheItem } from '@/lib/settings/storage';
import { cachedListsItem } from './cached-lists';
import { isFresh } from './freshness';
import { bucketsCover, bucketsFor, listsStorageScope, type PackedLists } from './list-buckets';
import { type ChangeLike, replayChanges } from './list-changes';
import { storeListsWithinBudget } from './storage-room';

export interface CachedView<T> {
  value: T;
  fetchedAt: number;
}

/** Judged when asked, not when read: a popup may stay open past the freshness window. */
export function isFreshView(view: CachedView<unknown> | null, now: number): boolean {
  return view !== null && isFresh(view.fetchedAt, now);
}

/**
 * Both lists of one scope, packed (ready for `packedDomainIndex`): whole, or only the buckets
 * (./list-buckets.ts) of some hosts, which answer for those hosts and their parents alone
 * (`listsCover`).
 */
export interface ListsView extends PackedLists {
  /** The buckets read; absent: the whole lists. */
  buckets?: readonly number[];
}

/** True when `lists` can say whether `domain` (or a parent) is listed. */
export function listsCover(lists: ListsView, domain: string): boolean {
  return bucketsCover(lists.buckets, domain);
}

/**
 * A view just fetched, usable at once, and its write to storage. The popup shows the view
 * without waiting for the write; a write that fails only means the next opening fetches again.
 */
export interface Saving<T> {
  view: CachedView<T>;
  saved: Promise<unknown>;
}

/** Resolves with the view once it is stored, as callers expect; `.view` is there at once. */
export type SavedView<T> = Promise<CachedView<T>> & { view: CachedView<T> };

function savedView<T>(view: CachedView<T>, write: Promise<void>): SavedView<T> {
  return Object.assign(
    write.then(() => view),
    { view },
  );
}

export function createViewCache({ now = Date.now }: { now?: () => number } = {}) {
  const view = <T>(value: T, fetchedAt: number): CachedView<T> => ({ value, fetchedAt });
  /**
   * Lists being saved, by storage scope: a change confirmed meanwhile is applied to the saved
   * view, not lost because the save had not reached storage yet (checking it may wait for the
   * schemas to load, lib/settings/storage.ts).
   */
  const savingLists = new Map<string, Promise<unknown>>();

  return {
    /**
     * The scope's cached lists: with `hosts`, only the entries that can cover them (a few kB
     * however long the lists are); without, the whole lists.
     */
    async readLists(
      scope: string,
      account: string,
      hosts?: readonly string[],
    ): Promise<CachedView<ListsView> | null> {
      const item = cachedListsItem(listsStorageScope(scope, account));
      const buckets = hosts === undefined ? undefined : bucketsFor(hosts);
      const stored = buckets === undefined ? await item.getValue() : await item.getBuckets(buckets);
      if (stored === null || stored.account !== account) return null;
      const { whitelist, blocklist } = stored;
      return view({ whitelist, blocklist, ...(buckets === undefined ? {} : { buckets }) }, stored.fetchedAt);
    },

    saveLists(
      scope: string,
      account: string,
      lists: { whitelist: Iterable<string>; blocklist: Iterable<string> },
    ): SavedView<ListsView> {
      const value = { whitelist: packDomains(lists.whitelist), blocklist: packDomains(lists.blocklist) };
      const fetchedAt = now();
      const storageScope = listsStorageScope(scope, account);
      // Within the lists' budget (./storage-room.ts): a view that is not kept is fetched again.
      const saving = storeListsWithinBudget(storageScope, { account, fetchedAt, ...value }).then(
        () => undefined,
      );
      savingLists.set(storageScope, saving);
      const done = () => {
        if (savingLists.get(storageScope) === saving) savingLists.delete(storageScope);
      };
      saving.then(done, done);
      return savedView(view(value, fetchedAt), saving);
    },

    /**
     * Applies changes the service has confirmed to the cached view, keeping its fetch time: the
     * rest of the view is no newer than it was.
     */
    async applyChanges(scope: string, account: string, changes: ChangeLike[]): Promise<void> {
      if (changes.length === 0) return;
      const storageScope = listsStorageScope(scope, account);
      await savingLists.get(storageScope)?.catch(() => undefined);
      const item = cachedListsItem(storageScope);
      // Only the buckets of the changed domains are read and written again.
      const stored = await item.getBuckets(bucketsFor(changes.map((change) => change.domain)));
      if (stored === null || stored.account !== account || stored.buckets === null) return;
      const delta = replayChanges(changes);
      const apply = (packed: string, list: 'whitelist' | 'blocklist') => {
        const set = new Set(unpackDomains(packed));
        for (const domain of delta[list].removed) set.delete(domain);
        for (const domain of delta[list].added) set.add(domain);
        return packDomains(set);
      };
      try {
        const replaced = await item.replaceBuckets({
          ...stored,
          buckets: stored.buckets,
          whitelist: apply(stored.whitelist, 'whitelist'),
          blocklist: apply(stored.blocklist, 'blocklist'),
        });
        // Fetched again or gone meanwhile: whether that view has the changes is unknown, so it
        // goes and is fetched again.
        if (!replaced) await item.removeValue();
      } catch {
        // Storage full: a view without the change would be wrong, so it goes and is fetched again.
        await item.removeValue().catch(() => undefined);
      }
    },

    async readProfiles(account: string): Promise<CachedView<readonly string[]> | null> {
      const stored = await profilesCacheItem.getValue();
      if (stored === null || stored.account !== account) return null;
      return view(stored.profiles, stored.at);
    },

    saveProfiles(account: string, profiles: string[]): SavedView<readonly string[]> {
      // The shared item holds at most 200 (it feeds the context menu too).
      const kept = profiles.slice(0, 200);
      const at = now();
      return savedView(view(kept, at), profilesCacheItem.setValue({ account, profiles: kept, at }));
    },

    async readBlockedToday(
      account: string,
      date: string,
    ): Promise<CachedView<ReadonlyMap<string, number>> | null> {
      const stored = await cachedBlockedTodayItem.getValue();
      if (stored === null || stored.account !== account || stored.date !== date) return null;
      return view(new Map(Object.entries(stored.blocked)), stored.fetchedAt);
    },

    saveBlockedToday(
      account: string,
      date: string,
      blocked: ReadonlyMap<string, number>,
    ): SavedView<ReadonlyMap<string, number>> {
      const fetchedAt = now();
      const stored = { account, date, fetchedAt, blocked: Object.fromEntries(blocked) };
      return savedView(view(blocked, fetchedAt), cachedBlockedTodayItem.setValue(stored));
    },
  };
}

export type ViewCache = ReturnType<typeof createViewCache>;
