/**
 * The outbox of one-click list changes. A change is written to storage before anything is
 * sent and leaves only when the service confirmed it, or refused it for good; in between it is
 * retried with exponential backoff, driven by an alarm, across worker and browser restarts.
 *
 * Order is kept where it matters: the changes for one domain (and profile) go out in the order
 * they were made (adding then removing the same domain must not arrive the other way round), and
 * a change that cannot be sent yet holds the ones behind it. A new click goes before the changes
 * for other domains, so its sender hears about it first (`submitChange`).
 *
 * Each change belongs to the account it was made for (lib/identity/identity.ts) and is sent only
 * while that account is the one configured: after a new key, origin or form, the changes of the
 * account before wait, in order, and hold nothing of the new one (./other-accounts.ts).
 *
 * Storage: every write of the outbox makes room by evicting cached views when the browser refuses
 * it for quota (lib/cache/storage-room.ts); a change that still cannot be stored is refused with
 * a message, never dropped in silence.
 */

import { attempts, listName } from '@/lib/api/attempts';
import { ApiError, isApiError } from '@/lib/api/errors';
import type { DnsFilterApi, DomainListKind } from '@/lib/api/types';
import { isQuotaError, withRoom } from '@/lib/cache/storage-room';
import { t } from '@/lib/i18n';
import type { CurrentAccount } from '@/lib/identity/current';
import type { AccountId } from '@/lib/identity/identity';
import type { ChangeOutcome, ListChange } from '@/lib/messaging/protocol';
import { followQueued, followSettled, notes } from '@/lib/notes';
import {
  OUTBOX_LIMIT,
  type OutboxEntry,
  outboxItem,
  type SettledChange,
  settledChangesItem,
} from '@/lib/settings/storage';
import { normaliseDomainInput } from '@/lib/validation';
import type { AlarmsApi } from './alarms';
import { exclusively, randomId, tryAcquireLease } from './lease';

export const OUTBOX_ALARM = 'outbox-retry';
const LEASE = 'outbox';
/**
 * Each account's changes are delivered on their own alarm and under their own lease, named by the
 * identity they carry: a slow or failing account never holds another's changes back.
 */
export const outboxAlarmOf = (account: AccountId) => `${OUTBOX_ALARM}:${account}`;
export const outboxLeaseOf = (account: AccountId) => `${LEASE}:${account}`;
/** One change is at most three calls (remove from the other list, add, verify) of 15 s each. */
const LEASE_TTL_MS = 60_000;
/** Set before each send: wakes a restarted worker if this one is stopped mid-request. */
const SAFETY_WAKE_MS = 30_000;
export const BACKOFF = { firstMs: 30_000, maxMs: 30 * 60_000 } as const;
/**
 * Longest wait a Retry-After imposes: a service asking for a day would hold the user's changes
 * for a day. Past this, the change is tried again; a service still busy says so again.
 */
export const RETRY_AFTER_MAX_MS = 60 * 60_000;
/**
 * A change still not sent after a week of waiting is dropped and reported: applying it then would
 * surprise. The week is counted by the outbox itself (`waitedSoFar`), not read off the clock.
 */
export const MAX_AGE_MS = 7 * 24 * 60 * 60_000;
/**
 * The most one step of that count adds: the time between two counts of a waiting change. While the
 * browser runs, a failing change is tried at least hourly; a longer step is a clock set forward or
 * a browser closed (asleep) meanwhile, and counts as a day, so no single jump drops a change.
 */
const MAX_AGE_STEP_MS = 24 * 60 * 60_000;
const SETTLED_KEPT = 20;
/** How long `submitChange` waits for its own change before answering "pending". */
export const SUBMIT_WAIT_MS = 20_000;
const WAIT_STEP_MS = 200;

