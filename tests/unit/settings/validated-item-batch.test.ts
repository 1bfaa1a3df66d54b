import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import * as z from 'zod/mini';
import { defineValidatedItem, followStored, getValues } from '@/lib/settings/validated-item';

beforeEach(() => fakeBrowser.reset());

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
    const calls: unknown[] = [];
    const get = fakeBrowser.storage.local.get.bind(fakeBrowser.storage.local);
    fakeBrowser.storage.local.get = ((keys: unknown) => {
      calls.push(keys);
      return get(keys as string[]);
    }) as typeof fakeBrowser.storage.local.get;
    // A stored value that does not fit its schema reads as the fallback.
    expect(await getValues([count, names] as const)).toEqual([7, []]);
    expect(calls).toEqual([['batchCount', 'batchNames']]);
  });

  it('runs an item’s migrations before reading it', async () => {
    await fakeBrowser.storage.local.set({ batchMigrated: '5', batchCount: 1 });
    expect(await getValues([migrated, count] as const)).toEqual([{ n: 5 }, 1]);
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

describe('followStored', () => {
  /** An item whose first read answers when the test says so. */
  function slowItem<T>(stored: T) {
    let answer: (value: T) => void = () => {};
    let fail: (error: Error) => void = () => {};
    const listeners = new Set<(value: T) => void>();
    return {
      getValue: () =>
        new Promise<T>((resolve, reject) => {
          answer = () => resolve(stored);
          fail = reject;
        }),
      watch(callback: (value: T) => void) {
        listeners.add(callback);
        return () => listeners.delete(callback);
      },
      answer: () => answer(stored),
      fail: () => fail(new Error('storage unreadable')),
      change: (value: T) => {
        for (const listener of listeners) listener(value);
      },
    };
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('gives the stored value, then every change', async () => {
    const item = slowItem('stored');
    const seen: string[] = [];
    followStored(item, (value) => seen.push(value));
    item.answer();
    await settle();
    item.change('changed');
    expect(seen).toEqual(['stored', 'changed']);
  });

  it('a change seen while the first read is on its way wins over that read', async () => {
    const item = slowItem('old');
    const seen: string[] = [];
    followStored(item, (value) => seen.push(value));
    item.change('new');
    item.answer();
    await settle();
    expect(seen).toEqual(['new']);
  });

  it('a failed first read is left unsaid, and changes still come; after stopping, nothing comes', async () => {
    const item = slowItem('stored');
    const seen: string[] = [];
    const stop = followStored(item, (value) => seen.push(value));
    item.fail();
    await settle();
    item.change('changed');
    stop();
    item.change('after stop');
    expect(seen).toEqual(['changed']);
  });
});
