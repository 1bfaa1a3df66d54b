/**
 * The outbox of one-click list changes. A change is written to storage before anything is
 * sent and leaves only when the service confirmed it, or refused it for good; in between it is
 * retried with exponential backoff, driven by an alarm, across worker and browser restarts.
 *
 * Order is kept: changes go out oldest first and a change that cannot be sent yet holds the
 * ones behind it (adding then removing the same domain must not arrive the other way round).
 *
 * Each change belongs to the account it was made for (lib/account/identity.ts) and is sent only
 * while that account is the one configured: after a new key, origin or form, the changes of the
 * account before wait, in order, and hold nothing of the new one (./other-accounts.ts).
 */
import type { CurrentAccount } from '@/lib/account/current';
import type { AccountId } from '@/lib/account/identity';
import { attempts, listName } from '@/lib/api/attempts';
import { ApiError, isApiError } from '@/lib/api/errors';
import type { DnsFilterApi, DomainListKind } from '@/lib/api/types';
import { t } from '@/lib/i18n';
import type { ChangeOutcome, ListChange } from '@/lib/messaging/protocol';
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
/** One change is at most three calls (remove from the other list, add, verify) of 15 s each. */
const LEASE_TTL_MS = 60_000;
/** Set before each send: wakes a restarted worker if this one is stopped mid-request. */
const SAFETY_WAKE_MS = 30_000;
export const BACKOFF = { firstMs: 30_000, maxMs: 30 * 60_000 } as const;
/** A change still not sent after a week is dropped and reported: applying it then would surprise. */
export const MAX_AGE_MS = 7 * 24 * 60 * 60_000;
const SETTLED_KEPT = 20;
/** How long `submitChange` waits for its own change before answering "pending". */
const SUBMIT_WAIT_MS = 20_000;
const WAIT_STEP_MS = 200;

export interface OutboxDeps {
  /** The account configured now, with its client (lib/account/current.ts). */
  getAccount: () => Promise<CurrentAccount>;
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
  /** Not sent: try again later (service unreachable, odd answer, key refused or missing). */
  | { state: 'retry'; message: string };

/** Milliseconds to wait after `attempts` failed attempts: 30 s, 1 min, 2 min … at most 30 min. */
export function backoffDelayMs(failedAttempts: number): number {
  return Math.min(BACKOFF.firstMs * 2 ** Math.max(0, Math.min(failedAttempts - 1, 20)), BACKOFF.maxMs);
}

/**
 * What to do with a failure: transient ones are retried; a bad or missing key is retried too,
 * because the user fixes the key in Setup and expects the change to go through then. A refusal
 * of the change itself (kind 'service', 'invalid-input', 'too-large') is final.
 */
export function isRetryable(error: ApiError): boolean {
  return (
    error.kind === 'network' ||
    error.kind === 'timeout' ||
    error.kind === 'unexpected' ||
    error.kind === 'server' ||
    error.kind === 'aborted' ||
    error.kind === 'bad-key'
  );
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
 * Sends one change. Adding keeps the lists exclusive (decisions.md): the domain is removed from
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
    if (isRetryable(apiError)) return { state: 'retry', message: apiError.message };
    if (apiError.kind === 'service') {
      try {
        const present = (await client.listDomains(list, profile)).includes(domain);
        if (present === (op === 'add')) {
          return { state: 'delivered', message: presenceText(change) };
        }
      } catch (verifyError) {
        const verifyApiError = asApiError(verifyError);
        if (isRetryable(verifyApiError)) return { state: 'retry', message: verifyApiError.message };
      }
    }
    return { state: 'failed', message: apiError.message };
  }
  return { state: 'delivered', message: `${doneText(change, removedFromOther)} ${t('outbox.propagation')}` };
}

const sameChange = (a: ListChange, b: ListChange) =>
  a.op === b.op && a.list === b.list && a.domain === b.domain && a.profile === b.profile;

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

/**
 * Writes a change for `account` to the outbox and returns its entry. The same change already
 * waiting is not queued twice: its entry is returned instead. Rejects with OutboxFullError,
 * writing nothing, when the outbox is full.
 */
export async function enqueueChange(
  change: ListChange,
  account: AccountId,
  now: () => number = Date.now,
): Promise<OutboxEntry> {
  return exclusively('outbox', async () => {
    const entries = await outboxItem.getValue();
    const ofAccount = changesOf(entries, account);
    const waiting = ofAccount.find((entry) => sameChange(entry.change, change));
    // Only the last entry may absorb a repeat: an earlier one has other changes queued after it.
    if (waiting && waiting === ofAccount[ofAccount.length - 1]) return waiting;
    if (entries.length >= OUTBOX_LIMIT) throw new OutboxFullError();
    const entry: OutboxEntry = {
      id: randomId(),
      change,
      account,
      createdAt: now(),
      attempts: 0,
      nextAttemptAt: now(),
    };
    await outboxItem.setValue([...entries, entry]);
    return entry;
  });
}

async function updateOutbox(update: (entries: OutboxEntry[]) => OutboxEntry[]): Promise<void> {
  await exclusively('outbox', async () => outboxItem.setValue(update(await outboxItem.getValue())));
}

async function settle(
  entry: OutboxEntry,
  result: Omit<SettledChange, 'id' | 'change' | 'account'>,
  deps: OutboxDeps,
) {
  const settled: SettledChange = { id: entry.id, change: entry.change, account: entry.account, ...result };
  // Recorded before removal: whoever sees the entry gone finds its outcome.
  await exclusively('outbox-settled', async () =>
    settledChangesItem.setValue([settled, ...(await settledChangesItem.getValue())].slice(0, SETTLED_KEPT)),
  );
  await updateOutbox((entries) => entries.filter((candidate) => candidate.id !== entry.id));
  try {
    await deps.onSettled?.(settled, entry.attempts > 0);
  } catch {
    // Reporting is best effort; the outcome is stored in settledChangesItem either way.
  }
}

