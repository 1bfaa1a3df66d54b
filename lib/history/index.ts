/**
 * History of an account (docs/history.md): snapshots taken through the API client, stored as
 * deltas per account, what changed between them and who changed it, and rollback.
 */
import { isQuotaError, withRoom } from '@/lib/cache/storage-room';
import { exclusively, randomId } from '@/lib/outbox/lease';
import { readRaw, removeRaw, writeRaw } from '@/lib/settings/item';
import { rollbackJobKeyOf, rollbacksDoneKeyOf } from './schema';
import { createHistoryStore, type HistoryStorage } from './store';

const bare = (key: string) => key.replace(/^local:/, '');

export const browserHistoryStorage: HistoryStorage = {
  async get(keys) {
    const raw = await readRaw('local', keys.map(bare));
    return Object.fromEntries(keys.map((key) => [key, raw[bare(key)]]));
  },
  set: (values) =>
    writeRaw('local', Object.fromEntries(Object.entries(values).map(([key, value]) => [bare(key), value]))),
  remove: (keys) => removeRaw('local', keys.map(bare)),
};

/** The store the options page and the worker use. */
export const history = createHistoryStore({
  storage: browserHistoryStorage,
  exclusively,
  withRoom,
  isQuotaError,
  newId: randomId,
});

/**
 * Forgets the account's snapshots, its rollback and the record of past ones (the account is
 * removed, lib/accounts/forget.ts); its rollback alarm goes with the account's others.
 */
export async function forgetHistory(account: string): Promise<void> {
  await history.forget(account);
  await browserHistoryStorage.remove([rollbackJobKeyOf(account), rollbacksDoneKeyOf(account)]);
}
