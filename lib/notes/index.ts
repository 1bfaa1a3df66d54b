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
import { accountIdentity } from '@/lib/identity/identity';
import { exclusively } from '@/lib/outbox/lease';
import { localName, readRaw, removeRaw, watchRaw, writeLocalKeys } from '@/lib/settings/item';
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

/** storage.local; reads take the popup's early answers when there are any (lib/settings/item.ts). */
export const browserNotesStorage: NotesStorage = {
  get: async (key) => (await readRaw('local', [localName(key)]))[localName(key)] ?? null,
  set: writeLocalKeys,
  remove: (keys) => removeRaw('local', keys.map(localName)),
  watch: (key, callback) => watchRaw('local', localName(key), callback),
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
