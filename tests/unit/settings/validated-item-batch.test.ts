import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import * as z from 'zod/mini';
import { getValues } from '@/lib/settings/stored-reads';
import { defineValidatedItem } from '@/lib/settings/validated-item';
import { createVouchedValues } from '@/lib/settings/vouched';
import { pageStorage } from '../page-storage';

beforeEach(() => fakeBrowser.reset());

/** The keys of every `storage.local.get` from now on, one entry per call. */
function recordStorageGets(): unknown[] {
  const calls: unknown[] = [];
  const get = fakeBrowser.storage.local.get.bind(fakeBrowser.storage.local);
  fakeBrowser.storage.local.get = ((keys: unknown) => {
    calls.push(keys);
    return get(keys as string[]);
  }) as typeof fakeBrowser.storage.local.get;
  return calls;
}

const count = defineValidatedItem('local:batchCount', () => z.int(), { fallback: 0, version: 1 });
const names = defineValidatedItem('local:batchNames', () => z.array(z.string()), {
  fallback: [],
  version: 1,
});
const migrated = defineValidatedItem('local:batchMigrated', () => z.object({ n: z.int() }), {
  fallback: { n: 0 },
  version: 2,
  migrations: { 2: (old) => ({ n: Number(old) }) },
});

describe('getValues', () => {
  it('reads several items in one storage call, in order, each checked like getValue', async () => {
    await fakeBrowser.storage.local.set({ batchCount: 7, batchNames: ['a', 3] });
    const calls = recordStorageGets();
    // A stored value that does not fit its schema reads as the fallback.
    expect(await getValues([count, names] as const)).toEqual([7, []]);
    expect(calls).toEqual([['batchCount', 'batchNames']]);
  });

  it('runs an item’s migrations before reading it', async () => {
    await fakeBrowser.storage.local.set({ batchMigrated: '5', batchCount: 1 });
    expect(await getValues([migrated, count] as const)).toEqual([{ n: 5 }, 1]);
  });

  it('reads an item in its current shape without migrating it: its version record on its own the first time, not at all once vouched for', async () => {
    const vouched = createVouchedValues({
      store: pageStorage(),
      build: 'build-1',
      schedule: (write) => write(),
    });
    const current = defineValidatedItem('local:batchMigrated', () => z.object({ n: z.int() }), {
      fallback: { n: 0 },
      version: 2,
      migrations: { 2: (old) => ({ n: Number(old) + 100 }) },
      vouched,
    });
    await fakeBrowser.storage.local.set({ batchMigrated: { n: 3 }, batchMigrated$: { v: 2 }, batchCount: 1 });
    const calls = recordStorageGets();
    expect(await getValues([current, count] as const)).toEqual([{ n: 3 }, 1]);
    expect(calls).toEqual([['batchMigrated', 'batchCount'], ['batchMigrated$']]);

    calls.length = 0;
    expect(await getValues([current, count] as const)).toEqual([{ n: 3 }, 1]);
    expect(calls).toEqual([['batchMigrated', 'batchCount']]);

    // Another value is not vouched for: its version record is read again, and an old one migrates it.
    await fakeBrowser.storage.local.set({ batchMigrated: '5', batchMigrated$: { v: 1 } });
    calls.length = 0;
    expect(await getValues([current] as const)).toEqual([{ n: 105 }]);
    expect(calls.slice(0, 2)).toEqual([['batchMigrated'], ['batchMigrated$']]);
  });

  it('reads no version record for an item with nothing stored', async () => {
    const calls = recordStorageGets();
    expect(await getValues([migrated, count] as const)).toEqual([{ n: 0 }, 0]);
    expect(calls).toEqual([['batchMigrated', 'batchCount']]);
  });

  it('gives the fallbacks when nothing is stored', async () => {
    expect(await getValues([count, names] as const)).toEqual([0, []]);
  });
});

describe('building the schema', () => {
  it('waits for a stored value to check: nothing stored reads as the fallback at once', async () => {
    let built = 0;
    const lazy = defineValidatedItem(
      'local:batchLazy',
      () => {
        built++;
        return z.array(z.string());
      },
      { fallback: ['fallback'], version: 1 },
    );
    expect(await lazy.getValue()).toEqual(['fallback']);
    expect(built).toBe(0);
    await fakeBrowser.storage.local.set({ batchLazy: ['a', 3] });
    expect(await lazy.getValue()).toEqual(['fallback']);
    await fakeBrowser.storage.local.set({ batchLazy: ['a', 'b'] });
    expect(await lazy.getValue()).toEqual(['a', 'b']);
    expect(built).toBe(1);
  });
});

describe('an item without migrations', () => {
  it('reads, writes, watches and removes its own key only', async () => {
    const seen: number[] = [];
    const stop = count.watch((value) => seen.push(value));
    await count.setValue(4);
    expect(await fakeBrowser.storage.local.get('batchCount')).toEqual({ batchCount: 4 });
    expect(await count.getValue()).toBe(4);
    await expect(count.setValue(1.5)).rejects.toThrow();
    expect(await count.getValue()).toBe(4);
    await count.removeValue();
    expect(await count.getValue()).toBe(0);
    stop();
    expect(seen).toEqual([4, 0]);
  });
});
