/**
 * Reconciliation (docs/schedules.md, "Reconciliation"): on each schedule alarm, worker start and
 * browser start, every account's schedules are evaluated for now (./desired.ts), compared with the
 * account's view (cached, fetched when stale) and only the differences are sent. Nothing is fired
 * at an edge and nothing remembers what was before, so running it twice sends nothing twice, and a
 * browser closed over an edge is put right at its next start.
 *
 * Domain changes go through the outbox (lib/outbox), with its retries, account binding and settled
 * log. Categories and default block are set with the account's own client: the outbox carries list
 * changes only. A failed one is simply still a difference at the next run, which the alarm brings
 * after the outbox's backoff (docs/schedules.md, "Sending").
 */

import { ApiError, isApiError } from '@/lib/api/errors';
import { scopeKey } from '@/lib/api/forms';
import type { DnsFilterApi } from '@/lib/api/types';
import { isFresh } from '@/lib/cache/freshness';
import { replayChanges } from '@/lib/cache/list-changes';
import { refreshLists } from '@/lib/cache/refresh';
import { createViewCache, type ViewCache } from '@/lib/cache/view-cache';
import { canonicalHost, unpackDomains } from '@/lib/filtering/domain-index';
import { t } from '@/lib/i18n';
import type { ConfiguredAccount } from '@/lib/identity/current';
import type { AccountId } from '@/lib/identity/identity';
import type { ListChange } from '@/lib/messaging/protocol';
import type { AlarmsApi } from '@/lib/outbox/alarms';
import { exclusively, tryAcquireLease } from '@/lib/outbox/lease';
import { backoffDelayMs, isRetryable } from '@/lib/outbox/policy';
import { enqueueChange } from '@/lib/outbox/queue';
import { type OutboxEntry, outboxItem } from '@/lib/settings/storage';
import { type DesiredThing, evaluateSchedules } from './desired';
import { CHECKS_LOCK } from './edit';
import type { DomainPlace } from './model';
import {
  type LastCheck,
  type ScheduleChecks,
  type SeenSettings,
  scheduleChecksItem,
  schedulesItem,
} from './store';
import { browserTimeZone, createZone } from './zone';

export const SCHEDULES_ALARM = 'schedules';
const LEASE = 'schedules';
const LEASE_TTL_MS = 60_000;
/**
 * The longest the worker sleeps between two checks, whatever the next edge: a clock set back or
 * forward, or a change made elsewhere, is seen within the hour (docs/schedules.md, "Time").
 */
export const LONGEST_SLEEP_MS = 60 * 60_000;

export interface ReconcileDeps {
  /** Every account of this browser with its client (lib/identity/current.ts readConfiguredAccounts). */
  getAccounts: () => Promise<ConfiguredAccount[]>;
  alarms: AlarmsApi;
  /** Starts delivery of an account's queued changes (lib/outbox deliverPending). */
  deliverOutbox: (account: AccountId) => Promise<unknown>;
  now?: () => number;
  /** The user's time zone; the browser's by default. */
  timeZone?: string;
  viewCache?: ViewCache;
}

export interface AccountReport {
  accountId: string;
  check: LastCheck;
}

export interface ReconcileReport {
  /** False when another reconciliation was running: nothing was done. */
  ran: boolean;
  accounts: AccountReport[];
  nextAlarmAt: number | null;
}

function asApiError(error: unknown): ApiError {
  return isApiError(error) ? error : new ApiError('unexpected', t('outbox.internalFailure'));
}

/** What one account's run found: its sends, their failures, and the view it saw. */
interface AccountRun {
  changes: number;
  waiting: string[];
  failed: string[];
  seen: Record<string, SeenSettings>;
}

/** The profile scope of the seen settings: the profile, or '' in Form B (the whole account). */
const seenScope = (profile: string | undefined) => profile ?? '';

function groupByProfile(things: Iterable<DesiredThing>): Map<string | undefined, DesiredThing[]> {
  const groups = new Map<string | undefined, DesiredThing[]>();
  for (const thing of things) {
    const group = groups.get(thing.profile) ?? [];
    group.push(thing);
    groups.set(thing.profile, group);
  }
  return groups;
}

