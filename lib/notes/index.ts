/**
 * Lists that remember why: for every entry added from this browser, when, from which surface,
 * on which page (the tab's host only), and a note the user may write later. Kept per account and
 * scope in storage.local (./entries.ts says how it is bounded), recorded where every list change
 * passes (./record.ts), shown by the options page's list views and the popup's verdict, and
 * carried by the settings backup (./backup.ts, imported by itself: it brings zod).
 *
 * Writers: the worker (outbox) and the options page. The popup only reads, one key: the
 * configured account's records.
 */
import { storage } from 'wxt/utils/storage';
import { accountIdentity } from '@/lib/account/identity';
import { exclusively } from '@/lib/outbox/lease';
import { readStoredValue } from '@/lib/settings/stored-reads';
import { createNotesStore, type NotesStorage } from './store';

export { originLine, recordMatches, verdictAddition } from './describe';
export {
  type AccountNotes,
  EMPTY_NOTES,
  type EntryRecord,
  MAX_ENTRIES_PER_ACCOUNT,
  NOTE_MAX_CHARS,
  recordOf,
} from './entries';
export { followDirectEdits, followQueued, followSettled } from './record';
export { type AccountNotesAccess, createNotesStore, notesAccessFor } from './store';

type Key = Parameters<typeof storage.getItem>[0];

/** storage.local through WXT; reads take the popup's early answers when there are any. */
export const browserNotesStorage: NotesStorage = {
  get: (key) => readStoredValue(key as Key),
  set: (values) =>
    storage.setItems(Object.entries(values).map(([key, value]) => ({ key: key as Key, value }))),
  remove: (keys) => storage.removeItems(keys as Key[]),
  watch: (key, callback) => storage.watch(key as Key, callback),
};

/**
 * The identities of this browser's accounts. Loaded when first asked (the records reached their
 * bound): the popup reads records on every opening and needs none of the accounts' module for it.
 */
async function identitiesOfAccountsHere(): Promise<ReadonlySet<string>> {
  const { readAccounts } = await import('@/lib/accounts/store');
  const { accounts } = await readAccounts();
  return new Set(await Promise.all(accounts.map(async (account) => (await accountIdentity(account)).id)));
}

/** The store every page and the worker use. */
export const notes = createNotesStore({
  storage: browserNotesStorage,
  exclusively,
  accountsHere: identitiesOfAccountsHere,
});
