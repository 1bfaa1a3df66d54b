/**
 * What changed, and who changed it (docs/history.md, "What changed"): the lines between each
 * snapshot and the one before, each marked as made from this browser, with its surface, page and
 * note (the journal of this browser's changes, ./journal.ts, with the settled log of lib/outbox
 * and the records of lib/notes for what came before it), or as made elsewhere (the dashboard,
 * another browser). A schedule's category or default block, sent through the outbox, is this
 * browser's too, marked as a schedule's. Pure: the page reads the records and passes them.
 */
import { categoryLabel } from '@/lib/api/categories';
import { scopeKey, scopeOf } from '@/lib/api/forms';
import type { ApiForm } from '@/lib/api/types';
import { t } from '@/lib/i18n';
import { CHANGE_SOURCES, type ChangeSource } from '@/lib/messaging/protocol';
import { carriesListChange } from '@/lib/messaging/queued-change';
import type { EntryRecord } from '@/lib/notes';
import { sourceName } from '@/lib/notes/describe';
import type { SettledChange } from '@/lib/settings/storage';
import type { DiffLine } from './diff';
import { type JournalEntry, journalKey } from './journal';
import { parseNetworkEntry, type SectionKind } from './model';
import type { RollbackStep } from './rollback';
import type { SnapshotChanges } from './store';

export interface Attribution {
  /** From this browser: the surface it was made on (popup, menu, …, `rollback`). */
  surface: string;
  /** The host of the page it was made on. */
  page?: string;
}

export interface ChangeRow extends DiffLine {
  /** The snapshot that first held it, and when that was taken. */
  snapshotId: string;
  takenAt: number;
  /** Undefined: made elsewhere. */
  madeHere?: Attribution;
  /** The user's note on the entry, kept by lib/notes. */
  note?: string;
}

export interface Records {
  form: ApiForm;
  /** This browser's changes, oldest first (./journal.ts). */
  journal: readonly JournalEntry[];
  settled: readonly SettledChange[];
  notes: readonly EntryRecord[];
  /** Rollbacks of this browser: when they ran and the calls they made. */
  rollbacks: readonly { from: number; to: number; steps: readonly RollbackStep[] }[];
}

const madeOn = (surface: string, page: string | undefined): Attribution =>
  page === undefined ? { surface } : { surface, page };

const isList = (kind: SectionKind): kind is 'whitelist' | 'blocklist' =>
  kind === 'whitelist' || kind === 'blocklist';

/** Rows of every change, newest snapshot first, each with who made it as far as this browser knows. */
export function attributeChanges(changes: readonly SnapshotChanges[], records: Records): ChangeRow[] {
  const rows: ChangeRow[] = [];
  const { form } = records;
  // Oldest first, so each change's span starts at the snapshot before it.
  const spans = [...changes].reverse();
  const spanStart = new Map<string, number>();
  let previous = Number.NEGATIVE_INFINITY;
  for (const change of spans) {
    spanStart.set(change.id, previous);
    previous = change.takenAt;
  }
  // Looked up by key: 90 days of a large account are hundreds of thousands of lines.
  const entryKey = (kind: string, scope: string, entry: string) => `${kind}\t${scope}\t${entry}`;
  const notesByEntry = new Map(
    records.notes.map((note) => [entryKey(note.list, note.scope, note.domain), note] as const),
  );
  const journalByChange = new Map<string, JournalEntry[]>();
  for (const made of records.journal) {
    const key = journalKey(made);
    const same = journalByChange.get(key);
    if (same === undefined) journalByChange.set(key, [made]);
    else same.push(made);
  }
  const rollbackSteps = records.rollbacks.map((rollback) => ({
    ...rollback,
    keys: new Set(rollback.steps.map(journalKey)),
  }));
  for (const change of changes) {
    const from = spanStart.get(change.id) ?? Number.NEGATIVE_INFINITY;
    const within = (at: number) => at > from && at <= change.takenAt;
    const rollbacks = rollbackSteps.filter(
      (rollback) => rollback.to > from && rollback.from <= change.takenAt,
    );
    const settledHere = records.settled.filter((entry) => entry.state === 'delivered' && within(entry.at));
    const listsSettledHere = settledHere.filter(carriesListChange);
    for (const line of change.lines) {
      const row: ChangeRow = { ...line, snapshotId: change.id, takenAt: change.takenAt };
      const op = line.change === 'added' ? 'add' : 'remove';
      const journaled = journalByChange
        .get(
          journalKey({
            ...line,
            // A network is journaled by its address: a removal names no label.
            entry: line.kind === 'networks' ? parseNetworkEntry(line.entry).ip : line.entry,
            op,
          }),
        )
        ?.findLast((made) => within(made.at));
      if (journaled !== undefined) {
        row.madeHere = madeOn(journaled.surface, journaled.page);
      }
      if (isList(line.kind)) {
        // Before the journal (an earlier version): the settled log, and the notes for additions.
        const settled =
          row.madeHere === undefined
            ? listsSettledHere.find(
                (entry) =>
                  entry.change.op === op &&
                  entry.change.list === line.kind &&
                  entry.change.domain === line.entry &&
                  scopeOf(form, entry.change.profile) === line.scope,
              )
            : undefined;
        const note = notesByEntry.get(entryKey(line.kind, scopeKey(form, line.scope), line.entry));
        if (settled !== undefined) {
          row.madeHere = madeOn(settled.change.source, settled.change.page);
        } else if (
          row.madeHere === undefined &&
          line.change === 'added' &&
          note?.source !== undefined &&
          note.addedAt !== undefined &&
          within(note.addedAt)
        ) {
          row.madeHere = madeOn(note.source, note.page);
        }
        if (note?.note !== undefined) row.note = note.note;
      } else if (row.madeHere === undefined) {
        // A category or default block the outbox set (a schedule's): its change in the settled log.
        const on = line.change === 'added';
        const settled = settledHere.find(
          ({ change }) =>
            scopeOf(form, change.profile) === line.scope &&
            ((line.kind === 'categories' &&
              change.op === 'set-category' &&
              change.category === line.entry &&
              change.blocked === on) ||
              (line.kind === 'defaultBlock' && change.op === 'set-default-block' && change.enabled === on)),
        );
        if (settled !== undefined) row.madeHere = { surface: settled.change.source };
      }
      const stepKey = journalKey({ ...line, op });
      if (row.madeHere === undefined && rollbacks.some((rollback) => rollback.keys.has(stepKey))) {
        row.madeHere = { surface: 'rollback' };
      }
      rows.push(row);
    }
  }
  return rows;
}