export interface OutboxDeps {
  /** The active account, with its client (lib/identity/current.ts): new changes are made for it. */
  getAccount: () => Promise<CurrentAccount>;
  /**
   * Every account of this browser, each with its own client (lib/identity/current.ts
   * `readConfiguredAccounts`): each one's changes are delivered with its own key to its own
   * origin, whichever is active. Default: the active account only.
   */
  getAccounts?: () => Promise<CurrentAccount[]>;
  alarms: AlarmsApi;
  now?: () => number;
  /**
   * Called for every change that leaves the outbox. `afterRetry` is true when the sender was
   * earlier told "pending": nobody is waiting for the answer any more, so it must be reported.
   */
  onSettled?: (settled: SettledChange, afterRetry: boolean) => unknown;
}

export type DeliveryResult =
  | { state: 'delivered'; message: string }
  | { state: 'failed'; message: string }
  /**
   * Not sent: try again later (service unreachable or busy, odd answer, key refused or missing).
   * `retryAfterMs`: the service asked to wait that long (Retry-After).
   */
  | { state: 'retry'; message: string; retryAfterMs?: number };

/** Milliseconds to wait after `attempts` failed attempts: 30 s, 1 min, 2 min … at most 30 min. */
export function backoffDelayMs(failedAttempts: number): number {
  return Math.min(BACKOFF.firstMs * 2 ** Math.max(0, Math.min(failedAttempts - 1, 20)), BACKOFF.maxMs);
}

/** How long `entry` has waited, as the outbox counts it (`MAX_AGE_STEP_MS`), at `now`. */
function waitedSoFar(entry: OutboxEntry, now: number): number {
  const step = Math.min(Math.max(0, now - (entry.countedAt ?? entry.createdAt)), MAX_AGE_STEP_MS);
  return (entry.waitedMs ?? 0) + step;
}

/** `entry` with its wait counted up to `now`. */
function counted(entry: OutboxEntry, now: number): OutboxEntry {
  return { ...entry, waitedMs: waitedSoFar(entry, now), countedAt: now };
}

/**
 * `entry` with its waits no further from `now` than their own lengths (the backoff of its attempts,
 * the wait the service asked for): a clock set back after a wait was set would stretch the wait by
 * as much (two days back: a minute's Retry-After held the change two days). The same entry when
 * nothing changes. A wait stored without its length is bounded by the longest there is.
 */
function waitsWithinTheirLengths(entry: OutboxEntry, now: number): OutboxEntry {
  const asked = entry.notBefore === undefined ? 0 : (entry.askedWaitMs ?? RETRY_AFTER_MAX_MS);
  const retryIn = entry.attempts === 0 ? 0 : Math.max(backoffDelayMs(entry.attempts), asked);
  const nextAttemptAt = Math.min(entry.nextAttemptAt, now + retryIn);
  const notBefore = entry.notBefore === undefined ? undefined : Math.min(entry.notBefore, now + asked);
  if (nextAttemptAt === entry.nextAttemptAt && notBefore === entry.notBefore) return entry;
  return { ...entry, nextAttemptAt, ...(notBefore === undefined ? {} : { notBefore }) };
}

/**
 * What to do with a failure: transient ones are retried; a bad or missing key is retried too,
 * because the user fixes the key in Setup and expects the change to go through then. A refusal
 * of the change itself is final. By answer (the kinds of lib/api/errors.ts):
 *
 * | the service's answer                            | kind          | the change                      |
 * |-------------------------------------------------|---------------|---------------------------------|
 * | none (offline, DNS, connection refused/dropped) | network       | kept, retried with backoff      |
 * | none within the time limit (15 s)               | timeout       | kept, retried with backoff      |
 * | any 5xx or 429, JSON failure body or not        | server        | kept, retried with backoff, and |
 * |                                                 |               | never before its Retry-After    |
 * |                                                 |               | (at most RETRY_AFTER_MAX_MS),   |
 * |                                                 |               | not even on a user action       |
 * | HTML page, not JSON, unknown shape              | unexpected    | kept, retried with backoff      |
 * | key refused                                     | bad-key       | kept, goes once the key is fixed|
 * | cancelled                                       | aborted       | kept, retried with backoff      |
 * | failure body with a reason (not 5xx/429)        | service       | final, reason shown; unless the |
 * |                                                 |               | list already is as asked        |
 * | input refused before sending                    | invalid-input | final                           |
 * | answer over the size cap                        | too-large     | final                           |
 */
