/**
 * Removing an account (the worker does it: it owns the outbox). Forgets the account's entry and
 * key, its parked settings, and everything tagged with its identity, or with one it had before
 * (an earlier key or address, ./store.ts `identitiesOf`): queued and settled changes, cached
 * lists, profiles and statistics, temporary allows, unbreaks (with the hosts of the pages they
 * were made on), registered addresses, notes on its list entries, its history, schedules, leases and alarms. Data of an
 * identity another remaining account still has or had (the same origin, form and key entered
 * twice) stays: it is that account's too. The service is not asked to unregister anything:
 * removing an account from this browser changes nothing there.
 */
import { cachedListsItem } from '@/lib/cache/cached-lists';
import { forgetHistory } from '@/lib/history';
import type { AccountId } from '@/lib/identity/identity';
import { notes } from '@/lib/notes';
import type { AlarmsApi } from '@/lib/outbox/alarms';
import { exclusively } from '@/lib/outbox/lease';
import { forgetSchedulesOf } from '@/lib/schedules/edit';
import type { StoredItem } from '@/lib/settings/item';
import {
  cachedBlockedTodayItem,
  cachedListsIndexItem,
  leasesItem,
  outboxItem,
  profilesCacheItem,
  registeredAddressesItem,
  settledChangesItem,
  temporaryAllowsItem,
  unbreakSessionsItem,
} from '@/lib/settings/storage';
import { activateAccount, identitiesOf, readAccounts, updateAccounts } from './store';

export interface ForgetDeps {
  alarms: AlarmsApi;
  /** Alarm and lease names of an account (by its id) and of an identity's outbox. */
  alarmsOf: (accountId: string, identity: AccountId) => string[];
  leasesOf: (accountId: string, identity: AccountId) => string[];
}

export interface ForgetOutcome {
  removed: boolean;
  /** Waiting changes discarded with it. */
  discarded: number;
}

/** Removes account `id` and everything of it; the active one hands over to the first other. */
export async function forgetAccount(id: string, deps: ForgetDeps): Promise<ForgetOutcome> {
  const state = await readAccounts();
  const account = state.accounts.find((candidate) => candidate.id === id);
  if (!account || state.accounts.length <= 1) return { removed: false, discarded: 0 };
  if (account.active) {
    const next = state.accounts.find((candidate) => candidate.id !== id)!;
    await activateAccount(next.id);
  }
  const identities = await identitiesOf(account);
  const removed = await updateAccounts((now, draft) => {
    if (now.activeId === id || !draft.entries.some((entry) => entry.id === id)) return null;
    draft.entries = draft.entries.filter((entry) => entry.id !== id);
    delete draft.keys[id];
    return { draft, result: true };
  });
  if (!removed) return { removed: false, discarded: 0 };
  // Its schedules are its own, whatever identity it had (docs/schedules.md).
  await forgetSchedulesOf(id);

  const remaining = await readAccounts();
  const othersHave = new Set((await Promise.all(remaining.accounts.map(identitiesOf))).flat());
  const shared = identities.filter((identity) => othersHave.has(identity));
  let discarded = 0;
  for (const identity of identities) {
    if (!othersHave.has(identity)) discarded += await forgetIdentity(identity);
  }
  const stillNeeded = (name: string) => shared.some((identity) => name.includes(identity));
  const alarms = new Set(identities.flatMap((identity) => deps.alarmsOf(id, identity)));
  for (const name of alarms) {
    if (!stillNeeded(name)) await deps.alarms.clear(name);
  }
  const leases = new Set(identities.flatMap((identity) => deps.leasesOf(id, identity)));
  await exclusively('leases', async () => {
    const all = { ...(await leasesItem.getValue()) };
    for (const name of leases) if (!stillNeeded(name)) delete all[name];
    await leasesItem.setValue(all);
  });
  return { removed: true, discarded };
}

/** Drops the entries of `identity` from a list, under the list's lock; returns how many went. */
function dropEntriesOf<E extends { account: string }>(
  identity: AccountId,
  lock: string,
  item: StoredItem<E[]>,
): Promise<number> {
  return exclusively(lock, async () => {
    const entries = await item.getValue();
    const kept = entries.filter((entry) => entry.account !== identity);
    if (kept.length !== entries.length) await item.setValue(kept);
    return entries.length - kept.length;
  });
}

/** Forgets every piece of data tagged with `identity`; returns how many queued changes went. */
async function forgetIdentity(identity: AccountId): Promise<number> {
  const mine = (value: { account: string } | null) => value !== null && value.account === identity;
  const discarded = await dropEntriesOf(identity, 'outbox', outboxItem);
  await dropEntriesOf(identity, 'outbox-settled', settledChangesItem);
  await dropEntriesOf(identity, 'temporary-allows', temporaryAllowsItem);
  await dropEntriesOf(identity, 'unbreak-sessions', unbreakSessionsItem);
  await exclusively('registration-addresses', async () => {
    const registered = await registeredAddressesItem.getValue();
    await registeredAddressesItem.setValue({
      current: mine(registered.current) ? null : registered.current,
      stale: registered.stale.filter((address) => !mine(address)),
    });
  });
  // The notes on its list entries (lib/notes): kept per identity, forgotten with it.
  await notes.forget(identity, (await notes.read(identity)).entries);
  // Its history (lib/history): snapshots, a rollback still queued, past rollbacks.
  await forgetHistory(identity);
  if (mine(await profilesCacheItem.getValue())) await profilesCacheItem.removeValue();
  if (mine(await cachedBlockedTodayItem.getValue())) await cachedBlockedTodayItem.removeValue();
  const index = await cachedListsIndexItem.getValue();
  const gone: string[] = [];
  for (const scope of Object.keys(index)) {
    const item = cachedListsItem(scope);
    if (mine(await item.getValue())) {
      await item.removeValue();
      gone.push(scope);
    }
  }
  if (gone.length > 0) {
    const { ...rest } = await cachedListsIndexItem.getValue();
    for (const scope of gone) delete rest[scope];
    await cachedListsIndexItem.setValue(rest);
  }
  return discarded;
}
