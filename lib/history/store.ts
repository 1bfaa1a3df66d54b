/**
 * The stored history of each account (docs/history.md, "Storage" and "Budget"): snapshots as a
 * chain of deltas (./chain.ts), one key per record so a daily snapshot writes only its delta, and
 * a head per account naming them. Writes are read-modify-write under one lock
 * (`exclusively('history')`).
 *
 * Room: history is kept within HISTORY_BUDGET characters per account; past that, and past the
 * retention the user set, the oldest snapshots go first (the newest always stays). A write the
 * browser refuses for quota frees the cached lists first (the caller's `withRoom`), then drops the
 * older half of this account's history and tries once more; settings, keys, notes and queued
 * changes are never touched for history.
 */
import { applyDelta, type ChainRecord, type Delta, deltaBetween, fromChain, sectionsOf } from './chain';
import type { DiffLine } from './diff';
import { parseSectionKey, type Sections, type Snapshot } from './model';
import { pack, unpack } from './packing';
import {
  chainRecordBodySchema,
  HISTORY_VERSION,
  type HistoryHead,
  historyHeadKeyOf,
  historyHeadSchema,
  historyRecordKeyOf,
  storedRecordSchema,
} from './schema';

/**
 * Characters of history per account: 90 days of an account with 2 × 100,000 entries and 1 % daily
 * churn fit (docs/history.md, "Size"). Beside a full list cache that passes Chrome's 10 MB: the
 * cached lists give way first (`withRoom`), then the oldest history.
 */
export const HISTORY_BUDGET = 6 * 1024 * 1024;

export const DAY_MS = 24 * 60 * 60_000;

export interface HistoryStorage {
  get(keys: readonly string[]): Promise<Record<string, unknown>>;
  set(values: Record<string, unknown>): Promise<void>;
  remove(keys: readonly string[]): Promise<void>;
}

export interface HistoryDeps {
  storage: HistoryStorage;
  exclusively: <T>(name: string, fn: () => Promise<T>) => Promise<T>;
  /** Runs a write; refused for quota, frees the cached lists and tries once more (lib/cache/storage-room.ts). */
  withRoom: <T>(write: () => Promise<T>) => Promise<T>;
  isQuotaError: (error: unknown) => boolean;
  newId: () => string;
  now?: () => number;
  budget?: number;
}

export type SnapshotSummary = HistoryHead['records'][number];

export type AddOutcome = { stored: true; id: string } | { stored: false; sameAs: string | null };

/** The changes one snapshot holds against the one before it. */
export interface SnapshotChanges extends Omit<SnapshotSummary, 'size'> {
  lines: DiffLine[];
}

/** The lines of `delta` applied to `before`, as ./diff.ts `diffSections` would give them. */
export function linesOfDelta(before: Sections, delta: Delta): DiffLine[] {
  const lines: DiffLine[] = [];
  const knownOnlyHere = (kind: string) => kind === 'tlds' || kind === 'defaultBlock';
  for (const key of delta.dropped) {
    const parsed = parseSectionKey(key);
    if (parsed === null || knownOnlyHere(parsed.kind)) continue;
    for (const entry of before[key] ?? []) lines.push({ ...parsed, entry, change: 'removed' });
  }
  for (const [key, change] of Object.entries(delta.changed)) {
    const parsed = parseSectionKey(key);
    if (parsed === null || (knownOnlyHere(parsed.kind) && !(key in before))) continue;
    for (const entry of change.remove) lines.push({ ...parsed, entry, change: 'removed' });
    for (const entry of change.add) lines.push({ ...parsed, entry, change: 'added' });
  }
  return lines;
}

const EMPTY_HEAD: HistoryHead = { v: HISTORY_VERSION, records: [] };