export interface DeliveryReport {
  /** False when another delivery held the lease: nothing was done. */
  ran: boolean;
  /** Entries left, oldest first. */
  remaining: OutboxEntry[];
}

/**
 * Sends the waiting changes of the account configured now, in order, until none is left or one
 * must wait. `force` ignores the backoff of the oldest change (a user action, the browser
 * starting, a new key); the alarm respects it. Changes of other accounts stay untouched (a
 * settings change calls this again). Never throws for a delivery problem.
 */
export async function deliverPending(deps: OutboxDeps, options: { force: boolean }): Promise<DeliveryReport> {
  const now = deps.now ?? Date.now;
  const lease = await tryAcquireLease(LEASE, { ttlMs: LEASE_TTL_MS, now });
  if (!lease) return { ran: false, remaining: await outboxItem.getValue() };
  let accountSeen: string | undefined;
  try {
    let force = options.force;
    for (;;) {
      // Read for each change: the account may change while one is on its way.
      const account = await deps.getAccount();
      accountSeen = account.identity.id;
      const [head] = changesOf(await outboxItem.getValue(), account.identity.id);
      if (!head) {
        await deps.alarms.clear(OUTBOX_ALARM);
        break;
      }
      // Kept for its account by the user's choice: sent when that account is back, however late.
      if (!head.keptForAccount && now() - head.createdAt > MAX_AGE_MS) {
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
      if (!force && head.nextAttemptAt > now()) {
        await deps.alarms.create(OUTBOX_ALARM, { when: head.nextAttemptAt });
        break;
      }
      if (!(await lease.renew())) break;
      await deps.alarms.create(OUTBOX_ALARM, { when: now() + SAFETY_WAKE_MS });
      const client = account.client;
      const result: DeliveryResult = client
        ? await deliverChange(client, head.change)
        : { state: 'retry', message: t('outbox.noKey') };
      if (result.state === 'retry') {
        const failedAttempts = head.attempts + 1;
        const nextAttemptAt = now() + backoffDelayMs(failedAttempts);
        await updateOutbox((entries) =>
          entries.map((entry) =>
            entry.id === head.id
              ? { ...entry, attempts: failedAttempts, nextAttemptAt, lastError: result.message }
              : entry,
          ),
        );
        await deps.alarms.create(OUTBOX_ALARM, { when: nextAttemptAt });
        break;
      }
      await settle(head, { state: result.state, message: result.message, at: now() }, deps);
      // The next change had no chance yet: it goes now, whatever its own schedule.
      force = true;
    }
  } finally {
    await lease.release();
  }
  // Setup writes the key and the connection one after the other: a run started by the first
  // write holds the lease when the second one asks, so the account it ends in gets its turn here.
  const after = await deps.getAccount();
  const remaining = await outboxItem.getValue();
  if (after.identity.id !== accountSeen && changesOf(remaining, after.identity.id).length > 0) {
    return deliverPending(deps, { force: true });
  }
  return { ran: true, remaining };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The one entry point for a one-click change: validates it, queues it, tries to send it and
 * answers within about 20 s with its outcome: delivered, failed (with the service's reason) or
 * pending (kept, and retried automatically).
 */
export async function submitChange(change: ListChange, deps: OutboxDeps): Promise<ChangeOutcome> {
  const domain = normaliseDomainInput(change.domain);
  if (!domain.ok)
    return {
      state: 'failed',
      message: t('api.couldNot', { attempted: describeChange(change), detail: domain.message }),
    };
  let entry: OutboxEntry;
  try {
    const { identity } = await deps.getAccount();
    entry = await enqueueChange({ ...change, domain: domain.value }, identity.id, deps.now);
  } catch (error) {
    if (!(error instanceof OutboxFullError)) throw error;
    return {
      state: 'failed',
      message: t('outbox.full', { attempted: describeChange(change), count: OUTBOX_LIMIT }),
    };
  }
  const started = Date.now();
  for (;;) {
    const report = await deliverPending(deps, { force: true });
    const settled = (await settledChangesItem.getValue()).find((candidate) => candidate.id === entry.id);
    if (settled) return { state: settled.state, message: settled.message };
    // Only changes of the same account stand before it: another account's wait apart.
    const sameAccount = changesOf(report.remaining, entry.account);
    const position = sameAccount.findIndex((candidate) => candidate.id === entry.id);
    if (position === -1)
      return { state: 'delivered', message: t('outbox.done', { attempted: describeChange(entry.change) }) };
    if (report.ran || Date.now() - started > SUBMIT_WAIT_MS) return pendingOutcome(sameAccount, position);
    // Another delivery is running; it will reach this change too. Wait for it.
    await sleep(WAIT_STEP_MS);
  }
}

function pendingOutcome(remaining: OutboxEntry[], position: number): ChangeOutcome {
  const entry = remaining[position]!;
  const head = remaining[0]!;
  const what = t('outbox.waiting', { attempted: describeChange(entry.change) });
  const retry = t('outbox.keptAndRetried');
  if (entry.lastError) return { state: 'pending', message: `${what} ${entry.lastError} ${retry}` };
  if (position > 0 && head.lastError) {
    return {
      state: 'pending',
      message: `${what} ${t('outbox.earlierChange', { reason: head.lastError })} ${retry}`,
    };
  }
  return { state: 'pending', message: `${what} ${retry}` };
}
