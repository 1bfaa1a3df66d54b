/**
 * What the popup fetches after its first view: the stale or missing views (lists, profiles, today's
 * statistics) through the lazily loaded client (./remote.ts), and the cached list entries of more
 * hosts when page diagnosis shows them.
 */

import { capabilitiesOf } from '@/lib/api/forms';
import type { DnsFilterApi } from '@/lib/api/types';
import { type CachedView, isFreshView, listsCover } from '@/lib/cache/view-cache';
import { t } from '@/lib/i18n';
import { NO_KEY, parseAccountId } from '@/lib/identity/identity';
import {
  type ControllerContext,
  ignoreHere,
  listHosts,
  type PopupDeps,
  problemOf,
  shown,
  today,
} from './controller-context';
import type { ReadyState } from './state';
import { statisticsNeeded } from './verdict-inputs';

type Remote = Awaited<ReturnType<PopupDeps['loadRemote']>>;
interface Connection {
  remote: Remote;
  api: DnsFilterApi;
}

/** The API client and fetchers, with the settings read at start; null while no key is set. */
async function connect(ctx: ControllerContext): Promise<Connection | null> {
  const remote = await ctx.deps.loadRemote();
  const api = await remote.createConfiguredClient(
    ctx.clientSettings ? { settings: await ctx.clientSettings() } : {},
  );
  return api === null ? null : { remote, api };
}

/**
 * Today's statistics, through the one path both the verdict and page diagnosis use: fetched
 * once at a time (a second ask while one is on its way waits for that one), kept in the state
 * and the view cache. `current` drops an answer for a scope the user has left.
 */
function fetchStatistics(
  ctx: ControllerContext,
  connection: Connection,
  account: string,
  current: () => ReadyState | null,
) {
  const { update } = ctx;
  ctx.statsFetch ??= connection.remote
    .refreshBlockedToday({ api: connection.api, cache: ctx.deps.cache, account }, today(ctx))
    .then(
      (saving) => current() && update({ blockedToday: shown(saving), statsProblem: null }),
      (error: unknown) => current() && update({ statsProblem: problemOf(error).message }),
    )
    .finally(() => {
      ctx.statsFetch = null;
    });
  return ctx.statsFetch;
}

/**
 * Fetches only what is stale or missing: nothing at all when every view is fresh. The lists
 * come first; today's statistics only when the lists leave the verdict open.
 */
export async function refreshStale(ctx: ControllerContext, force = false): Promise<void> {
  const { deps, ready, update } = ctx;
  const initial = ready();
  if (initial === null || initial.refreshing) return;
  const fresh = (view: CachedView<unknown> | null) => !force && isFreshView(view, deps.now());
  const needLists = !fresh(initial.lists);
  const needProfiles = capabilitiesOf(initial.form).profileSelection && !fresh(initial.profiles);
  const statsStale = !fresh(initial.blockedToday);
  // Today's statistics settle the verdict only when the lists leave it open: predicted from the
  // lists at hand (stale ones too), assumed when none are cached. Fetched alongside the lists,
  // the fresh verdict waits for one round trip instead of two; and as they cover the whole
  // account, a fetch the lists turn out not to need still serves the next sites.
  const statsLikelyNeeded = statsStale && (initial.lists === null || statisticsNeeded(initial));
  if (!needLists && !needProfiles && !statsLikelyNeeded) return;

  const myGeneration = ctx.generation;
  const current = () => {
    const now = ready();
    return now !== null && ctx.generation === myGeneration ? now : null;
  };
  update({ refreshing: true, problem: null });
  const connection = await connect(ctx).catch((error: unknown) => {
    update({ refreshing: false, problem: problemOf(error) });
  });
  if (connection === undefined) return;
  if (connection === null) {
    // The view names an account with a key the popup cannot read now. A cached view stays, as it
    // was read; with none, the popup says why: the lock keeps the key (docs/lock.md), or there
    // is no key to use after all, and Setup is where to enter one.
    const keyKept = parseAccountId(initial.account)?.keyFingerprint !== NO_KEY;
    if (keyKept && initial.lists !== null) return update({ refreshing: false });
    if (keyKept && (await deps.lockedNow?.()) === true) {
      return update({ refreshing: false, problem: { kind: 'other', message: t('lock.nothingCached') } });
    }
    return ctx.set({ phase: 'no-key' });
  }
  const { remote, api } = connection;
  const target = { api, cache: deps.cache, account: initial.account };

  // The picker keeps what it has meanwhile: the verdict does not depend on the profiles, so
  // they are asked for once the verdict's own calls are answered, not in competition with them.
  const refreshProfiles = () =>
    remote
      .refreshProfiles(target)
      .then((saving) => current() && update({ profiles: shown(saving) }), ignoreHere);
  const fetchStats = () => fetchStatistics(ctx, connection, initial.account, current);
  let statsDone = statsLikelyNeeded ? fetchStats() : undefined;
  try {
    if (needLists) {
      const lists = shown(await remote.refreshLists(target, initial.scope, initial.profile));
      if (!current()) return;
      update({ lists });
    }
    const afterLists = current();
    if (statsDone === undefined && afterLists && statsStale && statisticsNeeded(afterLists)) {
      statsDone = fetchStats();
    }
  } catch (error) {
    if (current()) update({ problem: problemOf(error) });
  } finally {
    await statsDone;
    if (needProfiles) await refreshProfiles();
    if (current()) update({ refreshing: false });
  }
}

/**
 * Page diagnosis shows what today's statistics say of each failed host. When the verdict did
 * not need them (the lists settled it) and none are cached, they are fetched once, through the
 * same path as the verdict's.
 */
export async function requestStatistics(ctx: ControllerContext): Promise<void> {
  const { ready, update } = ctx;
  const initial = ready();
  if (initial === null || initial.blockedToday !== null || ctx.statsFetch !== null || ctx.statisticsRequested)
    return;
  ctx.statisticsRequested = true;
  const connection = await connect(ctx).catch((error: unknown) => {
    update({ statsProblem: problemOf(error).message });
  });
  if (!connection) return;
  await fetchStatistics(ctx, connection, initial.account, ready);
}

/**
 * Reads the cached list entries of more hosts (page diagnosis's), which the lists read at start
 * may not hold: until then their membership is unknown (verdict-inputs.ts `membershipOf`).
 */
export async function readListsFor(ctx: ControllerContext, hosts: readonly string[]): Promise<void> {
  const { ready, update } = ctx;
  // Kept for every later read (after a change, another profile), even when the lists held now
  // cover them: a view just fetched holds the whole lists, one read after a change does not.
  for (const host of hosts) ctx.otherListHosts.add(host);
  const current = ready();
  const held = current?.lists;
  if (!current || !held || hosts.every((host) => listsCover(held.value, host))) return;
  const lists = await ctx.deps.cache
    .readLists(current.scope, current.account, listHosts(ctx, current))
    .catch(() => null);
  // Kept only while nothing replaced the lists meanwhile (a fetch, a change, another profile).
  if (lists !== null && ready()?.lists === held) update({ lists });
}