export function isRetryable(error: ApiError): boolean {
  return (
    error.kind === 'network' ||
    error.kind === 'timeout' ||
    error.kind === 'server' ||
    error.kind === 'unexpected' ||
    error.kind === 'aborted' ||
    error.kind === 'bad-key'
  );
}

/** A retryable failure as a result, with the wait the service asked for. */
function retryOf(error: ApiError): DeliveryResult {
  const asked = error.kind === 'server' ? error.details.retryAfterMs : undefined;
  return asked === undefined
    ? { state: 'retry', message: error.message }
    : { state: 'retry', message: error.message, retryAfterMs: asked };
}

function asApiError(error: unknown): ApiError {
  return isApiError(error) ? error : new ApiError('unexpected', t('outbox.internalFailure'));
}

const otherList = (list: DomainListKind): DomainListKind =>
  list === 'whitelist' ? 'blocklist' : 'whitelist';

/** "example.com is (not) on the whitelist (of profile kids).": a change the service already held. */
function presenceText(change: ListChange): string {
  const { op, list, domain, profile } = change;
  const words = { domain, list: listName(list) };
  if (profile === undefined) return t(op === 'add' ? 'outbox.isOn' : 'outbox.isOff', words);
  return t(op === 'add' ? 'outbox.isOnProfile' : 'outbox.isOffProfile', { ...words, profile });
}

/** What a delivered change did. */
function doneText(change: ListChange, removedFromOther: boolean): string {
  const { op, list, domain, profile } = change;
  const words = { domain, list: listName(list) };
  if (op === 'remove') {
    return profile === undefined
      ? t('outbox.removed', words)
      : t('outbox.removedProfile', { ...words, profile });
  }
  if (removedFromOther) {
    const other = listName(otherList(list));
    return profile === undefined
      ? t('outbox.moved', { ...words, other })
      : t('outbox.movedProfile', { ...words, other, profile });
  }
  return profile === undefined ? t('outbox.added', words) : t('outbox.addedProfile', { ...words, profile });
}

/** What a change does, completing "Could not …" and "Waiting to …". */
export function describeChange(change: ListChange): string {
  return change.op === 'add'
    ? attempts.addDomain(change.list, change.domain, change.profile)
    : attempts.deleteDomain(change.list, change.domain, change.profile);
}

/**
 * Sends one change. Adding keeps the lists exclusive (docs/service-api.md): the domain is removed from
 * the other list first, and a refusal there ("not on that list") is fine. A refusal of the change
 * itself is checked against the list, so a change the service already holds (a retry after an
 * answer was lost) counts as delivered rather than failed.
 */
export async function deliverChange(client: DnsFilterApi, change: ListChange): Promise<DeliveryResult> {
  const { op, list, domain, profile } = change;
  let removedFromOther = false;
  try {
    if (op === 'add') {
      try {
        await client.deleteDomain(otherList(list), domain, profile);
        removedFromOther = true;
      } catch (error) {
        const apiError = asApiError(error);
        if (isRetryable(apiError)) throw apiError;
      }
      await client.addDomain(list, domain, profile);
    } else {
      await client.deleteDomain(list, domain, profile);
    }
  } catch (error) {
    const apiError = asApiError(error);
    if (isRetryable(apiError)) return retryOf(apiError);
    if (apiError.kind === 'service') {
      try {
        const present = (await client.listDomains(list, profile)).includes(domain);
        if (present === (op === 'add')) {
          return { state: 'delivered', message: presenceText(change) };
        }
      } catch (verifyError) {
        const verifyApiError = asApiError(verifyError);
        if (isRetryable(verifyApiError)) return retryOf(verifyApiError);
      }
    }
    return { state: 'failed', message: apiError.message };
  }
  return { state: 'delivered', message: `${doneText(change, removedFromOther)} ${t('outbox.propagation')}` };
}

