/**
 * What this browser remembers about the list entries it added: when, from which surface, on which
 * page (its host only), and the user's note. One storage key per account (`local:listNotes:<id>`,
 * so the popup reads only the configured account's), holding `{ v, entries }`; the version lives
 * in the value, so a reader needs one storage round trip and no version record.
 *
 * Bounded: at most MAX_ENTRIES_PER_ACCOUNT entries per account (the oldest entry without a note
 * goes first, then the oldest of all), notes of at most NOTE_MAX_CHARS characters, and at most
 * MAX_ACCOUNTS accounts, the accounts this browser can hold (lib/settings/storage.ts), so no
 * account's notes go while it is kept; past that the one written longest ago goes. Worst case well
 * under the backup's size limit (lib/settings/backup.ts).
 */
import * as z from 'zod/mini';
import { CHANGE_SOURCES, pageHostSchema } from '@/lib/messaging/protocol';

export const NOTES_VERSION = 1;
export const MAX_ENTRIES_PER_ACCOUNT = 300;
export const NOTE_MAX_CHARS = 200;

export const notesKeyOf = (account: string) => `local:listNotes:${account}` as const;
/** The accounts that have notes, with when each was last written: for backups and the account bound. */
export const NOTES_ACCOUNTS_KEY = 'local:listNotesAccounts' as const;

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

export const notesAccountsSchema = z.lazy(() =>
  z.record(z.string().check(z.minLength(1), z.maxLength(2100)), z.number()),
);

export const EMPTY_NOTES: AccountNotes = { v: NOTES_VERSION, entries: [] };

/**
 * Upgrades a stored value of an older version, one step at a time (key: the version it produces).
 * Version 1 is the first; a later version adds its step here and a fixture in
 * tests/fixtures/notes/.
 */
const MIGRATIONS: Record<number, (old: Record<string, unknown>) => Record<string, unknown>> = {};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A stored value in the current shape. Nothing stored, a damaged value or one of a version this
 * release does not know (written by a newer one) reads as no notes: notes are never worth a
 * broken page.
 */
export function parseAccountNotes(raw: unknown): AccountNotes {
  if (!isRecord(raw) || typeof raw.v !== 'number') return EMPTY_NOTES;
  let value = raw;
  for (let version = raw.v + 1; version <= NOTES_VERSION; version++) {
    const step = MIGRATIONS[version];
    if (!step) return EMPTY_NOTES;
    value = { ...step(value), v: version };
  }
  const parsed = accountNotesSchema.safeParse(value);
  return parsed.success ? parsed.data : EMPTY_NOTES;
}

/**
 * Like `parseAccountNotes`, keeping only the entries whose domain `keep` accepts, and checking
 * only those: the popup needs the few entries that can decide its verdict, not all of them.
 */
export function parseSomeAccountNotes(raw: unknown, keep: (domain: string) => boolean): AccountNotes {
  if (!isRecord(raw) || raw.v !== NOTES_VERSION || !Array.isArray(raw.entries)) {
    const all = parseAccountNotes(raw);
    return { ...all, entries: all.entries.filter((entry) => keep(entry.domain)) };
  }
  const some = raw.entries.filter(
    (entry) => isRecord(entry) && typeof entry.domain === 'string' && keep(entry.domain),
  );
  return parseAccountNotes({ v: NOTES_VERSION, entries: some });
}

export function parseNotesAccounts(raw: unknown): Record<string, number> {
  const parsed = notesAccountsSchema.safeParse(raw);
  return parsed.success ? parsed.data : {};
}

/** Which record an entry is: its scope, list and domain. */
export interface EntryAddress {
  scope: string;
  list: 'whitelist' | 'blocklist';
  domain: string;
}

export const sameEntry = (a: EntryAddress, b: EntryAddress) =>
  a.scope === b.scope && a.list === b.list && a.domain === b.domain;

/** The record of an entry, if this browser keeps one. */
export function recordOf(notes: AccountNotes, address: EntryAddress): EntryRecord | undefined {
  return notes.entries.find((entry) => sameEntry(entry, address));
}

/**
 * Keeps at most `max` records: first the oldest without a note go (they only say where an entry
 * came from), then, if notes alone exceed the bound, the oldest notes.
 */
export function withinBound(entries: readonly EntryRecord[], max = MAX_ENTRIES_PER_ACCOUNT): EntryRecord[] {
  if (entries.length <= max) return [...entries];
  const byAge = [...entries].sort((a, b) => a.at - b.at);
  const dropped = new Set<EntryRecord>();
  let excess = entries.length - max;
  for (const entry of byAge) {
    if (excess === 0) break;
    if (entry.note === undefined) {
      dropped.add(entry);
      excess--;
    }
  }
  for (const entry of byAge) {
    if (excess === 0) break;
    if (!dropped.has(entry)) {
      dropped.add(entry);
      excess--;
    }
  }
  return entries.filter((entry) => !dropped.has(entry));
}

/** A note as stored: trimmed, cut to NOTE_MAX_CHARS, no control characters; undefined when empty. */
export function cleanNote(text: string): string | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
  const cleaned = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  if (cleaned === '') return undefined;
  if (cleaned.length <= NOTE_MAX_CHARS) return cleaned;
  // Never cut a character in half (a surrogate pair counts two).
  const cut = cleaned.slice(0, NOTE_MAX_CHARS);
  return (/[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut).trim();
}