/** Where each domain is, by the cached lists (fetched when stale) and the changes still queued. */
async function domainPlaces(
  account: ConfiguredAccount,
  client: DnsFilterApi,
  profile: string | undefined,
  domains: string[],
  deps: { cache: ViewCache; now: number; outbox: () => Promise<OutboxEntry[]> },
): Promise<Map<string, DomainPlace>> {
  const { cache, now } = deps;
  const scope = scopeKey(client.form, profile);
  const accountId = account.identity.id;
  let lists = await cache.readLists(scope, accountId, domains);
  if (lists === null || !isFresh(lists.fetchedAt, now)) {
    lists = (await refreshLists({ api: client, cache, account: accountId }, scope, profile)).view;
  }
  const whitelist = new Set(unpackDomains(lists.value.whitelist));
  const blocklist = new Set(unpackDomains(lists.value.blocklist));
  const queued = (await deps.outbox())
    .filter((entry) => entry.account === accountId && entry.change.profile === profile)
    .map((entry) => entry.change);
  const delta = replayChanges(queued);
  const places = new Map<string, DomainPlace>();
  for (const domain of domains) {
    const canonical = canonicalHost(domain);
    const on = (list: 'whitelist' | 'blocklist', set: Set<string>) =>
      delta[list].added.has(canonical) || (set.has(canonical) && !delta[list].removed.has(canonical));
    places.set(
      domain,
      on('whitelist', whitelist) ? 'whitelist' : on('blocklist', blocklist) ? 'blocklist' : 'none',
    );
  }
  return places;
}

/** Puts one profile's owned things where the schedules want them. */
async function reconcileProfile(
  account: ConfiguredAccount,
  client: DnsFilterApi,
  profile: string | undefined,
  things: DesiredThing[],
  run: AccountRun,
  deps: {
    cache: ViewCache;
    now: number;
    deliverOutbox: ReconcileDeps['deliverOutbox'];
    outbox: () => Promise<OutboxEntry[]>;
  },
): Promise<void> {
  const key = seenScope(profile);
  const failedWith = (error: unknown) => {
    const apiError = asApiError(error);
    (isRetryable(apiError) ? run.waiting : run.failed).push(apiError.message);
  };
  const categories = things.filter((thing) => thing.thing.kind === 'category');
  let seen = run.seen[key];
  if (categories.length > 0 && (!seen || !isFresh(seen.fetchedAt, deps.now))) {
    try {
      const listed = await client.listCategories(profile);
      seen = {
        ...(seen ?? {}),
        fetchedAt: deps.now,
        categories: Object.fromEntries(listed.map((category) => [category.id, category.blocked])),
      };
      run.seen[key] = seen;
    } catch (error) {
      failedWith(error);
      return;
    }
  }
  for (const desired of things) {
    const { thing } = desired;
    if (thing.kind === 'category') {
      const blocked = desired.value === true;
      if (seen?.categories[thing.category] === blocked) continue;
      try {
        await client.setCategoryBlocked(thing.category, blocked, profile);
        run.changes++;
        seen = {
          ...(seen ?? { fetchedAt: deps.now }),
          categories: { ...seen?.categories, [thing.category]: blocked },
        };
        run.seen[key] = seen;
      } catch (error) {
        failedWith(error);
      }
    } else if (thing.kind === 'default-block') {
      const enabled = desired.value === true;
      if (seen?.defaultBlock === enabled) continue;
      try {
        await client.setDefaultBlock(enabled, profile);
        run.changes++;
        seen = { ...(seen ?? { fetchedAt: 0, categories: {} }), defaultBlock: enabled };
        run.seen[key] = seen;
      } catch (error) {
        failedWith(error);
      }
    }
  }
  const domains = things.filter((thing) => thing.thing.kind === 'domain');
  if (domains.length === 0) return;
  let places: Map<string, DomainPlace>;
  try {
    places = await domainPlaces(
      account,
      client,
      profile,
      domains.map((desired) => (desired.thing.kind === 'domain' ? desired.thing.domain : '')),
      deps,
    );
  } catch (error) {
    failedWith(error);
    return;
  }
  let queued = 0;
  for (const desired of domains) {
    if (desired.thing.kind !== 'domain') continue;
    const want = desired.value as DomainPlace;
    const place = places.get(desired.thing.domain) ?? 'none';
    if (place === want) continue;
    const change: ListChange =
      want === 'none'
        ? {
            op: 'remove',
            list: place as 'whitelist' | 'blocklist',
            domain: desired.thing.domain,
            source: 'schedule',
          }
        : { op: 'add', list: want, domain: desired.thing.domain, source: 'schedule' };
    if (profile !== undefined) change.profile = profile;
    try {
      await enqueueChange(change, account.identity.id, () => deps.now);
      queued++;
    } catch (error) {
      run.failed.push(error instanceof Error ? error.message : String(error));
    }
  }
  if (queued > 0) {
    run.changes += queued;
    await deps.deliverOutbox(account.identity.id).catch(() => undefined);
  }
}

