/**
 * History for the options page and the worker (docs/history.md): take a snapshot of an account,
 * read what changed with who made it, the diff of a snapshot from now, and a rollback queued per
 * account, sent under that account's lock and resumed by its alarm.
 */
import { scopeKey } from '@/lib/api/forms';
import type { DnsFilterApi } from '@/lib/api/types';
import { notes } from '@/lib/notes';
import type { AlarmsApi } from '@/lib/outbox/alarms';
import { exclusively } from '@/lib/outbox/lease';
import { rememberBlockedTld, rememberDefaultBlock } from '@/lib/settings/local-records';
import { addedTldsItem, defaultBlockItem, settledChangesItem } from '@/lib/settings/storage';
import { attributeChanges, type ChangeRow } from './changes';
import { type DiffLine, diffSections } from './diff';
import { browserHistoryStorage, history, journal, readHistorySettings } from './index';
import type { JournalEntry } from './journal';
import type { Snapshot, SnapshotReason } from './model';
import { DEFAULT_BLOCK_ON, parseNetworkEntry } from './model';
import {
  planRollback,
  ROLLBACK_PACE_MS,
  type RollbackJob,
  type RollbackPlan,
  type RollbackStep,
  type RunOutcome,
  runRollback,
} from './rollback';
import {
  HISTORY_SETTINGS_KEY,
  type HistorySettings,
  historySettingsSchema,
  ROLLBACKS_DONE_KEPT,
  rollbackJobKeyOf,
  rollbackJobSchema,
  rollbacksDoneKeyOf,
  rollbacksDoneSchema,
} from './schema';
import type { AddOutcome, SnapshotSummary } from './store';
import { type KnownHere, takeSnapshot } from './take';

export const HISTORY_DAILY_ALARM = 'history-daily';
const ROLLBACK_ALARM = 'history-rollback';
export const rollbackAlarmOf = (account: string) => `${ROLLBACK_ALARM}:${account}`;
/** The alarm's account, or null for another alarm. */
export const rollbackAlarmAccount = (name: string): string | null =>
  name.startsWith(`${ROLLBACK_ALARM}:`) ? name.slice(ROLLBACK_ALARM.length + 1) : null;
const DAY_MINUTES = 24 * 60;

export async function saveHistorySettings(settings: HistorySettings): Promise<void> {
  await browserHistoryStorage.set({ [HISTORY_SETTINGS_KEY]: historySettingsSchema.parse(settings) });
}

/** The daily alarm, created only when missing (an existing one keeps its time). */
export async function ensureDailyAlarm(alarms: AlarmsApi): Promise<void> {
  if (await alarms.get(HISTORY_DAILY_ALARM)) return;
  alarms.create(HISTORY_DAILY_ALARM, { delayInMinutes: 1, periodInMinutes: DAY_MINUTES });
}

/** What this browser set of TLD blocks and default block, for the active account. */
async function knownHere(): Promise<KnownHere> {
  const [tlds, defaultBlock] = await Promise.all([addedTldsItem.getValue(), defaultBlockItem.getValue()]);
  return { tlds, defaultBlock };
}

/** Takes a snapshot of the account and stores it (unless nothing changed since the last). */
export async function snapshotAccount(
  account: string,
  client: DnsFilterApi,
  reason: SnapshotReason,
  known?: KnownHere,
): Promise<{ outcome: AddOutcome; snapshot: Snapshot }> {
  const snapshot = await takeSnapshot(client, known ?? (await knownHere()), reason);
  const { retentionDays } = await readHistorySettings();
  return { outcome: await history.add(account, snapshot, retentionDays), snapshot };
}

async function readJob(account: string): Promise<RollbackJob | null> {
  const key = rollbackJobKeyOf(account);
  const parsed = rollbackJobSchema.safeParse((await browserHistoryStorage.get([key]))[key]);
  return parsed.success ? parsed.data : null;
}

