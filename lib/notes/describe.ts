/**
 * The records in words: the line under an entry in the list views, the popup's addition to its
 * verdict sentence, and what the list filter matches. Dates in the catalogue's language.
 */
import { type MessageKey, messageLocale, t } from '@/lib/i18n';
import type { ChangeSource } from '@/lib/messaging/protocol';
import type { EntryRecord } from './entries';

/** "3 May" (or "May 3"); with the year when it is not this year's. */
export function entryDate(at: number, now: number = Date.now()): string {
  const date = new Date(at);
  const sameYear = date.getFullYear() === new Date(now).getFullYear();
  return date.toLocaleDateString(messageLocale(), {
    day: 'numeric',
    month: 'short',
    ...(sameYear ? {} : { year: 'numeric' }),
  });
}

/** Each surface's name in the catalogue, completing "from …". */
const SOURCE_NAMES = {
  popup: 'notes.source.popup',
  menu: 'notes.source.menu',
  shortcut: 'notes.source.shortcut',
  'temporary-allow': 'notes.source.temporaryAllow',
  logs: 'notes.source.logs',
  options: 'notes.source.options',
  unbreak: 'notes.source.unbreak',
  schedule: 'notes.source.schedule',
} as const satisfies Record<ChangeSource, MessageKey>;

/** "the right-click menu", completing "from …". */
export function sourceName(source: ChangeSource): string {
  return t(SOURCE_NAMES[source]);
}

/**
 * Where an entry came from, for the line under it: "Added 3 May from the right-click menu on
 * school.example", or "Added elsewhere" for an entry this browser did not add.
 */
export function originLine(record: EntryRecord | undefined, now?: number): string {
  if (record?.source === undefined || record.addedAt === undefined) return t('notes.addedElsewhere');
  const words = { date: entryDate(record.addedAt, now), source: sourceName(record.source) };
  return record.page === undefined
    ? t('notes.added', words)
    : t('notes.addedOnPage', { ...words, page: record.page });
}

/**
 * What the popup adds to the verdict of the entry that decides it: "Since 3 May, from the
 * right-click menu: “school portal”". Null when this browser knows nothing of the entry.
 */
export function verdictAddition(record: EntryRecord | undefined, now?: number): string | null {
  if (record === undefined) return null;
  const note = record.note;
  if (record.source === undefined || record.addedAt === undefined) {
    return note === undefined ? null : t('notes.verdictNoteOnly', { note });
  }
  const words = { date: entryDate(record.addedAt, now), source: sourceName(record.source) };
  return note === undefined
    ? t('notes.verdictSince', words)
    : t('notes.verdictSinceNote', { ...words, note });
}

/** Whether the list filter's text is found in the entry's note, its page or where it came from. */
export function recordMatches(record: EntryRecord | undefined, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (needle === '') return true;
  const words = [record?.note, record?.page, originLine(record)];
  return words.some((text) => text?.toLowerCase().includes(needle) === true);
}