export interface ChangeFilter {
  /** Empty: every profile. */
  profile: string;
  /** Empty: every kind. */
  kind: SectionKind | '';
  /** Words to find in the entry, page or note (case-insensitive). */
  text: string;
  /** Only changes made here, made elsewhere, or both. */
  origin: 'all' | 'here' | 'elsewhere';
}

export const NO_FILTER: ChangeFilter = { profile: '', kind: '', text: '', origin: 'all' };

export function filterChanges(rows: readonly ChangeRow[], filter: ChangeFilter): ChangeRow[] {
  const words = filter.text.trim().toLowerCase();
  return rows.filter(
    (row) =>
      (filter.profile === '' ||
        row.scope === filter.profile ||
        (row.kind === 'profiles' && row.entry === filter.profile)) &&
      (filter.kind === '' || row.kind === filter.kind) &&
      (filter.origin === 'all' || (filter.origin === 'here') === (row.madeHere !== undefined)) &&
      (words === '' ||
        [row.entry, entryText(row.kind, row.entry), row.madeHere?.page ?? '', row.note ?? ''].some((field) =>
          field.toLowerCase().includes(words),
        )),
  );
}

/** A CSV field: quoted when needed, and never read as a formula by a spreadsheet. */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * The rows as CSV, newest first. Built from the rows alone: nothing of the connection (the key,
 * the service's address) is in them to leak.
 */
export function changesCsv(rows: readonly ChangeRow[], header: readonly string[]): string {
  const lines = [header.map(csvField).join(',')];
  for (const row of rows) {
    lines.push(
      [
        new Date(row.takenAt).toISOString(),
        row.scope,
        row.kind,
        row.change,
        row.entry,
        row.madeHere === undefined ? 'elsewhere' : 'this browser',
        row.madeHere?.surface ?? '',
        row.madeHere?.page ?? '',
        row.note ?? '',
      ]
        .map(csvField)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

const isChangeSource = (surface: string): surface is ChangeSource =>
  (CHANGE_SOURCES as readonly string[]).includes(surface);

/** An entry as a user reads it: a category by its name, never by the service's id. */
export function entryText(kind: SectionKind, entry: string): string {
  return kind === 'categories' ? categoryLabel(entry) : entry;
}

/**
 * Whether a kind's entries are domain names (a list's domain, a blocked TLD), shown so they wrap
 * only after their dots; a category, a network or a profile is a name of its own.
 */
export function isDomainKind(kind: SectionKind): boolean {
  return kind === 'whitelist' || kind === 'blocklist' || kind === 'tlds';
}

/** Who made a row, in words: "this browser, from the popup on news.example", or "elsewhere". */
export function madeByText(row: ChangeRow): string {
  const made = row.madeHere;
  if (made === undefined) return t('history.madeElsewhere');
  const surface =
    made.surface === 'rollback'
      ? t('history.surfaceRollback')
      : isChangeSource(made.surface)
        ? sourceName(made.surface)
        : made.surface;
  return made.page === undefined
    ? t('history.madeHere', { surface })
    : t('history.madeHereOnPage', { surface, page: made.page });
}
