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
import { type ChainRecord, fromChain, toChain } from './chain';
import type { Snapshot } from './model';
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
 * churn fit (docs/history.md, "Size"), and beside a full list cache there is room left for what
 * the user typed.
 */
export const HISTORY_BUDGET = 3 * 1024 * 1024;

const DAY_MS = 24 * 60 * 60_000;

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

export interface SnapshotSummary {
  id: string;
  takenAt: number;
  reason: Snapshot['reason'];
  size: number;
}

export type AddOutcome = { stored: true; id: string } | { stored: false; sameAs: string | null };

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

  /**
   * The account's snapshots after `add`, oldest first, within retention and budget: the records
   * to keep and which of them must be (re)written.
   */
  async function arrange(
    snapshots: { id: string; snapshot: Snapshot }[],
    sizes: Map<string, number>,
    fresh: Set<string>,
    keepFrom: number,
  ) {
    const kept = snapshots.slice(keepFrom);
    const chain = toChain(kept.map(({ snapshot }) => snapshot));
    // toChain leaves out a snapshot equal to the one before; the store never keeps such twins, so
    // the records match the snapshots one to one.
    const result: { id: string; record: ChainRecord; size: number }[] = [];
    const packedById = new Map<string, string>();
    for (const [index, record] of chain.entries()) {
      const { id } = kept[index]!;
      // The first kept record becomes whole when the ones before it go.
      const rewrite = fresh.has(id) || (index === 0 && keepFrom > 0);
      if (rewrite) {
        const packed = await pack(bodyOf(record));
        packedById.set(id, packed);
        result.push({ id, record, size: packed.length });
      } else result.push({ id, record, size: sizes.get(id) ?? 0 });
    }
    return { result, packedById };
  }

  return {
    /** The account's snapshots, oldest first, as stored (for the list and the budget). */
    async list(account: string): Promise<SnapshotSummary[]> {
      return (await readHead(account)).records;
    },

    /** Every readable snapshot of the account, oldest first. */
    read: readSnapshots,

    /**
     * Stores `snapshot` unless it holds the same as the newest one; drops what is past the
     * retention or the budget. Rejects with the storage's error when even the newest alone does
     * not fit.
     */
    add(account: string, snapshot: Snapshot, retentionDays: number): Promise<AddOutcome> {
      return deps.exclusively('history', async () => {
        const head = await readHead(account);
        const existing = await readSnapshots(account);
        const last = existing.at(-1);
        const same = last !== undefined && toChain([last.snapshot, snapshot]).length === 1;
        const id = same ? last.id : deps.newId();
        const all = same ? existing : [...existing, { id, snapshot }];
        const sizes = new Map(head.records.map((record) => [record.id, record.size]));
        const fresh = new Set(same ? [] : [id]);
        const oldestKept = now() - retentionDays * DAY_MS;
        let keepFrom = 0;
        while (keepFrom < all.length - 1 && all[keepFrom]!.snapshot.takenAt < oldestKept) keepFrom++;
        let arranged = await arrange(all, sizes, fresh, keepFrom);
        const total = () => arranged.result.reduce((sum, record) => sum + record.size, 0);
        while (total() > budget && keepFrom < all.length - 1) {
          keepFrom++;
          arranged = await arrange(all, sizes, fresh, keepFrom);
        }
        try {
          await deps.withRoom(() => writeHistory(account, head, arranged.result, arranged.packedById));
        } catch (error) {
          if (!deps.isQuotaError(error) || keepFrom >= all.length - 1) throw error;
          // The oldest history gives way before anything the user typed.
          keepFrom = Math.max(keepFrom + 1, Math.floor((keepFrom + all.length - 1) / 2));
          arranged = await arrange(all, sizes, fresh, keepFrom);
          await writeHistory(account, head, arranged.result, arranged.packedById);
        }
        return same ? { stored: false, sameAs: id } : { stored: true, id };
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

export type HistoryStore = ReturnType<typeof createHistoryStore>;
