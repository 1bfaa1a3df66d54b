/**
 * The outbox's policy: which failures are retried, how long a change waits between attempts, how
 * long a wait the service may ask for, and how long a change may wait at all. Pure: no storage.
 */

import { type ApiError, isTransientKind } from '@/lib/api/errors';
import type { OutboxEntry } from '@/lib/settings/storage';

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
/**
 * How long `submitChange` waits for its own change before answering "pending"; past it, delivery
 * counts the sender as answered, so the outcome is reported when it comes.
 */
export const SUBMIT_WAIT_MS = 20_000;

/** Milliseconds to wait after `attempts` failed attempts: 30 s, 1 min, 2 min … at most 30 min. */
export function backoffDelayMs(failedAttempts: number): number {
  return Math.min(BACKOFF.firstMs * 2 ** Math.max(0, Math.min(failedAttempts - 1, 20)), BACKOFF.maxMs);
}

/** How long `entry` has waited, as the outbox counts it (`MAX_AGE_STEP_MS`), at `now`. */
export function waitedSoFar(entry: OutboxEntry, now: number): number {
  const step = Math.min(Math.max(0, now - (entry.countedAt ?? entry.createdAt)), MAX_AGE_STEP_MS);
  return (entry.waitedMs ?? 0) + step;
}

/** `entry` with its wait counted up to `now`. */
export function counted(entry: OutboxEntry, now: number): OutboxEntry {
  return { ...entry, waitedMs: waitedSoFar(entry, now), countedAt: now };
}

/**
 * `entry` with its waits no further from `now` than their own lengths (the backoff of its attempts,
 * the wait the service asked for): a clock set back after a wait was set would stretch the wait by
 * as much (two days back: a minute's Retry-After held the change two days). The same entry when
 * nothing changes. A wait stored without its length is bounded by the longest there is.
 */
export function waitsWithinTheirLengths(entry: OutboxEntry, now: number): OutboxEntry {
  const asked = entry.notBefore === undefined ? 0 : (entry.askedWaitMs ?? RETRY_AFTER_MAX_MS);
  const retryIn = entry.attempts === 0 ? 0 : Math.max(backoffDelayMs(entry.attempts), asked);
  const nextAttemptAt = Math.min(entry.nextAttemptAt, now + retryIn);
  const notBefore = entry.notBefore === undefined ? undefined : Math.min(entry.notBefore, now + asked);
  if (nextAttemptAt === entry.nextAttemptAt && notBefore === entry.notBefore) return entry;
  return { ...entry, nextAttemptAt, ...(notBefore === undefined ? {} : { notBefore }) };
}

/**
 * What to do with a failure (the table in docs/service-api.md, "Failures"): transient ones and a
 * cancelled call are retried with backoff, never before a Retry-After (at most RETRY_AFTER_MAX_MS,
 * not even on a user action); a bad or missing key is retried too, because the user fixes the key
 * in Setup and expects the change to go through then. A refusal of the change itself is final,
 * unless the list already is as asked (./delivery.ts).
 */
export function isRetryable(error: ApiError): boolean {
  return isTransientKind(error.kind) || error.kind === 'bad-key';
}
