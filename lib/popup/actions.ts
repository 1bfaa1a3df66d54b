/**
 * What the user does in the popup: a one-click change (`act`) and its Undo, "Send now" on waiting
 * changes, and choosing another profile. Changes go to the worker's outbox (lib/outbox).
 */

import { listName } from '@/lib/api/attempts';
import { capabilitiesOf } from '@/lib/api/forms';
import { inverseChange, type Membership } from '@/lib/cache/list-changes';
import { t } from '@/lib/i18n';
import type { ListChange } from '@/lib/messaging/protocol';
import { carriesListChange } from '@/lib/messaging/queued-change';
import { notes, recordOf } from '@/lib/notes';
import {
  addedTldsItem,
  chosenProfileItem,
  defaultBlockItem,
  outboxItem,
  schedulesItem,
  scopeKey,
  settledChangesItem,
} from '@/lib/settings/storage';
import { type Confirmation, type ControllerContext, ignoreHere, listHosts } from './controller-context';
import { refreshStale } from './refresh';
import type { ChangeStatus, UndoOffer } from './state';

export async function chooseProfile(ctx: ControllerContext, profile: string): Promise<void> {
  const { deps, ready, update } = ctx;
  const current = ready();
  if (current === null || !capabilitiesOf(current.form).profileSelection || profile === current.profile)
    return;
  ctx.generation++;
  const scope = scopeKey('A', profile);
  const [lists, tlds, defaultBlocks] = await Promise.all([
    deps.cache.readLists(scope, current.account, listHosts(ctx, current)),
    addedTldsItem.getValue(),
    defaultBlockItem.getValue(),
    chosenProfileItem.setValue(profile),
  ]);
  update({
    profile,
    scope,
    lists,
    blockedTlds: tlds[scope] ?? [],
    defaultBlock: defaultBlocks[scope]?.enabled ?? false,
    refreshing: false,
    problem: null,
    change: { state: 'idle', message: '' },
    undo: null,
    scheduleOwned: [],
  });
  await refreshStale(ctx);
}

/**
 * Sends one change and reports its outcome. `before` is where the domain was, so Undo can put
 * it back; `undoDescription` is offered unless the change failed.
 */
async function submit(
  ctx: ControllerContext,
  change: ListChange,
  progress: string,
  next: { before: Membership; undo: Omit<UndoOffer, 'change'> } | null,
  confirmation: Confirmation = {},
): Promise<void> {
  const { deps, ready, update } = ctx;
  const current = ready();
  if (current === null || current.change.state === 'running') return;
  update({ change: { state: 'running', message: progress }, undo: null, scheduleOwned: [] });
  const accountId = await ctx.shownAccountId();
  if (accountId === null) {
    // The key or service changed since the view was read: it shows an account that is not active.
    update({ change: { state: 'failed', message: t('popup.accountChanged') } });
    return;
  }
  const outcome = await deps.submitChange(change, { ...confirmation, accountId });
  if (outcome.state === 'delivered') {
    // The cached view follows at once; the next refresh confirms it.
    await deps.cache.applyChanges(current.scope, current.account, [change]);
    const lists = await deps.cache.readLists(current.scope, current.account, listHosts(ctx, current));
    if (ready()?.scope === current.scope) update({ lists });
  }
  const undo =
    outcome.state !== 'failed' && next !== null
      ? { change: inverseChange(change, next.before), ...next.undo }
      : null;
  // A waiting change is shown from the outbox (what was asked, one line): read now rather than
  // when the storage watch reports it, so the popup never shows it without that line.
  const outbox = outcome.state === 'pending' ? { outbox: await outboxItem.getValue() } : {};
  update({ ...outbox, change: { state: outcome.state, message: outcome.message }, undo });
  // A click (not its Undo) that went through, on a domain a schedule owns: the schedule would put
  // it back at its next check, so the popup says so and offers to keep it (docs/schedules.md,
  // "Manual changes"). The schedules are read only now, never on the way to the first view.
  if (outcome.state === 'failed' || next === null) return;
  const owned = await schedulesOwning(accountId, change, ctx.deps.now());
  if (owned.length > 0 && ready()?.scope === current.scope) update({ scheduleOwned: owned });
}

/**
 * The schedules owning the changed domain for its profile; none when they cannot be read. Their
 * code is loaded only for an account that has rules at all.
 */
async function schedulesOwning(accountId: string, change: ListChange, now: number) {
  try {
    if (((await schedulesItem.getValue())[accountId]?.rules.length ?? 0) === 0) return [];
    const { rulesOwningDomains } = await import('@/lib/schedules/manual');
    return await rulesOwningDomains(accountId, change.profile, [change.domain], now);
  } catch {
    return [];
  }
}

