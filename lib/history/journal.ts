/**
 * The journal of this browser's changes at the service (docs/history.md, "Who made it"): every
 * change this browser made, from any surface, kept as long as the history's retention and within
 * JOURNAL_KEPT entries and JOURNAL_BUDGET characters per account, so "What changed" can say which
 * changes were made here long after the outbox's short settled log has moved on.
 * An entry is the change as a snapshot sees it (./model.ts, `JournalEntry` below).
 */
import * as z from 'zod/mini';
import { scopeOf } from '@/lib/api/forms';
import type { DnsFilterApi } from '@/lib/api/types';
import type { ListChange, SettingChange } from '@/lib/messaging/protocol';
import { DEFAULT_BLOCK_ON, SECTION_KINDS, type SectionKind, sectionKey } from './model';
import { DAY_MS, type HistoryDeps } from './store';

export const JOURNAL_VERSION = 1;

/**
 * Entries kept per account at most: a few thousand, more than a person makes by hand within the
 * default retention; a bulk add of more lines pushes the oldest out (docs/history.md, "Limits").
 */
export const JOURNAL_KEPT = 5000;

/**
 * Characters stored per account at most, whatever the entries hold: JOURNAL_KEPT entries of
 * ordinary domains and pages take under two thirds of it (docs/history.md, "Limits", measured
 * there); entries of the longest names allowed stop at it, the oldest going first.
 */
export const JOURNAL_BUDGET = 768 * 1024;

export const journalKeyOf = (account: string) => `local:historyJournal:${account}` as const;

/** The surface a change was made on: an outbox source (lib/messaging/protocol.ts), or `rollback`. */
const surfaceSchema = z.string().check(z.regex(/^[a-z][a-z-]{0,31}$/));

/** `[at, kind, scope, entry, op, surface, page]`: a tuple, so thousands of them stay small. */
const storedEntrySchema = z.tuple([
  z.number(),
  z.enum(SECTION_KINDS),
  z.string(),
  z.string(),
  z.enum(['add', 'remove']),
  surfaceSchema,
  /** The page's host, or empty. */
  z.string(),
]);
type StoredEntry = z.infer<typeof storedEntrySchema>;

const journalSchema = z.object({
  v: z.literal(JOURNAL_VERSION),
  /** Oldest first. */
  entries: z.array(z.unknown()),
});

export interface JournalEntry {
  at: number;
  kind: SectionKind;
  /** The snapshot's scope: a profile (Form A), `account` (Form B), empty for the profile list. */
  scope: string;
  /** A domain, a category id, a TLD, a profile name, `on` for default block, a network's address. */
  entry: string;
  /** `add`: put on (added, blocked, turned on); `remove`: taken off. */
  op: 'add' | 'remove';
  surface: string;
  page?: string;
}

/** A change before it is dated and signed with its surface. */
export type JournalChange = Pick<JournalEntry, 'kind' | 'scope' | 'entry' | 'op'>;

const toStored = (entry: JournalEntry): StoredEntry => [
  entry.at,
  entry.kind,
  entry.scope,
  entry.entry,
  entry.op,
  entry.surface,
  entry.page ?? '',
];

const fromStored = ([at, kind, scope, entry, op, surface, page]: StoredEntry): JournalEntry => ({
  at,
  kind,
  scope,
  entry,
  op,
  surface,
  ...(page === '' ? {} : { page }),
});

/** The readable entries of a stored journal, oldest first; anything unreadable is left out. */
function readEntries(raw: unknown): StoredEntry[] {
  const parsed = journalSchema.safeParse(raw);
  if (!parsed.success) return [];
  const entries: StoredEntry[] = [];
  for (const candidate of parsed.data.entries) {
    const entry = storedEntrySchema.safeParse(candidate);
    if (entry.success) entries.push(entry.data);
  }
  return entries;
}

/** Characters one stored entry takes (its JSON and the comma before it). */
const sizeOf = (entry: StoredEntry) => JSON.stringify(entry).length + 1;

