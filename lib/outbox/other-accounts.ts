/**
 * Changes waiting for an account that is no account of this browser now: made before a new key,
 * origin or form was saved for it. They are never sent to another account. The user sees
 * them (options page) and decides: keep them for their account, sent when it is configured
 * again, or discard them (after a confirmation on the page).
 */
import { type AccountId, type AccountIdentity, parseAccountId, UNKNOWN_KEY } from '@/lib/identity/identity';
import { type OutboxEntry, outboxItem } from '@/lib/settings/storage';
import { exclusively } from './lease';

export interface OtherAccountChanges {
  /** The account they wait for; `keyFingerprint` may be `NO_KEY` or `UNKNOWN_KEY`. */
  account: AccountIdentity;
  /** Oldest first. */
  entries: OutboxEntry[];
  /** True while some of them wait for the user's decision (none was kept yet). */
  undecided: boolean;
}

/**
 * The waiting changes of every account but `current` (the identity, or the identities of every
 * account of this browser, whose changes are all delivered: lib/accounts), grouped by account
 * in queue order.
 */
export function changesForOtherAccounts(
  entries: readonly OutboxEntry[],
  current: AccountId | readonly AccountId[],
): OtherAccountChanges[] {
  const configured = new Set<AccountId>(typeof current === 'string' ? [current] : current);
  const groups = new Map<AccountId, OutboxEntry[]>();
  for (const entry of entries) {
    if (configured.has(entry.account)) continue;
    groups.set(entry.account, [...(groups.get(entry.account) ?? []), entry]);
  }
  return [...groups].map(([id, grouped]) => ({
    account: parseAccountId(id) ?? { id, origin: id, form: 'A', keyFingerprint: UNKNOWN_KEY },
    entries: grouped,
    undecided: grouped.some((entry) => !entry.keptForAccount),
  }));
}

/**
 * "Send to that account when it is back": the changes `ids` of `account` stay queued for it and
 * are no longer offered for a decision. Returns how many were kept.
 */
export function keepForAccount(account: AccountId, ids: readonly string[]): Promise<number> {
  return exclusively('outbox', async () => {
    const entries = await outboxItem.getValue();
    const chosen = (entry: OutboxEntry) => entry.account === account && ids.includes(entry.id);
    await outboxItem.setValue(
      entries.map((entry) => (chosen(entry) ? { ...entry, keptForAccount: true } : entry)),
    );
    return entries.filter(chosen).length;
  });
}

/**
 * "Discard" (confirmed by the user): the changes `ids` of `account` leave the outbox unsent.
 * Only the ones the user saw are named, so a change queued meanwhile is never discarded with
 * them. Returns how many were discarded.
 */
export function discardForAccount(account: AccountId, ids: readonly string[]): Promise<number> {
  return exclusively('outbox', async () => {
    const entries = await outboxItem.getValue();
    const chosen = (entry: OutboxEntry) => entry.account === account && ids.includes(entry.id);
    await outboxItem.setValue(entries.filter((entry) => !chosen(entry)));
    return entries.filter(chosen).length;
  });
}
