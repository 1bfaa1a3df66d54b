/**
 * The records and notes in the settings backup (lib/backup/): every account's, as one
 * setting. Importing merges with what this browser has (`importAll`: per entry, the record written
 * last wins and a note is never lost), within the same bounds as ever: records of identities that
 * are no account of this browser are kept only while there is room, never in place of an account's.
 */
import * as z from 'zod/mini';
import type { StoredItem } from '@/lib/settings/item';
import { accountIdSchema } from '@/lib/settings/schemas';
import { MAX_ENTRIES_PER_ACCOUNT } from './entries';
import { entryRecordSchema } from './schema';
import type { NotesByAccount, NotesStore } from './store';

export const notesBackupSchema = z.lazy(() =>
  z.record(accountIdSchema, z.array(entryRecordSchema).check(z.maxLength(MAX_ENTRIES_PER_ACCOUNT))),
);

/** The backup's view of the records: reads every account's, writes by merging. */
export function notesBackupItem(
  store: NotesStore,
): Pick<StoredItem<NotesByAccount>, 'getValue' | 'setValue'> {
  return {
    getValue: () => store.exportAll(),
    setValue: (value) => store.importAll(notesBackupSchema.parse(value)),
  };
}