const sameChange = (a: ListChange, b: ListChange) =>
  a.op === b.op && a.list === b.list && a.domain === b.domain && a.profile === b.profile;

/** Changes to the same domain of the same scope: their order matters, other changes are independent. */
const sameTarget = (a: ListChange, b: ListChange) => a.domain === b.domain && a.profile === b.profile;

/** The waiting changes of `account`, oldest first: the ones it may be sent. */
export function changesOf(entries: readonly OutboxEntry[], account: AccountId): OutboxEntry[] {
  return entries.filter((entry) => entry.account === account);
}

/** The outbox already holds OUTBOX_LIMIT changes: nothing more is queued until some are sent. */
export class OutboxFullError extends Error {
  constructor() {
    super('outbox full');
    this.name = 'OutboxFullError';
  }
}

export interface EnqueueOptions {
  /**
   * Put the change before the waiting changes for other domains (its sender waits for it); it
   * still goes after the earlier changes for its own domain and scope.
   */
  ahead?: boolean;
}

/**
 * Writes a change for `account` to the outbox and returns its entry. The same change already
 * waiting, with no later change of that account for its domain, is not queued twice: its entry is
 * returned instead. Rejects with OutboxFullError, writing nothing, when the outbox is full, and
 * with the storage's error when the change could not be stored even after the cached views made
 * room.
 */
export async function enqueueChange(
  change: ListChange,
  account: AccountId,
  now: () => number = Date.now,
  options: EnqueueOptions = {},
): Promise<OutboxEntry> {
  const queued = await exclusively('outbox', async () => {
    const entries = await outboxItem.getValue();
    let lastForTarget = -1;
    entries.forEach((entry, index) => {
      if (entry.account === account && sameTarget(entry.change, change)) lastForTarget = index;
    });
    const waiting = entries[lastForTarget];
    if (waiting && sameChange(waiting.change, change)) return waiting;
    if (entries.length >= OUTBOX_LIMIT) throw new OutboxFullError();
    const entry: OutboxEntry = {
      id: randomId(),
      change,
      account,
      createdAt: now(),
      attempts: 0,
      nextAttemptAt: now(),
    };
    const at = options.ahead ? lastForTarget + 1 : entries.length;
    await withRoom(() => outboxItem.setValue([...entries.slice(0, at), entry, ...entries.slice(at)]));
    return entry;
  });
  // Every addition queued from any surface is remembered with its source and page (lib/notes);
  // best effort: a change is never refused for its record.
  await followQueued(notes, queued.change, account).catch(() => undefined);
  return queued;
}

async function updateOutbox(update: (entries: OutboxEntry[]) => OutboxEntry[]): Promise<void> {
  await exclusively('outbox', async () => {
    const updated = update(await outboxItem.getValue());
    await withRoom(() => outboxItem.setValue(updated));
  });
}

async function recordSettled(settled: SettledChange): Promise<void> {
  await exclusively('outbox-settled', async () => {
    const kept = [settled, ...(await settledChangesItem.getValue())].slice(0, SETTLED_KEPT);
    await withRoom(() => settledChangesItem.setValue(kept));
  });
}

/**
 * Whether the sender of a change has been answered already, so its outcome must be reported:
 * it was told "pending" after a failed attempt, or `submitChange` stopped waiting for it.
 */
function senderWasAnswered(entry: OutboxEntry, now: number): boolean {
  return entry.attempts > 0 || now - entry.createdAt >= SUBMIT_WAIT_MS;
}