/**
 * The entries kept: none older than the retention, at most JOURNAL_KEPT, and at most `budget`
 * characters; the newest stay.
 */
export function keptEntries(
  entries: readonly StoredEntry[],
  oldestKept: number,
  limits: { kept: number; budget: number },
): StoredEntry[] {
  const kept: StoredEntry[] = [];
  let size = JSON.stringify({ v: JOURNAL_VERSION, entries: [] }).length;
  for (let index = entries.length - 1; index >= 0 && kept.length < limits.kept; index--) {
    const entry = entries[index]!;
    if (entry[0] < oldestKept) continue;
    size += sizeOf(entry);
    if (size > limits.budget) break;
    kept.push(entry);
  }
  return kept.reverse();
}

export interface JournalDeps extends Pick<HistoryDeps, 'storage' | 'exclusively' | 'withRoom'> {
  /** The history's retention (./schema.ts `historySettingsSchema`): entries older than it go. */
  retentionDays: () => Promise<number>;
  now?: () => number;
  kept?: number;
  budget?: number;
}

export function createJournal(deps: JournalDeps) {
  const now = deps.now ?? Date.now;
  const limits = { kept: deps.kept ?? JOURNAL_KEPT, budget: deps.budget ?? JOURNAL_BUDGET };
  /**
   * Entries waiting for the next write, per account. A bulk add records hundreds of changes in a
   * row: those that come while one write runs go together in the next, so the journal is not
   * rewritten once per line.
   */
  const waiting = new Map<string, { entries: StoredEntry[]; written: Promise<void> }>();

  async function write(account: string, fresh: readonly StoredEntry[]): Promise<void> {
    const key = journalKeyOf(account);
    const stored = readEntries((await deps.storage.get([key]))[key]);
    const oldestKept = now() - (await deps.retentionDays()) * DAY_MS;
    const entries = keptEntries([...stored, ...fresh], oldestKept, limits);
    await deps.withRoom(() => deps.storage.set({ [key]: { v: JOURNAL_VERSION, entries } }));
  }

  return {
    /**
     * Records changes this browser made for `account`. Resolves once they are stored; rejects
     * with the storage's error (callers treat the record as best effort: a change is never
     * undone or refused for its record).
     */
    record(account: string, changes: readonly JournalEntry[]): Promise<void> {
      if (changes.length === 0) return Promise.resolve();
      const open = waiting.get(account);
      if (open !== undefined) {
        open.entries.push(...changes.map(toStored));
        return open.written;
      }
      const batch = { entries: changes.map(toStored), written: Promise.resolve() };
      waiting.set(account, batch);
      batch.written = deps.exclusively(`history-journal:${account}`, async () => {
        // From here on, new entries wait for the next write.
        if (waiting.get(account) === batch) waiting.delete(account);
        await write(account, batch.entries);
      });
      return batch.written;
    },

    /** The account's entries, oldest first. */
    async read(account: string): Promise<JournalEntry[]> {
      const key = journalKeyOf(account);
      return readEntries((await deps.storage.get([key]))[key]).map(fromStored);
    },

    /** Removes the account's journal (the account is removed). */
    forget(account: string): Promise<void> {
      return deps.storage.remove([journalKeyOf(account)]);
    },
  };
}

export type Journal = ReturnType<typeof createJournal>;

/** A union's members each without `Key`. */
type DistributiveOmit<T, Key extends PropertyKey> = T extends unknown ? Omit<T, Key> : never;

/** What a setting change (a category or default block, from the outbox or the options page) is in the snapshot. */
export function settingChangeInJournal(
  form: DnsFilterApi['form'],
  change: DistributiveOmit<SettingChange, 'source'>,
): JournalChange {
  const scope = scopeOf(form, change.profile);
  return change.op === 'set-category'
    ? { kind: 'categories', scope, entry: change.category, op: change.blocked ? 'add' : 'remove' }
    : { kind: 'defaultBlock', scope, entry: DEFAULT_BLOCK_ON, op: change.enabled ? 'add' : 'remove' };
}

