/**
 * Reconciliation (docs/schedules.md, "Reconciliation"): on each schedule alarm, worker start and
 * browser start, every account's schedules are evaluated for now (./desired.ts), compared with the
 * account's view (cached, fetched when stale) and only the differences are sent. Nothing is fired
 * at an edge and nothing remembers what was before, so running it twice sends nothing twice, and a
 * browser closed over an edge is put right at its next start.
 *
 * Every change goes through the outbox (lib/outbox), with its retries, account binding and settled
 * log: domains as list changes, categories and default block as setting changes. A change queued
 * or delivered counts as made, so a run never queues it twice (docs/schedules.md, "Sending"). Only
 * a read that failed (nothing could be compared) brings the run back after a backoff of its own.
 */

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
import type { ListChange, QueuedChange } from '@/lib/messaging/protocol';
import { carriesListChange, isListChange } from '@/lib/messaging/queued-change';
import { type AlarmsApi, scheduleAlarm } from '@/lib/outbox/alarms';
import { asApiError } from '@/lib/outbox/delivery';
import { exclusively, tryAcquireLease } from '@/lib/outbox/lease';
import { backoffDelayMs, isRetryable } from '@/lib/outbox/policy';
import { changesOf, enqueueChange, sameChange } from '@/lib/outbox/queue';
import { type OutboxEntry, outboxItem, type SettledChange, settledChangesItem } from '@/lib/settings/storage';
import { type DesiredThing, evaluateSchedules } from './desired';
import { CHECKS_LOCK } from './edit';
import type { DomainPlace } from './model';
import type { LastCheck, ScheduleChecks, SeenSettings } from './schema';
import { scheduleChecksItem, schedulesItem } from './store';
import { browserTimeZone, createZone } from './zone';

export const SCHEDULES_ALARM = 'schedules';
const LEASE = 'schedules';
const LEASE_TTL_MS = 60_000;
/**
 * The longest the worker sleeps between two checks, whatever the next edge: a clock set back or
 * forward, or a change made elsewhere, is seen within the hour (docs/schedules.md, "Time").
 */
const LONGEST_SLEEP_MS = 60 * 60_000;

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

/** What one account's run found: its sends, their failures, and the view it saw. */
interface AccountRun {
  changes: number;
  /** Something was queued: the outbox is asked to deliver the account's changes. */
  queued: boolean;
  /** Reads that failed and are worth another try (the run's own retry). */
  waiting: string[];
  /** Queued changes the outbox could not send yet: it retries them itself. */
  sending: string[];
  failed: string[];
  seen: Record<string, SeenSettings>;
  /** The changes this run queued, by profile scope: settings, and list changes. */
  sentSettings: Map<string, QueuedChange[]>;
  sentLists: Map<string, QueuedChange[]>;
}

/** What a run compares with: the cached views, and the outbox and its settled log (read lazily). */
interface RunReads {
  cache: ViewCache;
  now: number;
  outbox: () => Promise<OutboxEntry[]>;
  settled: () => Promise<SettledChange[]>;
}

function groupByProfile(things: Iterable<DesiredThing>): Map<string | undefined, DesiredThing[]> {
  const groups = new Map<string | undefined, DesiredThing[]>();
  for (const thing of things) {
    const group = groups.get(thing.profile) ?? [];
    group.push(thing);
    groups.set(thing.profile, group);
  }
  return groups;
}

/**
 * Where each domain is, by the cached lists (fetched when stale), the changes delivered since and
 * the changes still queued.
 */