async function settle(
  entry: OutboxEntry,
  result: Omit<SettledChange, 'id' | 'change' | 'account'>,
  deps: OutboxDeps,
) {
  const settled: SettledChange = { id: entry.id, change: entry.change, account: entry.account, ...result };
  // A confirmed removal, or a refused addition, takes the entry's record (lib/notes) with it,
  // before anyone hears the outcome.
  await followSettled(notes, settled).catch(() => undefined);
  // Recorded before removal: whoever sees the entry gone finds its outcome.
  await recordSettled(settled);
  await updateOutbox((entries) => entries.filter((candidate) => candidate.id !== entry.id));
  try {
    await deps.onSettled?.(settled, senderWasAnswered(entry, (deps.now ?? Date.now)()));
  } catch {
    // Reporting is best effort; the outcome is stored in settledChangesItem either way.
  }
}

/**
 * Sets the outbox alarm for `when` unless it is set for that time already: a worker woken again
 * and again (start-up, storage changes) must not keep pushing or re-creating it.
 */
async function scheduleAlarm(alarms: AlarmsApi, name: string, when: number): Promise<void> {
  if ((await alarms.get(name))?.scheduledTime === when) return;
  await alarms.create(name, { when });
}

/** The accounts whose changes may be sent now, one per identity. */
async function deliverableAccounts(deps: OutboxDeps): Promise<CurrentAccount[]> {
  const accounts = deps.getAccounts ? await deps.getAccounts() : [await deps.getAccount()];
  return [...new Map(accounts.map((account) => [account.identity.id, account])).values()];
}

/** Until when the service asked not to be called (Retry-After of any waiting change), or 0. */
function pausedUntil(entries: OutboxEntry[]): number {
  return Math.max(0, ...entries.map((entry) => entry.notBefore ?? 0));
}

export interface DeliveryReport {
  /** False when another delivery held the lease: nothing was done. */
  ran: boolean;
  /** Entries left, oldest first. */
  remaining: OutboxEntry[];
}

/**
 * Sends the waiting changes of every account of this browser (or of `only`), each account's in
 * order, with that account's own client, until none is left or one must wait. The accounts are
 * independent: each has its own lease and alarm (`outboxLeaseOf`, `outboxAlarmOf`), and one
 * that is slow or failing holds nothing of another back. `force` ignores the backoff of the
 * oldest change (a user action, the browser starting, a new key); the alarm respects it. Nobody
 * overrides a wait the service asked for (Retry-After). Changes whose identity is no account of
 * this browser stay untouched (./other-accounts.ts). Never throws for a delivery problem.
 */
export async function deliverPending(
  deps: OutboxDeps,
  options: { force: boolean; only?: AccountId },
): Promise<DeliveryReport> {
  const accounts = (await deliverableAccounts(deps)).filter(
    (account) => options.only === undefined || account.identity.id === options.only,
  );
  const entries = await outboxItem.getValue();
  const busy = accounts.filter((account) => changesOf(entries, account.identity.id).length > 0);
  // Each account's alarm is cleared once its changes are gone, even with nothing to send now.
  for (const account of accounts) {
    if (!busy.includes(account)) await deps.alarms.clear(outboxAlarmOf(account.identity.id));
  }
  const runs = await Promise.all(
    busy.map((account) => deliverAccount(deps, account.identity.id, options.force)),
  );
  const ran = runs.length === 0 || runs.some((run) => run);
  // Setup writes the key and the connection one after the other: a run started by the first
  // write found the account it ends in only now, so that account gets its turn here.
  if (options.only === undefined) {
    const seen = new Set(accounts.map((account) => account.identity.id));
    const after = await deliverableAccounts(deps);
    const remaining = await outboxItem.getValue();
    if (
      after.some(
        (account) => !seen.has(account.identity.id) && changesOf(remaining, account.identity.id).length > 0,
      )
    ) {
      return deliverPending(deps, { force: true });
    }
    return { ran, remaining };
  }
  return { ran, remaining: await outboxItem.getValue() };
}