/** What a list change does as the snapshot sees it; an addition also takes it off the other list. */
export function listChangeInJournal(
  form: DnsFilterApi['form'],
  change: Pick<ListChange, 'op' | 'list' | 'domain' | 'profile'>,
): JournalChange[] {
  const scope = scopeOf(form, change.profile);
  const made: JournalChange = { kind: change.list, scope, entry: change.domain, op: change.op };
  if (change.op === 'remove') return [made];
  // Lists are kept exclusive (docs/service-api.md): adding removes it from the other one first.
  const other = change.list === 'whitelist' ? 'blocklist' : 'whitelist';
  return [made, { kind: other, scope, entry: change.domain, op: 'remove' }];
}

/** The journal's key of a change: networks by their address alone (a removal names no label). */
export const journalKey = (change: JournalChange): string =>
  `${sectionKey(change.kind, change.scope)}\t${change.entry}\t${change.op}`;

/**
 * The client, recording every change it makes successfully as made from `surface` for `account`
 * (the options page's list views, categories, default block, TLDs, profiles, networks, copying a
 * profile). A failed call records nothing; a record that cannot be stored does not fail the call.
 */
export function journaledClient(
  client: DnsFilterApi,
  account: string,
  surface: string,
  journal: Pick<Journal, 'record'>,
  now: () => number = Date.now,
): DnsFilterApi {
  const { form } = client;
  /** The one change a call makes: `entry` put on (`add`) or taken off a section of `profile`. */
  const one = (kind: SectionKind, entry: string, profile: string | undefined, op: JournalChange['op']) => [
    { kind, scope: scopeOf(form, profile), entry, op },
  ];
  async function recorded(call: Promise<void>, changes: JournalChange[]): Promise<void> {
    await call;
    const at = now();
    await journal
      .record(
        account,
        changes.map((change) => ({ ...change, at, surface })),
      )
      .catch(() => undefined);
  }
  return {
    form,
    listProfiles: (...args) => client.listProfiles(...args),
    addProfile: (...args) =>
      recorded(client.addProfile(...args), [{ kind: 'profiles', scope: '', entry: args[0], op: 'add' }]),
    deleteProfile: (...args) =>
      recorded(client.deleteProfile(...args), [
        { kind: 'profiles', scope: '', entry: args[0], op: 'remove' },
      ]),
    listCategories: (...args) => client.listCategories(...args),
    setCategoryBlocked: (...args) => {
      const [category, blocked, profile] = args;
      return recorded(client.setCategoryBlocked(...args), [
        settingChangeInJournal(form, { op: 'set-category', category, blocked, profile }),
      ]);
    },
    listDomains: (...args) => client.listDomains(...args),
    listDomainsByProfile: (...args) => client.listDomainsByProfile(...args),
    addDomain: (...args) => recorded(client.addDomain(...args), one(args[0], args[1], args[2], 'add')),
    deleteDomain: (...args) =>
      recorded(client.deleteDomain(...args), one(args[0], args[1], args[2], 'remove')),
    blockTld: (...args) => recorded(client.blockTld(...args), one('tlds', args[0], args[1], 'add')),
    setDefaultBlock: (...args) => {
      const [enabled, profile] = args;
      return recorded(client.setDefaultBlock(...args), [
        settingChangeInJournal(form, { op: 'set-default-block', enabled, profile }),
      ]);
    },
    listNetworks: (...args) => client.listNetworks(...args),
    addNetwork: (...args) =>
      recorded(client.addNetwork(...args), one('networks', args[0].ip, args[0].profile, 'add')),
    deleteNetwork: (...args) =>
      recorded(client.deleteNetwork(...args), one('networks', args[0].ip, args[0].profile, 'remove')),
    listLogDays: (...args) => client.listLogDays(...args),
    getStats: (...args) => client.getStats(...args),
    getDump: (...args) => client.getDump(...args),
    deleteLogDay: (...args) => client.deleteLogDay(...args),
  };
}
