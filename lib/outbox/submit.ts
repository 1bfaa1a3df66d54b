/**
 * Submitting one change: the one entry point of a one-click change (`submitChange`), which queues
 * it, starts its delivery and answers with its outcome, or "pending" with the reason it waits.
 */

import { isQuotaError } from '@/lib/cache/storage-room';
import { t } from '@/lib/i18n';
import type { ChangeOutcome, ListChange, QueuedChange } from '@/lib/messaging/protocol';
import { OUTBOX_LIMIT, type OutboxEntry, outboxItem, settledChangesItem } from '@/lib/settings/storage';
import { normaliseDomainInput } from '@/lib/validation';
import { type DeliveryReport, deliverPending, type OutboxDeps } from './delivery';
import { SUBMIT_WAIT_MS } from './policy';
import { changesOf, describeChange, enqueueChange, OutboxFullError } from './queue';

const WAIT_STEP_MS = 200;

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
    return pending(entry.change);
  }
}

/** Waits for one queued change while deliveries run, until its outcome is known or the bound. */
export async function outcomeOf(entry: OutboxEntry, deps: OutboxDeps): Promise<ChangeOutcome> {
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

/** "Waiting to …", the reason when there is one, and that the change is kept and retried. */
function pending(change: QueuedChange, reason?: string): ChangeOutcome {
  const what = t('outbox.waiting', { attempted: describeChange(change) });
  return { state: 'pending', message: [what, reason, t('outbox.keptAndRetried')].filter(Boolean).join(' ') };
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
  const blocker =
    remaining.find((other) => (other.notBefore ?? 0) > now() && other.lastError) ??
    remaining.slice(0, position).find((other) => other.lastError);
  const held = blocker?.lastError ? t('outbox.earlierChange', { reason: blocker.lastError }) : undefined;
  const reason = entry.lastError || held || (why === 'slow' ? t('outbox.stillSending') : undefined);
  return pending(entry.change, reason);
}