async function writeJob(job: RollbackJob): Promise<void> {
  await browserHistoryStorage.set({ [rollbackJobKeyOf(job.account)]: rollbackJobSchema.parse(job) });
}

async function readDone(account: string) {
  const key = rollbacksDoneKeyOf(account);
  const parsed = rollbacksDoneSchema.safeParse((await browserHistoryStorage.get([key]))[key]);
  return parsed.success ? parsed.data.done : [];
}

export interface HistoryView {
  snapshots: SnapshotSummary[];
  rows: ChangeRow[];
  /** A rollback still being sent, if any. */
  rollback: RollbackJob | null;
}

/** The account's snapshots and what changed between them, with who made each change. */
export async function readHistory(account: string, client: DnsFilterApi): Promise<HistoryView> {
  const [snapshots, changes, journaled, settled, accountNotes, rollbacks, rollback] = await Promise.all([
    history.list(account),
    history.changes(account),
    journal.read(account),
    settledChangesItem.getValue(),
    notes.read(account),
    readDone(account),
    readJob(account),
  ]);
  const rows = attributeChanges(changes, {
    form: client.form,
    journal: journaled,
    settled: settled.filter((entry) => entry.account === account),
    notes: accountNotes.entries,
    rollbacks,
  });
  return { snapshots: [...snapshots].reverse(), rows, rollback };
}

export interface SnapshotDiff {
  snapshot: Snapshot;
  /** From the snapshot to now: `added` is in the account now and not in the snapshot. */
  lines: DiffLine[];
  plan: RollbackPlan;
}

/** The account as it is now, taken through the service and not stored: what a comparison diffs against. */
export async function accountNow(client: DnsFilterApi): Promise<Snapshot> {
  return takeSnapshot(client, await knownHere(), 'manual');
}

/**
 * The difference between a stored snapshot and the account now: `now` is taken fresh unless the
 * page passes the one it has just taken (docs/history.md, "Diff").
 */
export async function diffFromNow(
  account: string,
  client: DnsFilterApi,
  snapshotId: string,
  now: Promise<Snapshot> = accountNow(client),
): Promise<SnapshotDiff | null> {
  // Marks for the bench (docs/performance.md): the inputs, then the diff itself.
  performance.mark('history:compare');
  const [snapshot, current] = await Promise.all([
    history.snapshotOf(account, snapshotId).finally(() => performance.mark('history:compare-stored')),
    now.finally(() => performance.mark('history:compare-now')),
  ]);
  if (snapshot === null) return null;
  const lines = diffSections(snapshot.sections, current.sections);
  const plan = planRollback(lines);
  performance.mark('history:compare-diffed');
  return { snapshot, lines, plan };
}

/**
 * Queues the rollback of `lines` (chosen from `diffFromNow`) for the account: a snapshot first
 * (stored, so the rollback can itself be rolled back), then the job, then its alarm. The calls
 * themselves go with `resumeRollback`.
 */
export async function queueRollback(
  account: string,
  client: DnsFilterApi,
  target: Snapshot,
  lines: readonly DiffLine[],
  alarms: AlarmsApi,
  now: () => number = Date.now,
): Promise<RollbackJob> {
  await snapshotAccount(account, client, 'before-rollback');
  const { steps } = planRollback(lines);
  const job: RollbackJob = {
    v: 1,
    id: globalThis.crypto.randomUUID(),
    account,
    snapshotTakenAt: target.takenAt,
    createdAt: now(),
    steps,
    next: 0,
    refused: [],
    attempts: 0,
    nextAttemptAt: now(),
  };
  await writeJob(job);
  alarms.create(rollbackAlarmOf(account), { delayInMinutes: 1 });
  return job;
}

