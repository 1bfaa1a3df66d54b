/**
 * The one way to read and write stored values (lib/settings/item.ts): reads trust the current
 * shape and treat anything else as missing, writes are checked, versioned items carry their
 * version record, and several items are read in one round trip.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import * as z from 'zod/mini';
import { defineItem, getValues, onUnreadable } from '@/lib/settings/item';
import { arrayOf, number, object, string } from '@/lib/settings/shape';

beforeEach(() => fakeBrowser.reset());

const count = defineItem('local:testCount', async () => z.int(), { shape: number, fallback: 0, version: 1 });
const names = defineItem('local:testNames', async () => z.array(z.string().check(z.minLength(1))), {
  shape: arrayOf(string),
  fallback: [] as string[],
  version: 1,
});
const versioned = defineItem('local:testVersioned', async () => z.object({ n: z.int() }), {
  shape: object({ n: number }),
  fallback: { n: 0 },
  version: 2,
  migrations: { 2: (old) => ({ n: Number(old) }) },
});

describe('reading', () => {
  it('gives the fallback when nothing is stored, and the stored value in the current shape as it is', async () => {
    expect(await count.getValue()).toBe(0);
    await fakeBrowser.storage.local.set({ testCount: 7 });
    expect(await count.getValue()).toBe(7);
  });

  it('treats a value of another shape as missing, and says which key it could not read', async () => {
    let unreadable: readonly string[] = [];
    const stop = onUnreadable((keys) => {
      unreadable = keys;
    });
    await fakeBrowser.storage.local.set({ testNames: [1, 2], testCount: 'seven' });
    expect(await names.getValue()).toEqual([]);
    expect(await count.getValue()).toBe(0);
    stop();
    expect(unreadable).toEqual(['local:testNames', 'local:testCount']);
    // A page that starts listening later still hears of them.
    onUnreadable((keys) => {
      unreadable = [...keys, 'heard again'];
    })();
    expect(unreadable).toContain('heard again');
  });

  it('reads several items in one storage call, in order', async () => {
    await fakeBrowser.storage.local.set({ testCount: 3, testNames: ['a'] });
    const get = vi.spyOn(fakeBrowser.storage.local, 'get');
    expect(await getValues([names, count, versioned] as const)).toEqual([['a'], 3, { n: 0 }]);
    expect(get).toHaveBeenCalledTimes(1);
  });

  it('never loads the schema to read', async () => {
    const schema = vi.fn(async () => z.int());
    const item = defineItem('local:testLazy', schema, { shape: number, fallback: 0, version: 1 });
    await fakeBrowser.storage.local.set({ testLazy: 'garbage' });
    expect(await item.getValue()).toBe(0);
    expect(schema).not.toHaveBeenCalled();
  });
});

describe('writing', () => {
  it('refuses a value its schema refuses, and writes nothing', async () => {
    await names.setValue(['kept']);
    await expect(names.setValue([''])).rejects.toThrow();
    expect(await names.getValue()).toEqual(['kept']);
  });

  it('writes a versioned item with its version record, in one write', async () => {
    const set = vi.spyOn(fakeBrowser.storage.local, 'set');
    await versioned.setValue({ n: 4 });
    expect(set).toHaveBeenCalledTimes(1);
    expect(await fakeBrowser.storage.local.get(['testVersioned', 'testVersioned$'])).toEqual({
      testVersioned: { n: 4 },
      testVersioned$: { v: 2 },
    });
  });

  it('an unversioned item writes its own key only', async () => {
    await count.setValue(5);
    expect(await fakeBrowser.storage.local.get(null)).toEqual({ testCount: 5 });
    await count.removeValue();
    expect(await fakeBrowser.storage.local.get(null)).toEqual({});
  });
});

describe('watching', () => {
  it('calls back with each new value, read as a read would, until unwatched', async () => {
    const seen: number[] = [];
    const unwatch = count.watch((value) => seen.push(value));
    await count.setValue(1);
    await fakeBrowser.storage.local.set({ testCount: 'damaged' });
    await count.removeValue();
    unwatch();
    await count.setValue(2);
    expect(seen).toEqual([1, 0, 0]);
  });
});
