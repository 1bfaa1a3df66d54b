/**
 * Reading and writing the entry records of lib/notes/schema.ts. Every write is a
 * read-modify-write under one lock (`exclusively('notes')`), so the worker (outbox) and the
 * options page (direct edits, notes) never overwrite each other's changes.
 */
import { otherList } from '@/lib/cache/list-changes';
import type { ChangeSource } from '@/lib/messaging/protocol';
import { MAX_ACCOUNTS } from '@/lib/settings/storage';
import {
  type AccountNotes,
  cleanNote,
  EMPTY_NOTES,
  type EntryAddress,
  type EntryRecord,
  NOTES_ACCOUNTS_KEY,
  NOTES_VERSION,
  notesKeyOf,
  sameEntry,
  withinBound,
} from './entries';
import { accountNotes } from './shapes';

/** The schemas, loaded when a value must be checked or written (./schema.ts). */
const loadSchema = () => import('./schema');

/** The part of storage.local the notes use (WXT keys with the `local:` prefix). */
export interface NotesStorage {
  get(key: string): Promise<unknown>;
  set(values: Record<string, unknown>): Promise<void>;
  remove(keys: string[]): Promise<void>;
  /** Calls back with the new raw value of `key`; returns the unwatch function. */
  watch(key: string, callback: (raw: unknown) => void): () => void;
}

export interface NotesDeps {
  storage: NotesStorage;
  now?: () => number;
  /** Runs `fn` alone among the extension's pages and worker (lib/outbox/lease.ts `exclusively`). */
  exclusively: <T>(name: string, fn: () => Promise<T>) => Promise<T>;
  /**
   * The identities of this browser's accounts (lib/accounts), asked only when the records reach
   * their bound of accounts: those of any other identity (a backup's, an earlier key's) give way
   * to them.
   */
  accountsHere: () => Promise<ReadonlySet<string>>;
}

/** An entry just added from this browser. */
export interface Addition extends EntryAddress {
  source: ChangeSource;
  /** The host of the page it was added on. */
  page?: string | undefined;
}

export type NotesByAccount = Record<string, EntryRecord[]>;