function checkOf(run: AccountRun, at: number): LastCheck {
  if (run.failed.length > 0)
    return { at, outcome: 'failed', changes: run.changes, message: run.failed[0]!.slice(0, 500) };
  if (run.waiting.length > 0)
    return { at, outcome: 'waiting', changes: run.changes, message: run.waiting[0]!.slice(0, 500) };
  return { at, outcome: run.changes > 0 ? 'sent' : 'in-step', changes: run.changes };
}

/**
 * Reconciles every account that has schedules, records each one's check, and sets the one
 * schedules alarm for the next instant anything changes (an edge minus the lead, a release that
 * ends, a retry), at most LONGEST_SLEEP_MS ahead; no schedules, no alarm.
 */
export async function reconcileSchedules(deps: ReconcileDeps): Promise<ReconcileReport> {
  const clock = deps.now ?? Date.now;
  const lease = await tryAcquireLease(LEASE, { ttlMs: LEASE_TTL_MS, now: clock });
  if (!lease) return { ran: false, accounts: [], nextAlarmAt: null };
  try {
    const now = clock();
    const timeZone = deps.timeZone ?? browserTimeZone();
    const zone = createZone(timeZone);
    const cache = deps.viewCache ?? createViewCache({ now: clock });
    const [stored, checks] = await Promise.all([schedulesItem.getValue(), scheduleChecksItem.getValue()]);
    const accounts = await deps.getAccounts();
    const reports: AccountReport[] = [];
    // Read once, when a domain is first compared: the changes still queued count as made.
    let outboxRead: Promise<OutboxEntry[]> | null = null;
    const outbox = () => {
      outboxRead ??= outboxItem.getValue();
      return outboxRead;
    };
    const patches = new Map<string, ScheduleChecks>();
    let nextAlarmAt: number | null = null;
    const wakeAt = (instant: number | null | undefined) => {
      if (instant === null || instant === undefined) return;
      const bounded = Math.min(Math.max(instant, now), now + LONGEST_SLEEP_MS);
      if (nextAlarmAt === null || bounded < nextAlarmAt) nextAlarmAt = bounded;
    };
    for (const account of accounts) {
      const schedules = stored[account.accountId];
      if (!schedules || schedules.rules.length === 0) continue;
      const found = checks[account.accountId] ?? { seen: {} };
      // A failed setting change waits for its backoff; the outbox keeps its own for domains.
      if (found.retryAt !== undefined && found.retryAt > now && found.retryAt - now <= LONGEST_SLEEP_MS) {
        wakeAt(found.retryAt);
        continue;
      }
      const evaluation = evaluateSchedules(
        schedules.rules,
        schedules.overrides,
        { now, timeZone, leadMinutes: schedules.leadMinutes },
        zone,
      );
      wakeAt(evaluation.nextWakeAt);
      const run: AccountRun = { changes: 0, waiting: [], failed: [], seen: { ...found.seen } };
      if (!account.client) {
        run.waiting.push(t('outbox.noKey'));
      } else {
        for (const [profile, things] of groupByProfile(evaluation.things.values())) {
          await reconcileProfile(account, account.client, profile, things, run, {
            cache,
            now,
            deliverOutbox: deps.deliverOutbox,
            outbox,
          });
        }
      }
      const check = checkOf(run, now);
      const failedAttempts = run.waiting.length > 0 ? (found.failedAttempts ?? 0) + 1 : 0;
      const retryAt = run.waiting.length > 0 ? now + backoffDelayMs(failedAttempts) : undefined;
      wakeAt(retryAt);
      patches.set(account.accountId, {
        seen: run.seen,
        lastCheck: check,
        ...(retryAt === undefined ? {} : { retryAt, failedAttempts }),
      });
      reports.push({ accountId: account.accountId, check });
    }
    if (patches.size > 0) await recordChecks(patches);
    if (nextAlarmAt === null) await deps.alarms.clear(SCHEDULES_ALARM);
    else if ((await deps.alarms.get(SCHEDULES_ALARM))?.scheduledTime !== nextAlarmAt)
      await deps.alarms.create(SCHEDULES_ALARM, { when: nextAlarmAt });
    return { ran: true, accounts: reports, nextAlarmAt };
  } finally {
    await lease.release();
  }
}

/** Writes what the worker found, account by account, on the stored findings as they are now. */
async function recordChecks(patches: Map<string, ScheduleChecks>): Promise<void> {
  await exclusively(CHECKS_LOCK, async () => {
    const current = await scheduleChecksItem.getValue();
    await scheduleChecksItem.setValue({ ...current, ...Object.fromEntries(patches) });
  });
}