/**
 * Sends the changes of the account whose identity is `accountId`, under its lease; false when
 * another delivery holds that lease (nothing was done).
 */
async function deliverAccount(deps: OutboxDeps, accountId: AccountId, forced: boolean): Promise<boolean> {
  const now = deps.now ?? Date.now;
  const alarm = outboxAlarmOf(accountId);
  const lease = await tryAcquireLease(outboxLeaseOf(accountId), { ttlMs: LEASE_TTL_MS, now });
  if (!lease) return false;
  try {
    let force = forced;
    for (;;) {
      // Read for each change: the account may be changed or removed while one is on its way.
      const account = (await deliverableAccounts(deps)).find(
        (candidate) => candidate.identity.id === accountId,
      );
      let entries = changesOf(await outboxItem.getValue(), accountId);
      // Waits longer than their own lengths (a clock set back) are shortened, once, in storage.
      const bounded = entries.map((entry) => waitsWithinTheirLengths(entry, now()));
      if (bounded.some((entry, index) => entry !== entries[index])) {
        const byId = new Map(bounded.map((entry) => [entry.id, entry]));
        await updateOutbox((current) => current.map((entry) => byId.get(entry.id) ?? entry));
        entries = bounded;
      }
      const [head] = entries;
      if (!account || !head) {
        await deps.alarms.clear(alarm);
        break;
      }
      // Kept for its account by the user's choice: sent when that account is back, however late.
      if (!head.keptForAccount && waitedSoFar(head, now()) > MAX_AGE_MS) {
        await settle(
          head,
          {
            state: 'failed',
            message: head.lastError
              ? t('outbox.gaveUpReason', { attempted: describeChange(head.change), reason: head.lastError })
              : t('outbox.gaveUp', { attempted: describeChange(head.change) }),
            at: now(),
          },
          deps,
        );
        continue;
      }
      // The service is busy for every change, not only the one it answered: all of them wait.
      const paused = pausedUntil(entries);
      if (paused > now()) {
        await scheduleAlarm(deps.alarms, alarm, paused);
        break;
      }
      if (!force && head.nextAttemptAt > now()) {
        await scheduleAlarm(deps.alarms, alarm, head.nextAttemptAt);
        break;
      }
      if (!(await lease.renew())) break;
      await scheduleAlarm(deps.alarms, alarm, now() + SAFETY_WAKE_MS);
      const client = account.client;
      const result: DeliveryResult = client
        ? await deliverChange(client, head.change)
        : { state: 'retry', message: t('outbox.noKey') };
      if (result.state === 'retry') {
        const failedAttempts = head.attempts + 1;
        const askedMs =
          result.retryAfterMs === undefined
            ? undefined
            : Math.min(Math.max(0, result.retryAfterMs), RETRY_AFTER_MAX_MS);
        const nextAttemptAt = now() + Math.max(backoffDelayMs(failedAttempts), askedMs ?? 0);
        await updateOutbox((current) =>
          current.map((entry) => {
            // Each attempt counts how long the account's changes have waited (`waitedSoFar`).
            if (entry.account !== accountId) return entry;
            if (entry.id !== head.id) return counted(entry, now());
            const { notBefore: _earlierWait, askedWaitMs: _earlierLength, ...rest } = counted(entry, now());
            return {
              ...rest,
              attempts: failedAttempts,
              nextAttemptAt,
              lastError: result.message,
              ...(askedMs === undefined ? {} : { notBefore: now() + askedMs, askedWaitMs: askedMs }),
            };
          }),
        );
        await scheduleAlarm(deps.alarms, alarm, nextAttemptAt);
        break;
      }
      await settle(head, { state: result.state, message: result.message, at: now() }, deps);
      // The next change had no chance yet: it goes now, whatever its own schedule.
      force = true;
    }
  } finally {
    await lease.release();
  }
  return true;
}