/**
 * One click: add to or remove from a list the domain the popup shows. `sentWith` says the user
 * typed the domain, a public suffix, to confirm it (view.ts `publicSuffix`).
 */
export function act(
  ctx: ControllerContext,
  op: ListChange['op'],
  list: ListChange['list'],
  domain: string,
  before: Membership,
  sentWith: Confirmation = {},
): Promise<void> {
  const current = ctx.ready();
  if (current === null) return Promise.resolve();
  const change: ListChange = {
    op,
    list,
    domain,
    profile: current.profile,
    source: 'popup',
    page: current.host,
  };
  const words = { domain, list: listName(list) };
  const { profile } = current;
  const progress =
    profile === undefined
      ? t(op === 'add' ? 'popup.adding' : 'popup.removing', words)
      : t(op === 'add' ? 'popup.addingProfile' : 'popup.removingProfile', { ...words, profile });
  let undo: Omit<UndoOffer, 'change'>;
  if (before === 'none') {
    undo = { description: t('popup.undoTakeOff', words), progress: t('popup.undoingTakeOff', words) };
  } else {
    const back = { domain, list: listName(before) };
    undo = { description: t('popup.undoPutBack', back), progress: t('popup.undoingPutBack', back) };
    const entry = { scope: current.scope, list: before, domain };
    const record = current.entryNotes && recordOf(current.entryNotes, entry);
    if (record) undo.record = record;
  }
  if (sentWith.publicSuffixConfirmed) undo.publicSuffixConfirmed = true;
  return submit(ctx, change, progress, { before, undo }, sentWith);
}

/**
 * "Send now" on the changes waiting for this domain: the user need not wait for the next
 * automatic attempt once the service is back. Says what became of each of them.
 */
export async function sendPendingNow(ctx: ControllerContext, ids: readonly string[]): Promise<void> {
  const { deps, ready, update } = ctx;
  const current = ready();
  if (current === null || current.change.state === 'running' || !deps.retryOutbox) return;
  update({ change: { state: 'running', message: t('popup.sendingPending') }, undo: null });
  const left = await deps.retryOutbox();
  const [outbox, settled] = await Promise.all([outboxItem.getValue(), settledChangesItem.getValue()]);
  const stillWaiting = outbox.filter((entry) => ids.includes(entry.id));
  const done = settled.filter((entry) => ids.includes(entry.id));
  let change: ChangeStatus;
  if (left === null) {
    change = { state: 'failed', message: t('popup.workerNoAnswerPending') };
  } else if (stillWaiting.length > 0) {
    const reason = stillWaiting[0]?.lastError ?? outbox[0]?.lastError ?? '';
    change = { state: 'pending', message: t('popup.stillWaiting', { reason }), retried: true };
  } else {
    change = {
      state: done.some((entry) => entry.state === 'failed') ? 'failed' : 'delivered',
      message: done.map((entry) => entry.message).join(' ') || t('popup.pendingSent'),
    };
  }
  update({ outbox, settled, change });
  if (change.state === 'delivered') {
    const delivered = done
      .filter(carriesListChange)
      .filter((entry) => entry.state === 'delivered')
      .map((entry) => entry.change);
    await deps.cache.applyChanges(current.scope, current.account, delivered);
    const lists = await deps.cache.readLists(current.scope, current.account, listHosts(ctx, current));
    if (ready()?.scope === current.scope) update({ lists });
  }
}

/** Undo of the last change: sends its inverse and puts back the entry's record. */
export async function undo(ctx: ControllerContext): Promise<void> {
  const current = ctx.ready();
  const offer = current?.undo;
  if (!current || !offer) return;
  const { change, record, publicSuffixConfirmed } = offer;
  await submit(ctx, change, offer.progress, null, publicSuffixConfirmed ? { publicSuffixConfirmed } : {});
  // The entry is back, so is its record (when, from where, the note): best effort.
  if (record && ctx.ready()?.change.state !== 'failed')
    await notes.restore(current.account, record).catch(ignoreHere);
  // A "Keep until …" of the change goes with it: the schedule owns the domain again at once.
  const owned = current.scheduleOwned ?? [];
  if (owned.length > 0 && ctx.ready()?.change.state !== 'failed') {
    const { withdrawKeep } = await import('@/lib/schedules/manual');
    for (const { accountId, status, changedAt } of owned)
      await withdrawKeep(accountId, status, changedAt).catch(ignoreHere);
  }
}
