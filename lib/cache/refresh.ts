/**
 * Fetches the views the popup needs and stores them (lib/cache/view-cache.ts). One call per
 * list: `whitelist/list` and `blocklist/list` for the scope, `profiles/list`, and `logs/getstats`
 * for today when the lists are likely to leave the verdict open (the controller decides). Loaded
 * only when something is stale, so a popup with a fresh cache never loads the API client at all.
 */
import type { CallOptions, DnsFilterApi } from '@/lib/api/types';
import { summariseDay } from '@/lib/logs/stats';
import type { ListsView, SavedView, Saving, ViewCache } from './view-cache';

export interface RefreshTarget {
  api: DnsFilterApi;
  cache: ViewCache;
  account: string;
}

/** `profile` undefined in Form B (whole account). */
export async function refreshLists(
  { api, cache, account }: RefreshTarget,
  scope: string,
  profile: string | undefined,
  opts?: CallOptions,
): Promise<Saving<ListsView>> {
  const [whitelist, blocklist] = await Promise.all([
    api.listDomains('whitelist', profile, opts),
    api.listDomains('blocklist', profile, opts),
  ]);
  return notWaiting(cache.saveLists(scope, account, { whitelist, blocklist }));
}

export async function refreshProfiles(
  { api, cache, account }: RefreshTarget,
  opts?: CallOptions,
): Promise<Saving<readonly string[]>> {
  return notWaiting(cache.saveProfiles(account, await api.listProfiles(opts)));
}

/** Statistics are per account in both forms (`logs/getstats` takes no profile). */
export async function refreshBlockedToday(
  { api, cache, account }: RefreshTarget,
  date: string,
  opts?: CallOptions,
): Promise<Saving<ReadonlyMap<string, number>>> {
  const summary = summariseDay(await api.getStats(date, opts));
  const blocked = new Map(summary.blockedDomains.map(({ key, count }) => [key, count]));
  return notWaiting(cache.saveBlockedToday(account, date, blocked));
}

/** Not a promise: returned from an async function, it does not make the caller wait for the write. */
function notWaiting<T>(saving: SavedView<T>): Saving<T> {
  return { view: saving.view, saved: saving };
}
