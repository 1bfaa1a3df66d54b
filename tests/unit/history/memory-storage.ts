import type { HistoryDeps, HistoryStorage } from '@/lib/history/store';

/** storage.local in memory, refusing a write that would pass `quota` characters of all values. */
export function memoryStorage(quota = Number.POSITIVE_INFINITY) {
  const values = new Map<string, unknown>();
  const used = (map: Map<string, unknown>) =>
    [...map.values()].reduce<number>((sum, v) => sum + JSON.stringify(v).length, 0);
  const storage: HistoryStorage = {
    async get(keys) {
      return Object.fromEntries(keys.map((key) => [key, structuredClone(values.get(key))]));
    },
    async set(written) {
      const next = new Map(values);
      for (const [key, value] of Object.entries(written)) next.set(key, structuredClone(value));
      if (used(next) > quota) throw new Error('QUOTA_BYTES quota exceeded');
      for (const [key, value] of next) values.set(key, value);
    },
    async remove(keys) {
      for (const key of keys) values.delete(key);
    },
  };
  return { storage, values };
}

let counter = 0;
export function historyDeps(
  storage: HistoryStorage,
  now: () => number,
  extra: Partial<HistoryDeps> = {},
): HistoryDeps {
  return {
    storage,
    exclusively: (_name, fn) => fn(),
    withRoom: (write) => write(),
    isQuotaError: (error) => error instanceof Error && /quota/i.test(error.message),
    newId: () => `r${++counter}`,
    now,
    ...extra,
  };
}
