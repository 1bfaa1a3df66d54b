/**
 * Rolling back to a snapshot (docs/history.md, "Rollback"): the lines of the diff from now to the
 * snapshot, each one API call, queued per account and sent at a fixed pace under a lock. A
 * transient failure holds the rest (retried with the outbox's backoff, lib/outbox/policy.ts);
 * a refusal is recorded for that line and the rest goes on. Removing a TLD block is not something
 * the API can do: such lines are named and never queued.
 */
import type * as z from 'zod/mini';
import { ApiError, isApiError } from '@/lib/api/errors';
import { profileFor } from '@/lib/api/forms';
import type { DnsFilterApi } from '@/lib/api/types';
import { backoffDelayMs, isRetryable, RETRY_AFTER_MAX_MS } from '@/lib/outbox/policy';
import type { DiffLine } from './diff';
import { DEFAULT_BLOCK_ON, parseNetworkEntry } from './model';
import type { rollbackJobSchema, rollbackStepSchema } from './schema';

/**
 * Calls per second a rollback makes: a rollback of 1,000 changes takes about four minutes and
 * leaves the service room for everything else this browser sends (docs/history.md, "Pace").
 */
export const ROLLBACK_CALLS_PER_SECOND = 4;
export const ROLLBACK_PACE_MS = 1000 / ROLLBACK_CALLS_PER_SECOND;

/**
 * One call of a rollback: a diff line turned around (what to do to get back to the snapshot):
 * `add` puts back what the snapshot had, `remove` takes away what it did not.
 */
export type RollbackStep = z.infer<typeof rollbackStepSchema>;

export interface RollbackPlan {
  steps: RollbackStep[];
  /** Lines the API cannot roll back (a TLD block cannot be removed through it). */
  impossible: RollbackStep[];
}

/** The order calls go in: new profiles first, removals before additions, profiles removed last. */
function phaseOf(step: RollbackStep): number {
  if (step.kind === 'profiles') return step.op === 'add' ? 0 : 3;
  return step.op === 'remove' ? 1 : 2;
}

/**
 * The steps that take the account from `lines` (the diff from the snapshot to now, as
 * `diffSections(snapshot, now)` gives it) back to the snapshot.
 */
export function planRollback(lines: readonly DiffLine[]): RollbackPlan {
  const steps: RollbackStep[] = [];
  const impossible: RollbackStep[] = [];
  for (const line of lines) {
    const step: RollbackStep = {
      kind: line.kind,
      scope: line.scope,
      entry: line.entry,
      op: line.change === 'added' ? 'remove' : 'add',
    };
    if (step.kind === 'tlds' && step.op === 'remove') impossible.push(step);
    else steps.push(step);
  }
  steps.sort((a, b) => phaseOf(a) - phaseOf(b));
  return { steps, impossible };
}

/** The profiles a plan changes (the profile list's own changes count as the account's). */
export function profilesOf(steps: readonly RollbackStep[]): string[] {
  return [...new Set(steps.map((step) => (step.kind === 'profiles' ? step.entry : step.scope)))].sort();
}

/** Makes the call of one step. */
export async function applyStep(client: DnsFilterApi, step: RollbackStep): Promise<void> {
  const profile = profileFor(client.form, step.scope === '' ? undefined : step.scope);
  const on = step.op === 'add';
  switch (step.kind) {
    case 'profiles':
      return on ? client.addProfile(step.entry) : client.deleteProfile(step.entry);
    case 'categories':
      return client.setCategoryBlocked(step.entry, on, profile);
    case 'whitelist':
    case 'blocklist':
      return on
        ? client.addDomain(step.kind, step.entry, profile)
        : client.deleteDomain(step.kind, step.entry, profile);
    case 'networks': {
      // The label only when there is one: parseNetworkEntry leaves it out otherwise.
      const network = parseNetworkEntry(step.entry);
      const where = profile === undefined ? {} : { profile };
      return on
        ? client.addNetwork({ ...network, ...where })
        : client.deleteNetwork({ ip: network.ip, ...where });
    }
    case 'defaultBlock':
      return client.setDefaultBlock(on === (step.entry === DEFAULT_BLOCK_ON), profile);
    case 'tlds':
      if (!on) throw new ApiError('invalid-input', 'A TLD block cannot be removed through the API.');
      return client.blockTld(step.entry, profile);
  }
}

/** A rollback as stored: its steps, how far it got, and why it waits (./schema.ts). */
export type RollbackJob = z.infer<typeof rollbackJobSchema>;

export interface RollbackDeps {
  read(account: string): Promise<RollbackJob | null>;
  write(job: RollbackJob): Promise<void>;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** Called after each step, with the job as it stands (progress on screen). */
  onProgress?: (job: RollbackJob) => void;
  /** Called after a step that changes what this browser records (TLD blocks, default block). */
  onApplied?: (step: RollbackStep) => Promise<void>;
  paceMs?: number;
  /** Progress is written every this many steps (and whenever the job stops). */
  saveEvery?: number;
}

export type RunOutcome = { state: 'done' | 'waiting' | 'not-yet'; job: RollbackJob } | { state: 'none' };

function asApiError(error: unknown): ApiError {
  return isApiError(error) ? error : new ApiError('unexpected', String(error));
}

/**
 * Sends the account's rollback from where it stopped. Its caller holds the account's rollback
 * lock, so one page or worker sends it at a time. A transient failure stops it there: the step
 * and every one after it wait for the next attempt (`nextAttemptAt`).
 */
export async function runRollback(
  account: string,
  client: DnsFilterApi,
  deps: RollbackDeps,
  options: { force?: boolean } = {},
): Promise<RunOutcome> {
  const stored = await deps.read(account);
  if (stored === null || stored.account !== account) return { state: 'none' };
  let job = stored;
  if (!options.force && job.nextAttemptAt > deps.now()) return { state: 'not-yet', job };
  const pace = deps.paceMs ?? ROLLBACK_PACE_MS;
  const saveEvery = deps.saveEvery ?? 10;
  let unsaved = 0;
  while (job.next < job.steps.length) {
    const index = job.next;
    const step = job.steps[index]!;
    try {
      await applyStep(client, step);
      await deps.onApplied?.(step);
      job = { ...job, next: index + 1, attempts: 0 };
    } catch (caught) {
      const error = asApiError(caught);
      if (isRetryable(error)) {
        const attempts = job.attempts + 1;
        const asked = error.kind === 'server' ? error.details.retryAfterMs : undefined;
        const wait = Math.max(backoffDelayMs(attempts), Math.min(asked ?? 0, RETRY_AFTER_MAX_MS));
        job = { ...job, attempts, nextAttemptAt: deps.now() + wait, lastError: error.message };
        await deps.write(job);
        deps.onProgress?.(job);
        return { state: 'waiting', job };
      }
      job = {
        ...job,
        next: index + 1,
        attempts: 0,
        refused: [...job.refused, { index, message: error.message }],
      };
    }
    const { lastError: _cleared, ...rest } = job;
    job = rest;
    deps.onProgress?.(job);
    if (++unsaved >= saveEvery || job.next === job.steps.length) {
      await deps.write(job);
      unsaved = 0;
    }
    if (job.next < job.steps.length) await deps.sleep(pace);
  }
  return { state: 'done', job };
}
