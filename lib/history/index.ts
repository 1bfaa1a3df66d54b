/**
 * History of an account (docs/history.md): snapshots taken through the API client, stored as
 * deltas per account, what changed between them and who changed it, and rollback.
 */

import type { DnsFilterApi } from '@/lib/api/types';
import { isQuotaError, withRoom } from '@/lib/cache/storage-room';
import { parseAccountId } from '@/lib/identity/identity';
import { isListChange } from '@/lib/messaging/queued-change';
import { exclusively, randomId } from '@/lib/outbox/lease';
import { localName, readRaw, removeRaw, writeLocalKeys } from '@/lib/settings/item';
import type { SettledChange } from '@/lib/settings/storage';
import { createJournal, journaledClient, listChangeInJournal, settingChangeInJournal } from './journal';
import {
  DEFAULT_HISTORY_SETTINGS,
  HISTORY_SETTINGS_KEY,
  type HistorySettings,
  historySettingsSchema,
  rollbackJobKeyOf,
  rollbacksDoneKeyOf,
} from './schema';
import { createHistoryStore, type HistoryStorage } from './store';

export const browserHistoryStorage: HistoryStorage = {
  async get(keys) {
    const raw = await readRaw('local', keys.map(localName));
    return Object.fromEntries(keys.map((key) => [key, raw[localName(key)]]));
  },
  set: writeLocalKeys,
  remove: (keys) => removeRaw('local', keys.map(localName)),
};

/** The store the options page and the worker use. */
export const history = createHistoryStore({
  storage: browserHistoryStorage,
  exclusively,
  withRoom,
  isQuotaError,
  newId: randomId,
});

export async function readHistorySettings(): Promise<HistorySettings> {
  const raw = (await browserHistoryStorage.get([HISTORY_SETTINGS_KEY]))[HISTORY_SETTINGS_KEY];
  const parsed = historySettingsSchema.safeParse(raw);
  return parsed.success ? parsed.data : DEFAULT_HISTORY_SETTINGS;
}

/** This browser's changes, kept as long as the history's retention (./journal.ts). */
export const journal = createJournal({
  storage: browserHistoryStorage,
  exclusively,
  withRoom,
  retentionDays: async () => (await readHistorySettings()).retentionDays,
});

/**
 * The client the options page's account sections use: every change they make with the service
 * directly (list views, categories, default block, TLDs, profiles, networks, copying a profile)
 * goes into the journal as made from `options`.
 */
export const journaledOptionsClient = (client: DnsFilterApi, account: string): DnsFilterApi =>
  journaledClient(client, account, 'options', journal);

/**
 * A change the outbox delivered goes into the journal with its surface and page (lib/outbox/
 * queue.ts `recordSettled`): list changes and setting changes; a refused change made nothing.
 */
export async function journalSettled(settled: SettledChange): Promise<void> {
  const { change } = settled;
  const identity = parseAccountId(settled.account);
  if (settled.state !== 'delivered' || identity === null) return;
  const made = isListChange(change)
    ? listChangeInJournal(identity.form, change).map((entry) => ({
        ...entry,
        ...(change.page === undefined ? {} : { page: change.page }),
      }))
    : [settingChangeInJournal(identity.form, change)];
  await journal.record(
    settled.account,
    made.map((entry) => ({ ...entry, at: settled.at, surface: change.source })),
  );
}

/**
 * Forgets the account's snapshots, its rollback, the record of past ones and its journal (the
 * account is removed, lib/accounts/forget.ts); its rollback alarm goes with the account's others.
 */
export async function forgetHistory(account: string): Promise<void> {
  await history.forget(account);
  await journal.forget(account);
  await browserHistoryStorage.remove([rollbackJobKeyOf(account), rollbacksDoneKeyOf(account)]);
}