/** Records what a step changed that the service cannot report (lib/settings/local-records.ts). */
async function recordKnown(form: DnsFilterApi['form'], step: RollbackStep, now: number): Promise<void> {
  const scope = scopeKey(form, step.scope);
  if (step.kind === 'tlds' && step.op === 'add') await rememberBlockedTld(scope, step.entry);
  if (step.kind === 'defaultBlock')
    await rememberDefaultBlock(scope, (step.op === 'add') === (step.entry === DEFAULT_BLOCK_ON), now);
}

/** A step of a rollback as the journal keeps it (networks by their address, ./journal.ts). */
function journalOfStep(step: RollbackStep, at: number): JournalEntry {
  const entry = step.kind === 'networks' ? parseNetworkEntry(step.entry).ip : step.entry;
  return { kind: step.kind, scope: step.scope, entry, op: step.op, at, surface: 'rollback' };
}

/**
 * Sends the account's rollback from where it stopped, under its lock (Web Locks, shared by the
 * extension's pages and worker: the page and the worker never send it both; one waits for the
 * other, and a page closed mid-way lets the waiting worker go on at once). Before sending, its
 * alarm is set a minute ahead, so a worker stopped mid-way is woken again. Done: the job goes,
 * its calls are recorded as this browser's, and a snapshot is taken. Waiting: the alarm is set
 * for the retry.
 */
export function resumeRollback(
  account: string,
  client: DnsFilterApi,
  alarms: AlarmsApi,
  options: { force?: boolean; onProgress?: (job: RollbackJob) => void; now?: () => number } = {},
): Promise<RunOutcome> {
  const now = options.now ?? Date.now;
  // The Web Lock it is sent under (lib/outbox/lease.ts) has the alarm's name.
  return exclusively(rollbackAlarmOf(account), async () => {
    alarms.create(rollbackAlarmOf(account), { delayInMinutes: 1 });
    const outcome = await runRollback(
      account,
      client,
      {
        read: readJob,
        write: writeJob,
        now,
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        onApplied: async (step) => {
          await recordKnown(client.form, step, now());
          // "A rollback from this browser" in what changed, for as long as the history is kept.
          await journal.record(account, [journalOfStep(step, now())]).catch(() => undefined);
        },
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
        paceMs: ROLLBACK_PACE_MS,
      },
      options.force ? { force: true } : {},
    );
    if (outcome.state === 'done') {
      const done = [
        ...(await readDone(account)),
        { from: outcome.job.createdAt, to: now(), steps: outcome.job.steps },
      ];
      await browserHistoryStorage.set({
        [rollbacksDoneKeyOf(account)]: rollbacksDoneSchema.parse({
          v: 1,
          done: done.slice(-ROLLBACKS_DONE_KEPT),
        }),
      });
      await browserHistoryStorage.remove([rollbackJobKeyOf(account)]);
      await alarms.clear(rollbackAlarmOf(account));
      await snapshotAccount(account, client, 'after-rollback').catch(() => undefined);
    } else if (outcome.state === 'none') {
      await alarms.clear(rollbackAlarmOf(account));
    } else {
      alarms.create(rollbackAlarmOf(account), { when: Math.max(outcome.job.nextAttemptAt, now() + 1_000) });
    }
    return outcome;
  });
}

/**
 * The daily alarm: a snapshot of every account of this browser with a key, each with its own
 * client (lib/identity/current.ts) and what this browser set for it (parked accounts' records
 * come from their entries, lib/accounts/store.ts). One failing account does not hold the others.
 */
export async function snapshotEveryAccount(
  accounts: readonly {
    identity: { id: string };
    client: DnsFilterApi | null;
    accountId: string;
    active: boolean;
  }[],
  parkedKnown: (accountId: string) => Promise<KnownHere>,
): Promise<void> {
  for (const account of accounts) {
    if (account.client === null) continue;
    const known = account.active ? await knownHere() : await parkedKnown(account.accountId);
    await snapshotAccount(account.identity.id, account.client, 'daily', known).catch(() => undefined);
  }
}