export function createNotesStore(deps: NotesDeps) {
  const now = deps.now ?? Date.now;

  /**
   * A stored value in the current shape as it is (./shapes.ts, no zod); anything else through
   * `parseAccountNotes`, which upgrades older versions and reads a damaged value as no notes.
   */
  async function checkNotes(raw: unknown): Promise<AccountNotes> {
    if (raw === null || raw === undefined) return EMPTY_NOTES;
    if (accountNotes(raw)) return raw as AccountNotes;
    return (await loadSchema()).parseAccountNotes(raw);
  }

  const read = async (account: string): Promise<AccountNotes> =>
    checkNotes(await deps.storage.get(notesKeyOf(account)));

  const readAccounts = async (): Promise<Record<string, number>> =>
    (await loadSchema()).parseNotesAccounts(await deps.storage.get(NOTES_ACCOUNTS_KEY));

  /**
   * The identities whose records go when there are more than the bound (`touched`: when each was
   * last written). The records of this browser's accounts are kept first, so records of another
   * identity (a backup's, an earlier key's) are kept only while there is room and never push
   * an account's out; within each group, the one written longest ago goes first.
   */
  async function pastTheBound(touched: Record<string, number>): Promise<string[]> {
    if (Object.keys(touched).length <= MAX_ACCOUNTS) return [];
    const here = await deps.accountsHere();
    const isHere = (id: string) => (here.has(id) ? 1 : 0);
    return Object.entries(touched)
      .sort(([idA, a], [idB, b]) => isHere(idB) - isHere(idA) || b - a)
      .slice(MAX_ACCOUNTS)
      .map(([id]) => id);
  }

  /** Changes one account's records; drops the account's key when none is left. */
  function update(account: string, change: (entries: EntryRecord[]) => EntryRecord[]): Promise<void> {
    return deps.exclusively('notes', async () => {
      const before = (await read(account)).entries;
      // Checked before anything is written: a bad value (a whole address as the page) changes nothing.
      const after = (await loadSchema()).accountNotesSchema.parse({
        v: NOTES_VERSION,
        entries: withinBound(change([...before])),
      }).entries;
      if (JSON.stringify(after) === JSON.stringify(before)) return;
      const accounts = await readAccounts();
      const key = notesKeyOf(account);
      if (after.length === 0) {
        const { [account]: _gone, ...rest } = accounts;
        await deps.storage.remove([key]);
        await deps.storage.set({ [NOTES_ACCOUNTS_KEY]: rest });
        return;
      }
      const touched = { ...accounts, [account]: now() };
      const evicted = await pastTheBound(touched);
      for (const id of evicted) delete touched[id];
      // The account list first: a key it does not name would be left out of backups.
      await deps.storage.set({ [NOTES_ACCOUNTS_KEY]: touched });
      if (!evicted.includes(account)) {
        await deps.storage.set({ [key]: { v: NOTES_VERSION, entries: after } satisfies AccountNotes });
      }
      if (evicted.length > 0) await deps.storage.remove(evicted.map(notesKeyOf));
    });
  }

  return {
    read,
    /**
     * The account's records of the domains `keep` accepts (given when known: the storage read
     * starts at once).
     */
    async readSome(
      account: string,
      keep: ((domain: string) => boolean) | Promise<(domain: string) => boolean>,
    ): Promise<AccountNotes> {
      const [all, accept] = await Promise.all([read(account), keep]);
      return { ...all, entries: all.entries.filter((entry) => accept(entry.domain)) };
    },
    /** Calls back with the account's records whenever they change; returns the unwatch function. */
    follow(account: string, callback: (notes: AccountNotes) => void): () => void {
      // In the order the changes came: a value that needs its schema loaded is never overtaken
      // by a later one in the current shape.
      let last: Promise<unknown> = Promise.resolve();
      return deps.storage.watch(notesKeyOf(account), (raw) => {
        const checked = checkNotes(raw);
        last = Promise.all([checked, last.catch(() => undefined)]).then(([value]) => callback(value));
      });
    },

    /**
     * Records entries added from this browser. The domain leaves the other list of the scope
     * (the lists are kept exclusive), so that list's record goes. A note the entry already had
     * on the same list stays.
     */
    recordAdded(account: string, additions: readonly Addition[]): Promise<void> {
      if (additions.length === 0) return Promise.resolve();
      return update(account, (entries) => {
        let result = entries;
        for (const addition of additions) {
          const other = { ...addition, list: otherList(addition.list) };
          const earlier = result.find((entry) => sameEntry(entry, addition));
          result = result.filter((entry) => !sameEntry(entry, addition) && !sameEntry(entry, other));
          const { scope, list, domain, source, page } = addition;
          result.push({
            scope,
            list,
            domain,
            addedAt: now(),
            source,
            ...(page === undefined ? {} : { page }),
            ...(earlier?.note === undefined ? {} : { note: earlier.note }),
            at: now(),
          });
        }
        return result;
      });
    },

    /**
     * Puts back the record an entry had before it was removed (Undo of a removal re-adds it): when
     * and from where it was first added, and its note, in place of the record its re-addition made.
     */
    restore(account: string, record: EntryRecord): Promise<void> {
      return update(account, (entries) => [
        ...entries.filter((entry) => !sameEntry(entry, record)),
        { ...record, at: now() },
      ]);
    },

    /** Forgets the records of entries removed from their lists. */
    forget(account: string, addresses: readonly EntryAddress[]): Promise<void> {
      if (addresses.length === 0) return Promise.resolve();
      return update(account, (entries) =>
        entries.filter((entry) => !addresses.some((address) => sameEntry(entry, address))),
      );
    },

    /**
     * Writes, changes or clears an entry's note. An entry added elsewhere gets a record for its
     * note alone; clearing that note forgets it.
     */
    setNote(account: string, address: EntryAddress, text: string): Promise<void> {
      const note = cleanNote(text);
      return update(account, (entries) => {
        const earlier = entries.find((entry) => sameEntry(entry, address));
        const rest = entries.filter((entry) => !sameEntry(entry, address));
        if (earlier?.note === note && earlier !== undefined) return entries;
        if (note === undefined) {
          if (earlier?.source === undefined) return rest;
          const { note: _cleared, ...kept } = earlier;
          return [...rest, { ...kept, at: now() }];
        }
        const { scope, list, domain } = address;
        const base: EntryRecord = earlier ?? { scope, list, domain, at: 0 };
        return [...rest, { ...base, note, at: now() }];
      });
    },

    /** Every account's records, for a backup. */
    async exportAll(): Promise<NotesByAccount> {
      const accounts = Object.keys(await readAccounts());
      const result: NotesByAccount = {};
      for (const account of accounts) {
        const { entries } = await read(account);
        if (entries.length > 0) result[account] = entries;
      }
      return result;
    },

    /**
     * Takes the records of a backup: per entry, the one written last wins; a note is never lost
     * to a record without one, nor the page of the same addition to a file made without pages.
     */
    async importAll(incoming: NotesByAccount): Promise<void> {
      for (const [account, records] of Object.entries(incoming)) {
        await update(account, (entries) => {
          const merged = [...entries];
          for (const record of records) {
            const index = merged.findIndex((entry) => sameEntry(entry, record));
            const mine = index === -1 ? undefined : merged[index];
            if (mine === undefined) {
              merged.push(record);
              continue;
            }
            const [newer, older] = record.at > mine.at ? [record, mine] : [mine, record];
            const note = newer.note ?? older.note;
            const sameAddition = newer.addedAt === older.addedAt && newer.source === older.source;
            const page = newer.page ?? (sameAddition ? older.page : undefined);
            merged[index] = {
              ...newer,
              ...(note === undefined ? {} : { note }),
              ...(page === undefined ? {} : { page }),
            };
          }
          return merged;
        });
      }
    },
  };
}

export type NotesStore = ReturnType<typeof createNotesStore>;

/** One account's records as a page uses them (the options page's list views). */
export interface AccountNotesAccess {
  read(): Promise<AccountNotes>;
  follow(callback: (notes: AccountNotes) => void): () => void;
  setNote(address: EntryAddress, text: string): Promise<void>;
}

export function notesAccessFor(store: NotesStore, account: string): AccountNotesAccess {
  return {
    read: () => store.read(account),
    follow: (callback) => store.follow(account, callback),
    setNote: (address, text) => store.setNote(account, address, text),
  };
}