async function domainPlaces(
  accountId: AccountId,
  client: DnsFilterApi,
  profile: string | undefined,
  domains: string[],
  deps: RunReads,
  /** When a schedule last queued a list change here: lists fetched before are read again. */
  sentAt: number,
): Promise<Map<string, DomainPlace>> {
  const { cache, now } = deps;
  const scope = scopeKey(client.form, profile);
  let lists = await cache.readLists(scope, accountId, domains);
  if (lists === null || !isFresh(lists.fetchedAt, now) || lists.fetchedAt <= sentAt) {
    lists = (await refreshLists({ api: client, cache, account: accountId }, scope, profile)).view;
  }
  const whitelist = new Set(unpackDomains(lists.value.whitelist));
  const blocklist = new Set(unpackDomains(lists.value.blocklist));
  const ours = (item: { account: string; change: ListChange }) =>
    item.account === accountId && item.change.profile === profile;
  // As the popup counts them (lib/popup/verdict-inputs.ts): delivered after the fetch, then queued.
  const fetchedAt = lists.fetchedAt;
  const delivered = (await deps.settled())
    .filter(carriesListChange)
    .filter((settled) => settled.state === 'delivered' && settled.at >= fetchedAt && ours(settled))
    .map((settled) => settled.change)
    .reverse();
  const queued = (await deps.outbox())
    .filter(carriesListChange)
    .filter(ours)
    .map((entry) => entry.change);
  const delta = replayChanges([...delivered, ...queued]);
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

/**
 * The state a setting of `profile` is in, as far as this browser knows: the view seen, then the
 * changes the outbox delivered since (the settled log), then the changes still queued, newest last.
 */
function settingStates(
  seen: SeenSettings | undefined,
  changes: { delivered: readonly SettledChange[]; queued: readonly OutboxEntry[] },
  account: AccountId,
  profile: string | undefined,
): { categories: Record<string, boolean>; defaultBlock?: boolean } {
  const categories = { ...seen?.categories };
  let defaultBlock = seen?.defaultBlock;
  const apply = (change: QueuedChange) => {
    if (change.op === 'set-category') categories[change.category] = change.blocked;
    else if (change.op === 'set-default-block') defaultBlock = change.enabled;
  };
  const ours = (item: { account: string; change: QueuedChange }) =>
    item.account === account && !isListChange(item.change) && item.change.profile === profile;
  // The settled log is newest first; a category fetched after a delivery is already in the view.
  for (const settled of [...changes.delivered].reverse()) {
    if (settled.state !== 'delivered' || !ours(settled)) continue;
    if (settled.change.op === 'set-category' && seen !== undefined && settled.at < seen.fetchedAt) continue;
    apply(settled.change);
  }
  for (const entry of changes.queued) if (ours(entry)) apply(entry.change);
  return defaultBlock === undefined ? { categories } : { categories, defaultBlock };
}

/** Puts one profile's owned things where the schedules want them. */
async function reconcileProfile(
  account: ConfiguredAccount,
  client: DnsFilterApi,
  profile: string | undefined,
  things: DesiredThing[],
  run: AccountRun,
  deps: RunReads,
): Promise<void> {
  // The profile scope of the seen settings: '' in Form B (the whole account).
  const key = profile ?? '';
  const accountId = account.identity.id;
  const failedWith = (error: unknown) => {
    const apiError = asApiError(error);
    (isRetryable(apiError) ? run.waiting : run.failed).push(apiError.message);
  };
  const withProfile = <T extends object>(change: T) =>
    profile === undefined ? change : { ...change, profile };
  const enqueue = async (sent: Map<string, QueuedChange[]>, change: QueuedChange) => {
    sent.set(key, [...(sent.get(key) ?? []), change]);
    try {
      await enqueueChange(change, accountId, () => deps.now);
      run.changes++;
      run.queued = true;
    } catch (error) {
      run.failed.push(error instanceof Error ? error.message : String(error));
    }
  };
  const categories = things.filter((thing) => thing.thing.kind === 'category');
  let seen = run.seen[key];
  if (categories.length > 0 && (!seen || !isFresh(seen.fetchedAt, deps.now))) {
    const listed = await client.listCategories(profile).catch(failedWith);
    if (!listed) return;
    seen = {
      ...(seen ?? {}),
      fetchedAt: deps.now,
      categories: Object.fromEntries(listed.map((category) => [category.id, category.blocked])),
    };
    run.seen[key] = seen;
  }
  const settings = things.filter((thing) => thing.thing.kind !== 'domain');
  if (settings.length > 0) {
    // Sent through the outbox (docs/schedules.md, "Sending"): a change already queued or
    // delivered counts as made, so running twice queues nothing twice.
    const [delivered, queued] = await Promise.all([deps.settled(), deps.outbox()]);
    const known = settingStates(seen, { delivered, queued: [] }, accountId, profile);
    seen = { ...(seen ?? { fetchedAt: 0 }), ...known };
    run.seen[key] = seen;
    const willBe = settingStates(seen, { delivered: [], queued }, accountId, profile);
    for (const desired of settings) {
      const { thing } = desired;
      const on = desired.value === true;
      if (thing.kind === 'category' && willBe.categories[thing.category] !== on) {
        await enqueue(
          run.sentSettings,
          withProfile({ op: 'set-category', category: thing.category, blocked: on, source: 'schedule' }),
        );
      } else if (thing.kind === 'default-block' && willBe.defaultBlock !== on) {
        await enqueue(
          run.sentSettings,
          withProfile({ op: 'set-default-block', enabled: on, source: 'schedule' }),
        );
      }
    }
  }
  const domains = things.flatMap(({ thing, value }) =>
    thing.kind === 'domain' ? [{ domain: thing.domain, want: value as DomainPlace }] : [],
  );
  if (domains.length === 0) return;
  const sentAt = run.seen[key]?.listsSentAt ?? 0;
  const wanted = domains.map(({ domain }) => domain);
  const places = await domainPlaces(accountId, client, profile, wanted, deps, sentAt).catch(failedWith);
  if (!places) return;
  for (const { domain, want } of domains) {
    const place = places.get(domain) ?? 'none';
    if (place === want) continue;
    const change: ListChange =
      want === 'none'
        ? { op: 'remove', list: place as 'whitelist' | 'blocklist', domain, source: 'schedule' }
        : { op: 'add', list: want, domain, source: 'schedule' };
    await enqueue(run.sentLists, withProfile(change));
  }
}

function checkOf(run: AccountRun, at: number): LastCheck {
  if (run.failed.length > 0)
    return { at, outcome: 'failed', changes: run.changes, message: run.failed[0]!.slice(0, 500) };
  const waiting = [...run.waiting, ...run.sending];
  if (waiting.length > 0)
    return { at, outcome: 'waiting', changes: run.changes, message: waiting[0]!.slice(0, 500) };
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
    // Read once, when first compared (and again after a delivery): the changes still queued,
    // and those delivered, count as made.
    let outboxRead: Promise<OutboxEntry[]> | null = null;
    const outbox = () => (outboxRead ??= outboxItem.getValue());
    let settledRead: Promise<SettledChange[]> | null = null;
    const settled = () => (settledRead ??= settledChangesItem.getValue());
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
      // A failed read waits for its backoff; queued changes keep the outbox's own.
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
      const run: AccountRun = {
        changes: 0,
        queued: false,
        waiting: [],
        sending: [],
        failed: [],
        seen: { ...found.seen },
        sentSettings: new Map(),
        sentLists: new Map(),
      };
      if (!account.client) {
        run.waiting.push(t('outbox.noKey'));
      } else {
        for (const [profile, things] of groupByProfile(evaluation.things.values())) {
          await reconcileProfile(account, account.client, profile, things, run, {
            cache,
            now,
            outbox,
            settled,
          });
        }
        if (run.queued) {
          await deps.deliverOutbox(account.identity.id).catch(() => undefined);
          outboxRead = null;
          settledRead = null;
        }
        const changes = { outbox: await outbox(), settled: await settled() };
        followDelivery(account.identity.id, run, changes, now);
        markLostForRefetch(run, account.identity.id, changes, now);
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
    else await scheduleAlarm(deps.alarms, SCHEDULES_ALARM, nextAlarmAt);
    return { ran: true, accounts: reports, nextAlarmAt };
  } finally {
    await lease.release();
  }
}

/**
 * What became of the schedules' changes of `account` in the outbox: the ones still waiting say why
 * in the check, and the settings delivered are written into the view seen.
 */
function followDelivery(
  account: AccountId,
  run: AccountRun,
  changes: { outbox: readonly OutboxEntry[]; settled: readonly SettledChange[] },
  since: number,
): void {
  for (const entry of changesOf(changes.outbox, account)) {
    if (entry.change.source === 'schedule' && entry.lastError !== undefined)
      run.sending.push(entry.lastError);
  }
  for (const settled of changes.settled) {
    const refusedNow = settled.state === 'failed' && settled.at >= since;
    if (refusedNow && settled.account === account && settled.change.source === 'schedule')
      run.failed.push(settled.message);
  }
  for (const [key, seen] of Object.entries(run.seen)) {
    const profile = key === '' ? undefined : key;
    run.seen[key] = {
      ...seen,
      ...settingStates(seen, { delivered: changes.settled, queued: [] }, account, profile),
    };
  }
}

/**
 * What a run sent is known from the settled log, which keeps only the last few changes of the
 * whole browser (docs/schedules.md, "Sending"). The settings delivered are written into the view
 * seen (`followDelivery`); where one is neither waiting nor in that log any more, the categories
 * are read again at the next check. The cached lists keep no record of a delivery: once a list
 * change of this run left the outbox, the lists are read again at the next check, once, as
 * another account's deliveries may push it out of the log before then. Without this, a check
 * after a large batch would send its changes again until the view went stale.
 */
function markLostForRefetch(
  run: AccountRun,
  account: AccountId,
  changes: { outbox: readonly OutboxEntry[]; settled: readonly SettledChange[] },
  now: number,
): void {
  const queued = changesOf(changes.outbox, account).map((entry) => entry.change);
  const known = [
    ...queued,
    ...changes.settled.filter((settled) => settled.account === account).map((settled) => settled.change),
  ];
  const among = (list: readonly QueuedChange[], change: QueuedChange) =>
    list.some((other) => sameChange(other, change));
  const lost = (sent: readonly QueuedChange[]) => sent.some((change) => !among(known, change));
  for (const [key, sent] of run.sentSettings) {
    const seen = run.seen[key];
    if (seen && lost(sent)) run.seen[key] = { ...seen, fetchedAt: 0 };
  }
  for (const [key, sent] of run.sentLists) {
    const waiting = sent.every((change) => among(queued, change));
    if (!waiting)
      run.seen[key] = { ...(run.seen[key] ?? { fetchedAt: 0, categories: {} }), listsSentAt: now };
  }
}

/** Writes what the worker found, account by account, on the stored findings as they are now. */
async function recordChecks(patches: Map<string, ScheduleChecks>): Promise<void> {
  await exclusively(CHECKS_LOCK, async () => {
    const current = await scheduleChecksItem.getValue();
    await scheduleChecksItem.setValue({ ...current, ...Object.fromEntries(patches) });
  });
}