/**
 * "Send now": a forced delivery whose caller hears what is left once it is over or after
 * `boundMs`, whichever comes first, so a button never stays busy for minutes behind slow
 * changes. The delivery itself goes on past the answer.
 */
export async function deliverPendingWithin(
  deps: OutboxDeps,
  boundMs: number = SUBMIT_WAIT_MS,
): Promise<OutboxEntry[]> {
  const run = deliverPending(deps, { force: true }).catch(() => null);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), boundMs);
  });
  const report = await Promise.race([run, bound]);
  clearTimeout(timer);
  return report?.remaining ?? (await outboxItem.getValue());
}

/** A list edit made straight with the service (the options page), newest of all. */
export interface DirectListEdit {
  op: ListChange['op'];
  list: DomainListKind;
  domain: string;
  /** Form A profile; undefined in Form B. */
  profile: string | undefined;
}

/** What a change does to `list` for its domain: puts it on, takes it off, or leaves it alone. */
function effectOn(change: ListChange, list: DomainListKind): 'on' | 'off' | null {
  if (change.list === list) return change.op === 'add' ? 'on' : 'off';
  // Adding to the other list takes the domain off this one first (lists are kept exclusive).
  return change.op === 'add' ? 'off' : null;
}

/**
 * The options page edits lists with the service directly (a bulk add of thousands of lines with
 * a result per line cannot go through an outbox of 500). Once such an edit is confirmed, a queued
 * one-click change that would set the same list the other way for the same domain and scope
 * would undo it when sent later: it leaves the outbox, recorded as replaced, so whoever waits for
 * it hears why. A queued change that agrees with the edit stays (it may do more, such as taking
 * the domain off the other list). Returns the changes dropped.
 *
 * A change being sent at that very moment cannot be called back; it is the only one that can
 * still land after the edit.
 */
