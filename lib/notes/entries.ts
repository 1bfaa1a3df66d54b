/**
 * What this browser remembers about the list entries it added: when, from which surface, on which
 * page (its host only), and the user's note. One storage key per account (`local:listNotes:<id>`,
 * so the popup reads only the configured account's), holding `{ v, entries }`; the version lives
 * in the value, so a reader needs one storage round trip and no version record.
 *
 * Bounded: at most MAX_ENTRIES_PER_ACCOUNT entries per account (the oldest entry without a note
 * goes first, then the oldest of all), notes of at most NOTE_MAX_CHARS characters, and at most
 * MAX_ACCOUNTS accounts, the accounts this browser can hold (lib/settings/storage.ts), so no
 * account's notes go while it is kept: past that, the records of identities that are no account
 * here (a backup's, an earlier key's) go first, then the one written longest ago (./store.ts).
 * Worst case well under the backup's size limit (lib/backup/format.ts).
 */
import { MAX_ENTRIES_PER_ACCOUNT, NOTE_MAX_CHARS, NOTES_VERSION } from './limits';
import type { AccountNotes, EntryRecord } from './schema';

export { MAX_ENTRIES_PER_ACCOUNT, NOTE_MAX_CHARS, NOTES_VERSION } from './limits';

export type { AccountNotes, EntryRecord } from './schema';

/** The notes' name as `storage.local` itself has it (no WXT `local:`): for the popup's first script. */
export const notesStorageNameOf = (account: string) => `listNotes:${account}` as const;
export const notesKeyOf = (account: string) => `local:${notesStorageNameOf(account)}` as const;
/** The accounts that have notes, with when each was last written: for backups and the account bound. */
export const NOTES_ACCOUNTS_KEY = 'local:listNotesAccounts' as const;

export const EMPTY_NOTES: AccountNotes = { v: NOTES_VERSION, entries: [] };

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
  const withoutNote = byAge.filter((entry) => entry.note === undefined);
  const withNote = byAge.filter((entry) => entry.note !== undefined);
  const dropped = new Set([...withoutNote, ...withNote].slice(0, entries.length - max));
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
