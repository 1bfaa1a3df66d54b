/**
 * The stored queue of one-click changes (`outboxItem`) and the record of those that left it
 * (`settledChangesItem`): what is queued, in which order, and how it is written.
 *
 * Storage: every write of the outbox makes room by evicting cached views when the browser refuses
 * it for quota (lib/cache/storage-room.ts); a change that still cannot be stored is refused with
 * a message, never dropped in silence.
 */

import { attempts } from '@/lib/api/attempts';
import type { DomainListKind } from '@/lib/api/types';
import { withRoom } from '@/lib/cache/storage-room';
import { journalSettled } from '@/lib/history';
import { t } from '@/lib/i18n';
import type { AccountId } from '@/lib/identity/identity';
import type { ListChange, QueuedChange, SettingChange } from '@/lib/messaging/protocol';
import { carriesListChange, isListChange } from '@/lib/messaging/queued-change';
import { followQueued, notes } from '@/lib/notes';
import {
  OUTBOX_LIMIT,
  type OutboxEntry,
  outboxItem,
  type SettledChange,
  settledChangesItem,
} from '@/lib/settings/storage';
import { exclusively, randomId } from './lease';
import { describeSetting } from './setting-text';

const SETTLED_KEPT = 20;

/** What a change does, completing "Could not …" and "Waiting to …". */
export function describeChange(change: QueuedChange): string {
  switch (change.op) {
    case 'add':
      return attempts.addDomain(change.list, change.domain, change.profile);
    case 'remove':
      return attempts.deleteDomain(change.list, change.domain, change.profile);
    default:
      return describeSetting(change);
  }
}

/** The same change to the same target, whoever asked for it. */
export function sameChange(a: QueuedChange, b: QueuedChange): boolean {
  if (!sameTarget(a, b) || a.op !== b.op) return false;
  if (isListChange(a)) return isListChange(b) && a.list === b.list;
  if (a.op === 'set-category') return b.op === 'set-category' && a.blocked === b.blocked;
  return b.op === 'set-default-block' && a.enabled === b.enabled;
}

/**
 * Changes to the same domain, category or default block of the same scope: their order matters,
 * other changes are independent.
 */
function sameTarget(a: QueuedChange, b: QueuedChange): boolean {
  if (a.profile !== b.profile) return false;
  if (isListChange(a)) return isListChange(b) && a.domain === b.domain;
  if (a.op === 'set-category') return b.op === 'set-category' && a.category === b.category;
  return a.op === b.op;
}

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
  change: QueuedChange,
  account: AccountId,
  now: () => number = Date.now,
  options: EnqueueOptions = {},
): Promise<OutboxEntry> {
  const [queued] = await enqueueChanges([change], account, now, options);
  return queued!;
}

/**
 * Writes several changes for `account` in one write of the outbox: all of them are queued or none
 * is (docs/several-profiles.md, "No half-applied state"). Each is treated as `enqueueChange`
 * treats one (the same change already waiting is not queued twice); their entries come back in
 * the order given. Rejects, writing nothing, as `enqueueChange` does.
 */
export async function enqueueChanges(
  changes: readonly QueuedChange[],
  account: AccountId,
  now: () => number = Date.now,
  options: EnqueueOptions = {},
): Promise<OutboxEntry[]> {
  const queued = await exclusively('outbox', async () => {
    let entries = await outboxItem.getValue();
    const result: OutboxEntry[] = [];
    let added = false;
    let nextAhead = 0;
    for (const change of changes) {
      let lastForTarget = entries.findLastIndex(
        (entry) => entry.account === account && sameTarget(entry.change, change),
      );
      const waiting = entries[lastForTarget];
      if (waiting && sameChange(waiting.change, change)) {
        result.push(waiting);
        continue;
      }
      // Only the newest state of a setting matters: an older one still queued is stale, and would
      // hold the newer one behind its retries (docs/schedules.md, "Sending").
      if (waiting && !isListChange(change)) {
        entries = entries.filter((entry) => entry.account !== account || !sameTarget(entry.change, change));
        lastForTarget = -1;
      }
      if (entries.length >= OUTBOX_LIMIT) throw new OutboxFullError();
      const entry: OutboxEntry = {
        id: randomId(),
        change,
        account,
        createdAt: now(),
        attempts: 0,
        nextAttemptAt: now(),
      };
      // Ahead: together, in the order given, before the waiting changes for other domains.
      const at = options.ahead ? Math.max(lastForTarget + 1, nextAhead) : entries.length;
      entries = [...entries.slice(0, at), entry, ...entries.slice(at)];
      nextAhead = at + 1;
      added = true;
      result.push(entry);
    }
    if (added) await withRoom(() => outboxItem.setValue(entries));
    return result;
  });
  // Every addition queued from any surface is remembered with its source and page (lib/notes);
  // best effort: a change is never refused for its record.
  for (const entry of queued.filter(carriesListChange))
    await followQueued(notes, entry.change, account).catch(() => undefined);
  return queued;
}

export async function updateOutbox(update: (entries: OutboxEntry[]) => OutboxEntry[]): Promise<void> {
  await exclusively('outbox', async () => {
    const updated = update(await outboxItem.getValue());
    await withRoom(() => outboxItem.setValue(updated));
  });
}

export async function recordSettled(settled: SettledChange): Promise<void> {
  await exclusively('outbox-settled', async () => {
    const kept = [settled, ...(await settledChangesItem.getValue())].slice(0, SETTLED_KEPT);
    await withRoom(() => settledChangesItem.setValue(kept));
  });
  // The history's journal keeps it longer than this log (docs/history.md); best effort.
  await journalSettled(settled).catch(() => undefined);
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
    const gone = changesOf(entries, account)
      .filter(carriesListChange)
      .filter((entry) => undoes(entry.change));
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
    await outboxItem.setValue(entries.filter((entry) => !gone.some((left) => left.id === entry.id)));
    return gone;
  });
  return dropped.map((entry) => entry.change);
}

/**
 * A category or default block set on the options page, straight with the service: a schedule's
 * change of the same setting still queued would undo it when sent later, so it leaves the outbox
 * (docs/schedules.md, "Manual changes"). Left alone, the schedule queues its state again at its
 * next check; kept until its next edge, it does not. Returns how many left.
 */
export async function dropQueuedSettingChanges(account: AccountId, edited: SettingChange): Promise<number> {
  return exclusively('outbox', async () => {
    const entries = await outboxItem.getValue();
    const kept = entries.filter((entry) => entry.account !== account || !sameTarget(entry.change, edited));
    if (kept.length < entries.length) await withRoom(() => outboxItem.setValue(kept));
    return entries.length - kept.length;
  });
}
