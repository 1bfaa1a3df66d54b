/**
 * The records follow list changes at the two places every change passes: the outbox, where the
 * popup, the right-click menu, the shortcuts, the logs table, temporary allows and unbreak queue
 * theirs (`followQueued`, `followSettled`), and the options page's direct edits
 * (`followDirectEdits`). No surface records anything itself: the change carries its `source` and
 * the tab's host (`page`).
 */

import { scopeOf } from '@/lib/api/forms';
import { parseAccountId } from '@/lib/identity/identity';
import type { ListChange } from '@/lib/messaging/protocol';
import { type OutboxEntry, outboxItem } from '@/lib/settings/storage';
import { type EntryAddress, sameEntry } from './entries';
import type { NotesStore } from './store';

/** The record address of a change made in `account` (null for a value that is no account id). */
export function addressOf(
  change: Pick<ListChange, 'list' | 'domain' | 'profile'>,
  account: string,
): EntryAddress | null {
  const identity = parseAccountId(account);
  if (!identity) return null;
  // The scope key of lib/settings/storage.ts `scopeKey`, from the form the account id names.
  return {
    scope: `${identity.form}:${scopeOf(identity.form, change.profile)}`,
    list: change.list,
    domain: change.domain,
  };
}

/** A change was queued: an addition is recorded at once (when, where from, which page). */
export async function followQueued(store: NotesStore, change: ListChange, account: string): Promise<void> {
  if (change.op !== 'add') return;
  const address = addressOf(change, account);
  if (!address) return;
  await store.recordAdded(account, [
    { ...address, source: change.source, ...(change.page === undefined ? {} : { page: change.page }) },
  ]);
}

/** A change still waiting in the outbox (lib/settings/storage.ts `outboxItem`). */
type Waiting = Pick<OutboxEntry, 'id' | 'change' | 'account'>;

/**
 * A change left the outbox: a removal the service confirmed forgets the entry's record, and so
 * does an addition it refused (the entry is not on the list). A removal undone meanwhile (an
 * addition of the same entry waits behind it) keeps the record: the entry comes back with it.
 */
export async function followSettled(
  store: NotesStore,
  settled: { id?: string; change: ListChange; account: string; state: 'delivered' | 'failed' },
  readWaiting: () => Promise<readonly Waiting[]> = () => outboxItem.getValue(),
): Promise<void> {
  const { change, account, state } = settled;
  const gone = change.op === 'remove' ? state === 'delivered' : state === 'failed';
  if (!gone) return;
  const address = addressOf(change, account);
  if (!address) return;
  const readsIt = (entry: Waiting) => {
    const readded = entry.change.op === 'add' ? addressOf(entry.change, account) : null;
    return (
      entry.id !== settled.id && entry.account === account && readded !== null && sameEntry(readded, address)
    );
  };
  if (change.op === 'remove' && (await readWaiting()).some(readsIt)) return;
  await store.forget(account, [address]);
}

/** Edits the options page made with the service directly, once confirmed. */
export interface DirectEdit {
  op: 'add' | 'remove';
  list: 'whitelist' | 'blocklist';
  domain: string;
}

export async function followDirectEdits(
  store: NotesStore,
  account: string,
  scope: string,
  edits: readonly DirectEdit[],
): Promise<void> {
  const edited = (op: DirectEdit['op']) =>
    edits.filter((edit) => edit.op === op).map(({ list, domain }) => ({ scope, list, domain }));
  await store.recordAdded(
    account,
    edited('add').map((address) => ({ ...address, source: 'options' as const })),
  );
  await store.forget(account, edited('remove'));
}