export async function dropQueuedChangesUndoing(
  account: AccountId,
  edits: readonly DirectListEdit[],
  now: () => number = Date.now,
): Promise<ListChange[]> {
  if (edits.length === 0) return [];
  const undoes = (change: ListChange) =>
    edits.some((edit) => {
      if (edit.domain !== change.domain || edit.profile !== change.profile) return false;
      const effect = effectOn(change, edit.list);
      return effect !== null && effect !== (edit.op === 'add' ? 'on' : 'off');
    });
  const dropped = await exclusively('outbox', async () => {
    const entries = await outboxItem.getValue();
    // Only the account the edit was made in: another account's lists were not touched.
    const gone = changesOf(entries, account).filter((entry) => undoes(entry.change));
    if (gone.length === 0) return gone;
    // Recorded before removal, as for every change that leaves: whoever sees it gone finds why.
    for (const entry of gone) {
      await recordSettled({
        id: entry.id,
        change: entry.change,
        account: entry.account,
        state: 'failed',
        message: t('outbox.replaced', { attempted: describeChange(entry.change) }),
        at: now(),
      });
    }
    await outboxItem.setValue(entries.filter((entry) => !gone.includes(entry)));
    return gone;
  });
  return dropped.map((entry) => entry.change);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The one entry point for a one-click change: validates it, queues it ahead of the changes for
 * other domains, sends it and answers with its outcome as soon as it is known: delivered, failed
 * (with the service's reason) or pending (kept, and retried automatically). The answer comes
 * within about SUBMIT_WAIT_MS whatever else is queued: a delivery still running then goes on
 * without the sender, and the outcome is reported through `onSettled` when it comes.
 * Never rejects: a change that could not even be stored is answered "failed", saying so.
 */
export async function submitChange(change: ListChange, deps: OutboxDeps): Promise<ChangeOutcome> {
  const domain = normaliseDomainInput(change.domain);
  if (!domain.ok)
    return {
      state: 'failed',
      message: t('api.couldNot', { attempted: describeChange(change), detail: domain.message }),
    };
  const queued = { ...change, domain: domain.value };
  let entry: OutboxEntry;
  try {
    const { identity } = await deps.getAccount();
    entry = await enqueueChange(queued, identity.id, deps.now, { ahead: true });
  } catch (error) {
    const attempted = describeChange(queued);
    if (error instanceof OutboxFullError)
      return { state: 'failed', message: t('outbox.full', { attempted, count: OUTBOX_LIMIT }) };
    // Not stored, even after the cached views made room: nothing will send it later.
    return {
      state: 'failed',
      message: t(isQuotaError(error) ? 'outbox.storageFull' : 'outbox.notStored', { attempted }),
    };
  }
  try {
    return await outcomeOf(entry, deps);
  } catch {
    // Reading storage failed while waiting; the change itself is stored and will be sent.
    return {
      state: 'pending',
      message: `${t('outbox.waiting', { attempted: describeChange(entry.change) })} ${t('outbox.keptAndRetried')}`,
    };
  }
}

/** Waits for one queued change while deliveries run, until its outcome is known or the bound. */
async function outcomeOf(entry: OutboxEntry, deps: OutboxDeps): Promise<ChangeOutcome> {
  const deadline = Date.now() + SUBMIT_WAIT_MS;
  const delivery: { running: Promise<unknown> | null; report: DeliveryReport | null } = {
    running: null,
    report: null,
  };
  for (;;) {
    if (delivery.running === null) {
      delivery.report = null;
      delivery.running = deliverPending(deps, { force: true, only: entry.account }).then(
        (report) => {
          delivery.report = report;
        },
        () => {
          // Storage failed under the delivery: the change stays queued for the alarm.
          delivery.report = { ran: true, remaining: [] };
        },
      );
    }
    await Promise.race([delivery.running, sleep(WAIT_STEP_MS)]);
    const settled = (await settledChangesItem.getValue()).find((candidate) => candidate.id === entry.id);
    if (settled) return { state: settled.state, message: settled.message };
    // Only changes of the same account stand before it: another account's wait apart.
    const remaining = changesOf(await outboxItem.getValue(), entry.account);
    const position = remaining.findIndex((candidate) => candidate.id === entry.id);
    if (position === -1)
      return { state: 'delivered', message: t('outbox.done', { attempted: describeChange(entry.change) }) };
    const report = delivery.report;
    if (report?.ran) return pendingOutcome(remaining, position, 'held', deps.now ?? Date.now);
    if (Date.now() >= deadline) return pendingOutcome(remaining, position, 'slow', deps.now ?? Date.now);
    if (report !== null) {
      // Another delivery holds the lease; it reaches this change too. Ask again in a moment.
      delivery.running = null;
      await sleep(WAIT_STEP_MS);
    }
  }
}

/**
 * "Waiting to …" with the reason: its own last failure, a wait the service asked for, an earlier
 * change that holds it, or (`slow`) deliveries still running when the sender stopped waiting.
 */
function pendingOutcome(
  remaining: OutboxEntry[],
  position: number,
  why: 'held' | 'slow',
  now: () => number,
): ChangeOutcome {
  const entry = remaining[position]!;
  const what = t('outbox.waiting', { attempted: describeChange(entry.change) });
  const retry = t('outbox.keptAndRetried');
  if (entry.lastError) return { state: 'pending', message: `${what} ${entry.lastError} ${retry}` };
  const blocker =
    remaining.find((other) => (other.notBefore ?? 0) > now() && other.lastError) ??
    remaining.slice(0, position).find((other) => other.lastError);
  if (blocker?.lastError) {
    return {
      state: 'pending',
      message: `${what} ${t('outbox.earlierChange', { reason: blocker.lastError })} ${retry}`,
    };
  }
  if (why === 'slow') return { state: 'pending', message: `${what} ${t('outbox.stillSending')} ${retry}` };
  return { state: 'pending', message: `${what} ${retry}` };
}