export function createHistoryStore(deps: HistoryDeps) {
  const now = deps.now ?? Date.now;
  const budget = deps.budget ?? HISTORY_BUDGET;

  async function readHead(account: string): Promise<HistoryHead> {
    const key = historyHeadKeyOf(account);
    const raw = (await deps.storage.get([key]))[key];
    const parsed = historyHeadSchema.safeParse(raw);
    return parsed.success ? parsed.data : EMPTY_HEAD;
  }

  /** The readable records in order; a damaged one ends the chain (later deltas need it). */
  async function readChain(
    account: string,
    head: HistoryHead,
  ): Promise<{ id: string; record: ChainRecord }[]> {
    const keys = head.records.map((record) => historyRecordKeyOf(account, record.id));
    const raw = keys.length === 0 ? {} : await deps.storage.get(keys);
    const chain: { id: string; record: ChainRecord }[] = [];
    for (const [index, summary] of head.records.entries()) {
      const stored = storedRecordSchema.safeParse(raw[keys[index]!]);
      if (!stored.success) break;
      const body = chainRecordBodySchema.safeParse(await unpack(stored.data.packed).catch(() => null));
      if (!body.success) break;
      if (index === 0 && !('whole' in body.data)) break;
      chain.push({
        id: summary.id,
        record: { takenAt: summary.takenAt, reason: summary.reason, ...body.data },
      });
    }
    return chain;
  }

  async function readSnapshots(account: string): Promise<{ id: string; snapshot: Snapshot }[]> {
    const chain = await readChain(account, await readHead(account));
    const snapshots = fromChain(chain.map(({ record }) => record));
    return snapshots.map((snapshot, index) => ({ id: chain[index]!.id, snapshot }));
  }

  const bodyOf = (record: ChainRecord) =>
    'whole' in record ? { whole: record.whole } : { delta: record.delta };

  /**
   * Writes `kept` (with `fresh`, the ids whose record must be written) as the account's history,
   * then removes the keys of records no longer named.
   */
  async function writeHistory(
    account: string,
    before: HistoryHead,
    kept: { id: string; record: ChainRecord; size: number }[],
    packedById: Map<string, string>,
  ): Promise<void> {
    const head: HistoryHead = {
      v: HISTORY_VERSION,
      records: kept.map(({ id, record, size }) => ({
        id,
        takenAt: record.takenAt,
        reason: record.reason,
        size,
      })),
    };
    const values: Record<string, unknown> = { [historyHeadKeyOf(account)]: head };
    for (const [id, packed] of packedById)
      values[historyRecordKeyOf(account, id)] = { v: HISTORY_VERSION, packed };
    await deps.storage.set(values);
    const named = new Set(kept.map(({ id }) => id));
    const gone = before.records.filter((record) => !named.has(record.id));
    if (gone.length > 0)
      await deps.storage.remove(gone.map((record) => historyRecordKeyOf(account, record.id)));
  }

  return {
    /** The account's snapshots, oldest first, as stored (for the list and the budget). */
    async list(account: string): Promise<SnapshotSummary[]> {
      return (await readHead(account)).records;
    },

    /** Every readable snapshot of the account, oldest first (tests; pages use `snapshotOf`). */
    read: readSnapshots,

    /** One snapshot, rebuilt from the chain without keeping the ones before it; null if gone. */
    async snapshotOf(account: string, id: string): Promise<Snapshot | null> {
      const chain = await readChain(account, await readHead(account));
      let sections: Sections = {};
      for (const { id: recordId, record } of chain) {
        sections = sectionsOf(record, sections);
        if (recordId === id) return { takenAt: record.takenAt, reason: record.reason, sections };
      }
      return null;
    },

    /**
     * What changed between each snapshot and the one before, newest first, straight from the
     * deltas (no snapshot is rebuilt whole twice). A TLD or default-block section this browser
     * knew nothing of before is no change (./diff.ts).
     */
    async changes(account: string): Promise<SnapshotChanges[]> {
      const chain = await readChain(account, await readHead(account));
      let sections: Sections = {};
      const result: SnapshotChanges[] = [];
      for (const { id, record } of chain) {
        if ('whole' in record) {
          sections = record.whole;
          continue;
        }
        result.push({
          id,
          takenAt: record.takenAt,
          reason: record.reason,
          lines: linesOfDelta(sections, record.delta),
        });
        sections = applyDelta(sections, record.delta);
      }
      return result.reverse();
    },

    /**
     * Stores `snapshot` unless it holds the same as the newest one; drops what is past the
     * retention or the budget. Rejects with the storage's error when even the newest alone does
     * not fit.
     */
    add(account: string, snapshot: Snapshot, retentionDays: number): Promise<AddOutcome> {
      return deps.exclusively('history', async () => {
        const head = await readHead(account);
        const chain = await readChain(account, head);
        /** The sections of the `index`th record, rebuilt from the start (only the latest is kept). */
        const sectionsAt = (index: number): Sections => {
          if (index === chain.length) return snapshot.sections;
          return chain
            .slice(0, index + 1)
            .reduce<Sections>((sections, { record }) => sectionsOf(record, sections), {});
        };
        const delta =
          chain.length === 0 ? null : deltaBetween(sectionsAt(chain.length - 1), snapshot.sections);
        const unchanged = chain.length > 0 && delta === null;
        const id = unchanged ? chain.at(-1)!.id : deps.newId();
        const records = [...chain];
        const sizes = new Map(head.records.map((record) => [record.id, record.size]));
        const packed = new Map<string, string>();
        if (!unchanged) {
          const record: ChainRecord = {
            takenAt: snapshot.takenAt,
            reason: snapshot.reason,
            ...(delta === null ? { whole: snapshot.sections } : { delta }),
          };
          records.push({ id, record });
          const body = await pack(bodyOf(record));
          packed.set(id, body);
          sizes.set(id, body.length);
        }
        const outcome: AddOutcome = unchanged ? { stored: false, sameAs: id } : { stored: true, id };

        /** The records from `from` on, the first of them whole (packed again when it was a delta). */
        async function keptFrom(from: number) {
          const kept = records.slice(from).map((entry, index) =>
            index === 0 && from > 0
              ? {
                  id: entry.id,
                  record: {
                    takenAt: entry.record.takenAt,
                    reason: entry.record.reason,
                    whole: sectionsAt(from),
                  },
                }
              : entry,
          );
          const writes = new Map(
            [...packed].filter(([packedId]) => kept.some((entry) => entry.id === packedId)),
          );
          if (from > 0) {
            const first = kept[0]!;
            const body = await pack(bodyOf(first.record));
            writes.set(first.id, body);
            sizes.set(first.id, body.length);
          }
          return { kept: kept.map((entry) => ({ ...entry, size: sizes.get(entry.id) ?? 0 })), writes };
        }

        const newest = records.length - 1;
        const oldestKept = now() - retentionDays * DAY_MS;
        let from = 0;
        while (from < newest && records[from]!.record.takenAt < oldestKept) from++;
        // Past the budget the oldest go: first estimated from the stored sizes, then checked with
        // the first kept record packed whole.
        const sizeFrom = (start: number) =>
          records.slice(start).reduce((sum, entry) => sum + (sizes.get(entry.id) ?? 0), 0);
        while (from < newest && sizeFrom(from) > budget) from++;
        // Nothing to store and nothing to drop (a damaged record dropped counts as a change).
        if (unchanged && from === 0 && chain.length === head.records.length) return outcome;
        let arranged = await keptFrom(from);
        const total = () => arranged.kept.reduce((sum, entry) => sum + entry.size, 0);
        while (from < newest && total() > budget) {
          from++;
          arranged = await keptFrom(from);
        }
        try {
          await deps.withRoom(() => writeHistory(account, head, arranged.kept, arranged.writes));
        } catch (error) {
          if (!deps.isQuotaError(error) || from >= newest) throw error;
          // The oldest history gives way before anything the user typed.
          from = Math.max(from + 1, Math.floor((from + newest) / 2));
          arranged = await keptFrom(from);
          await writeHistory(account, head, arranged.kept, arranged.writes);
        }
        return outcome;
      });
    },

    /** Removes the account's whole history (the account is removed). */
    forget(account: string): Promise<void> {
      return deps.exclusively('history', async () => {
        const head = await readHead(account);
        await deps.storage.remove([
          historyHeadKeyOf(account),
          ...head.records.map((record) => historyRecordKeyOf(account, record.id)),
        ]);
      });
    },
  };
}
