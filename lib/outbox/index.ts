/**
 * Reliable delivery of one-click list changes (popup, context menu, shortcut), and of the
 * schedules' changes: their domains, categories and default block (docs/schedules.md, "Sending").
 *
 * The background worker is the only deliverer. A page never calls the API for such a change;
 * it sends `{ type: 'submit-change', change }` (lib/messaging/protocol.ts) and gets back a
 * `ChangeOutcome`:
 *   - `delivered`: the service confirmed it (message says so, with the 30–45 minute note);
 *   - `failed`: the service refused it; `message` carries its reason, verbatim;
 *   - `pending`: kept in the outbox and retried automatically (backoff, across restarts).
 * `{ type: 'retry-outbox' }` sends waiting changes at once (a "Retry now" button) and answers
 * `{ pending: number }` once that is done or after SUBMIT_WAIT_MS, whichever comes first.
 *
 * To show pending changes, read or watch these items of lib/settings/storage.ts:
 *   - `outboxItem`: changes not yet confirmed, oldest first (`entry.change`, `entry.account`,
 *     `entry.attempts`, `entry.lastError`, `entry.nextAttemptAt`); a change is sent only to
 *     `entry.account`; `changesForOtherAccounts()` lists those of accounts not configured now;
 *   - `settledChangesItem`: the last 20 changes that left the outbox (delivered or failed),
 *     newest first, so a change refused after a retry is never silent.
 * Both are written by the worker, and by the options page for one thing only: a list edit it made
 * with the service directly drops the queued changes that would undo it (`dropQueuedChangesUndoing`).
 * Writes of either item go through Web Locks (`exclusively`), so they never interleave.
 */

export {
  deliverPending,
  deliverPendingWithin,
  OUTBOX_ALARM,
  type OutboxDeps,
  outboxAlarmOf,
  outboxLeaseOf,
} from './delivery';
export { tryAcquireLease } from './lease';
export {
  changesForOtherAccounts,
  discardForAccount,
  keepForAccount,
  type OtherAccountChanges,
} from './other-accounts';
export { backoffDelayMs, isRetryable, MAX_AGE_MS, RETRY_AFTER_MAX_MS, SUBMIT_WAIT_MS } from './policy';
export {
  describeChange,
  dropQueuedChangesUndoing,
  dropQueuedSettingChanges,
  enqueueChange,
  enqueueChanges,
  OutboxFullError,
} from './queue';
export { outcomeOf, submitChange } from './submit';
