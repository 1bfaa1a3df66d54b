/**
 * The zod schemas of the notes (./entries.ts says what they are and how they are bounded), and
 * reading a stored value of any version. Loaded only when a value must be written or is not in the
 * current shape (./shapes.ts).
 */
import * as z from 'zod/mini';
import { CHANGE_SOURCES, pageHostSchema } from '@/lib/messaging/protocol';
import { isRecord } from '@/lib/settings/shape';
import { MAX_ENTRIES_PER_ACCOUNT, NOTE_MAX_CHARS, NOTES_VERSION } from './limits';

export const entryRecordSchema = z.lazy(() =>
  z.object({
    /** `scopeKey` of lib/settings/storage.ts: 'A:<profile>' or 'B:account'. */
    scope: z.string().check(z.minLength(1), z.maxLength(300)),
    list: z.enum(['whitelist', 'blocklist']),
    domain: z.string().check(z.minLength(1), z.maxLength(253)),
    /** When the entry was added from this browser; absent for an entry added elsewhere. */
    addedAt: z.optional(z.number()),
    /** The surface it was added from; absent for an entry added elsewhere (it has a note then). */
    source: z.optional(z.enum(CHANGE_SOURCES)),
    /** The host of the page it was added on. */
    page: z.optional(pageHostSchema),
    note: z.optional(z.string().check(z.minLength(1), z.maxLength(NOTE_MAX_CHARS))),
    /** Last time this record was written: which one goes first when the bound is reached. */
    at: z.number(),
  }),
);
export type EntryRecord = z.infer<typeof entryRecordSchema>;

export const accountNotesSchema = z.lazy(() =>
  z.object({
    v: z.literal(NOTES_VERSION),
    entries: z.array(entryRecordSchema).check(z.maxLength(MAX_ENTRIES_PER_ACCOUNT)),
  }),
);
export type AccountNotes = z.infer<typeof accountNotesSchema>;

/** No notes: what a missing, damaged or unknown value reads as. */
const NO_NOTES: AccountNotes = { v: NOTES_VERSION, entries: [] };

export const notesAccountsSchema = z.lazy(() =>
  z.record(z.string().check(z.minLength(1), z.maxLength(2100)), z.number()),
);

/**
 * Upgrades a stored value of an older version, one step at a time (key: the version it produces).
 * Version 1 is the first; a later version adds its step here and a fixture in
 * tests/fixtures/notes/.
 */
const MIGRATIONS: Record<number, (old: Record<string, unknown>) => Record<string, unknown>> = {};

/**
 * A stored value in the current shape. Nothing stored, a damaged value or one of a version this
 * release does not know (written by a newer one) reads as no notes: notes are never worth a
 * broken page.
 */
export function parseAccountNotes(raw: unknown): AccountNotes {
  if (!isRecord(raw) || typeof raw.v !== 'number') return NO_NOTES;
  let value = raw;
  for (let version = raw.v + 1; version <= NOTES_VERSION; version++) {
    const step = MIGRATIONS[version];
    if (!step) return NO_NOTES;
    value = { ...step(value), v: version };
  }
  const parsed = accountNotesSchema.safeParse(value);
  return parsed.success ? parsed.data : NO_NOTES;
}

export function parseNotesAccounts(raw: unknown): Record<string, number> {
  const parsed = notesAccountsSchema.safeParse(raw);
  return parsed.success ? parsed.data : {};
}
