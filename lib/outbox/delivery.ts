/**
 * The outbox of one-click list changes and a schedule's setting changes. A change is written to
 * storage before anything is sent and leaves only when the service confirmed it, or refused it
 * for good; in between it is retried with exponential backoff, driven by an alarm, across worker
 * and browser restarts.
 *
 * Order is kept where it matters: the changes for one domain (and profile) go out in the order
 * they were made (adding then removing the same domain must not arrive the other way round), and
 * a change that cannot be sent yet holds the ones behind it. Of a setting, only the newest state
 * waits (./queue.ts). A new click goes before the changes for other domains, so its sender hears
 * about it first (`submitChange`).
 *
 * Each change belongs to the account it was made for (lib/identity/identity.ts) and is sent only
 * while that account is the one configured: after a new key, origin or form, the changes of the
 * account before wait, in order, and hold nothing of the new one (./other-accounts.ts).
 *
 * This file sends them: the queue is ./queue.ts, what is retried and how long a change waits is
 * ./policy.ts, the one entry point of a click is ./submit.ts.
 */

import { listName } from '@/lib/api/attempts';
import { ApiError, isApiError } from '@/lib/api/errors';
import type { DnsFilterApi } from '@/lib/api/types';
import { otherList } from '@/lib/cache/list-changes';
import { t } from '@/lib/i18n';
import type { CurrentAccount } from '@/lib/identity/current';
import type { AccountId } from '@/lib/identity/identity';
import type { ListChange, SettingChange } from '@/lib/messaging/protocol';
import { carriesListChange, isListChange } from '@/lib/messaging/queued-change';
import { followSettled, notes } from '@/lib/notes';
import { type OutboxEntry, outboxItem, type SettledChange } from '@/lib/settings/storage';
import { type AlarmsApi, scheduleAlarm } from './alarms';
import { tryAcquireLease } from './lease';
import {
  backoffDelayMs,
  counted,
  isRetryable,
  MAX_AGE_MS,
  RETRY_AFTER_MAX_MS,
  SUBMIT_WAIT_MS,
  waitedSoFar,
  waitsWithinTheirLengths,
} from './policy';
import { changesOf, describeChange, recordSettled, updateOutbox } from './queue';

export const OUTBOX_ALARM = 'outbox-retry';
const LEASE = 'outbox';
/**
 * Each account's changes are delivered on their own alarm and under their own lease, named by the
 * identity they carry: a slow or failing account never holds another's changes back.
 */
export const outboxAlarmOf = (account: AccountId) => `${OUTBOX_ALARM}:${account}`;
export const outboxLeaseOf = (account: AccountId) => `${LEASE}:${account}`;
/** One change: at most three calls (remove from the other list, add, verify) of `DEFAULT_TIMEOUT_MS`. */
const LEASE_TTL_MS = 60_000;
/** Set before each send: wakes a restarted worker if this one is stopped mid-request. */
const SAFETY_WAKE_MS = 30_000;

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

/** A retryable failure as a result, with the wait the service asked for. */
function retryOf(error: ApiError): DeliveryResult {
  const retryAfterMs = error.kind === 'server' ? error.details.retryAfterMs : undefined;
  return { state: 'retry', message: error.message, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
}

/** Any failure as an `ApiError`: one that is not is an internal failure, worded as such. */
export function asApiError(error: unknown): ApiError {
  return isApiError(error) ? error : new ApiError('unexpected', t('outbox.internalFailure'));
}

/**
 * The text `key` about `change`, or its `…Profile` twin when the change is for a profile; `other`
 * names the list the domain left.
 */
function listText(
  key: 'outbox.isOn' | 'outbox.isOff' | 'outbox.added' | 'outbox.moved' | 'outbox.removed',
  change: ListChange,
): string {
  const { list, domain, profile } = change;
  const words = { domain, list: listName(list), other: listName(otherList(list)) };
  return profile === undefined ? t(key, words) : t(`${key}Profile`, { ...words, profile });
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
        // Already held: "example.com is (not) on the whitelist (of profile kids)."
        if (present === (op === 'add')) {
          return { state: 'delivered', message: listText(present ? 'outbox.isOn' : 'outbox.isOff', change) };
        }
      } catch (verifyError) {
        const verifyApiError = asApiError(verifyError);
        if (isRetryable(verifyApiError)) return retryOf(verifyApiError);
      }
    }
    return { state: 'failed', message: apiError.message };
  }
  const done = op === 'remove' ? 'outbox.removed' : removedFromOther ? 'outbox.moved' : 'outbox.added';
  return { state: 'delivered', message: `${listText(done, change)} ${t('outbox.propagation')}` };
}

/**
 * Sends one setting change (docs/schedules.md, "Sending"), with the outbox's retries: a refusal
 * with the service's reason is final, anything else is tried again.
 */
export async function deliverSetting(client: DnsFilterApi, change: SettingChange): Promise<DeliveryResult> {
  try {
    if (change.op === 'set-category') {
      await client.setCategoryBlocked(change.category, change.blocked, change.profile);
    } else {
      await client.setDefaultBlock(change.enabled, change.profile);
    }
  } catch (error) {
    const apiError = asApiError(error);
    return isRetryable(apiError) ? retryOf(apiError) : { state: 'failed', message: apiError.message };
  }
  return {
    state: 'delivered',
    message: `${t('outbox.done', { attempted: describeChange(change) })} ${t('outbox.propagation')}`,
  };
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
  if (carriesListChange(settled)) await followSettled(notes, settled).catch(() => undefined);
  // Recorded before removal: whoever sees the entry gone finds its outcome.
  await recordSettled(settled);
  await updateOutbox((entries) => entries.filter((candidate) => candidate.id !== entry.id));
  try {
    await deps.onSettled?.(settled, senderWasAnswered(entry, (deps.now ?? Date.now)()));
  } catch {
    // Reporting is best effort; the outcome is stored in settledChangesItem either way.
  }
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
  const after = options.only === undefined ? await deliverableAccounts(deps) : [];
  const remaining = await outboxItem.getValue();
  const seen = new Set(accounts.map((account) => account.identity.id));
  const arrived = after.filter((account) => !seen.has(account.identity.id));
  if (arrived.some((account) => changesOf(remaining, account.identity.id).length > 0)) {
    return deliverPending(deps, { force: true });
  }
  return { ran, remaining };
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
        const attempted = describeChange(head.change);
        const message = head.lastError
          ? t('outbox.gaveUpReason', { attempted, reason: head.lastError })
          : t('outbox.gaveUp', { attempted });
        await settle(head, { state: 'failed', message, at: now() }, deps);
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
      const { change } = head;
      const result: DeliveryResult = !client
        ? { state: 'retry', message: t('outbox.noKey') }
        : isListChange(change)
          ? await deliverChange(client, change)
          : await deliverSetting(client, change);
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
