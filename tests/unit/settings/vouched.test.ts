import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import * as z from 'zod/mini';
import { checkStoredValue, defineValidatedItem } from '@/lib/settings/validated-item';
import {
  createVouchedValues,
  MAX_VOUCHED_KEYS,
  sameJsonValue,
  VOUCHED_VALUES_KEY,
} from '@/lib/settings/vouched';
import { pageStorage } from '../page-storage';

/** Writes at once, as a page does once it is idle. */
const now = (write: () => void) => write();

/** An item whose schema loads count, as the popup's do (lib/settings/storage.ts). */
function countedItem(store: ReturnType<typeof pageStorage>, build = 'build-1') {
  const loads = { count: 0 };
  const vouched = createVouchedValues({ store, build, schedule: now });
  const item = defineValidatedItem(
    'local:vouchedSettings',
    async () => {
      loads.count++;
      return z.object({ profile: z.string().check(z.minLength(1)), hours: z.int() });
    },
    { fallback: { profile: 'default', hours: 1 }, version: 1, vouched },
  );
  return { item, loads };
}

beforeEach(() => fakeBrowser.reset());

describe('values vouched for by their shape (a list bucket: any string is a packed list)', () => {
  /** Checks a bucket as the cached lists' reading does (lib/settings/storage.ts), counting schema loads. */
  function bucketReader(store: ReturnType<typeof pageStorage>) {
    const loads = { count: 0 };
    const vouched = createVouchedValues({ store, build: 'build-1', schedule: now });
    const schema = z.object({ fetchedAt: z.number(), whitelist: z.string(), blocklist: z.string() });
    const read = (raw: unknown) =>
      checkStoredValue(
        'local:cachedListsBucket:7:default',
        raw,
        () => {
          loads.count++;
          return schema;
        },
        null,
        { vouched, printOf: 'shape' },
      );
    return { read, loads };
  }
  const bucket = (whitelist: string, blocklist = 'ads.example') => ({ fetchedAt: 1, whitelist, blocklist });

  it('take other lists of the same shape as read, without the schema', async () => {
    const store = pageStorage();
    await bucketReader(store).read(bucket('a.example'));
    const next = bucketReader(store);
    const longer = bucket(Array.from({ length: 2000 }, (_, i) => `site${i}.example`).join('\n'));
    expect(await next.read(longer)).toEqual(longer);
    expect(next.loads.count).toBe(0);
  });

  it('check anything of another shape: a list that is no longer a string reads as nothing', async () => {
    const store = pageStorage();
    await bucketReader(store).read(bucket('a.example'));
    for (const changed of [
      { fetchedAt: 1, whitelist: 7, blocklist: 'ads.example' },
      { fetchedAt: 1, whitelist: ['a.example'], blocklist: 'ads.example' },
      { fetchedAt: 1, whitelist: null, blocklist: 'ads.example' },
      { fetchedAt: '1', whitelist: 'a.example', blocklist: 'ads.example' },
    ]) {
      const next = bucketReader(store);
      expect(await next.read(changed)).toBeNull();
      expect(next.loads.count).toBe(1);
    }
    // Another fetch time is another shape: checked, then vouched for in turn.
    const later = bucketReader(store);
    expect(await later.read({ ...bucket('a.example'), fetchedAt: 2 })).toEqual({
      ...bucket('a.example'),
      fetchedAt: 2,
    });
    expect(later.loads.count).toBe(1);
  });

  it('never stand for a whole value at the same key, nor a whole value for a shape', () => {
    const store = pageStorage();
    const vouched = createVouchedValues({ store, build: 'build-1', schedule: now });
    vouched.vouchFor('local:k', { list: '' }, 'shape').remember();
    expect(vouched.vouchFor('local:k', { list: '' }).vouched).toBe(false);
    vouched.vouchFor('local:j', { list: '' }).remember();
    expect(vouched.vouchFor('local:j', { list: 'x' }, 'shape').vouched).toBe(false);
  });
});

describe('values zod accepted before', () => {
  it('are used at the next opening without loading the schema', async () => {
    const store = pageStorage();
    await fakeBrowser.storage.local.set({ vouchedSettings: { profile: 'kids', hours: 8 } });
    const first = countedItem(store);
    expect(await first.item.getValue()).toEqual({ profile: 'kids', hours: 8 });
    expect(first.loads.count).toBe(1);

    const next = countedItem(store);
    expect(await next.item.getValue()).toEqual({ profile: 'kids', hours: 8 });
    expect(next.loads.count).toBe(0);
  });

  it('do not vouch for a changed value: it is checked, and a bad one reads as the fallback', async () => {
    const store = pageStorage();
    await fakeBrowser.storage.local.set({ vouchedSettings: { profile: 'kids', hours: 8 } });
    await countedItem(store).item.getValue();

    await fakeBrowser.storage.local.set({ vouchedSettings: { profile: '', hours: 8 } });
    const next = countedItem(store);
    expect(await next.item.getValue()).toEqual({ profile: 'default', hours: 1 });
    expect(next.loads.count).toBe(1);
  });

  it('are checked again by another build', async () => {
    const store = pageStorage();
    await fakeBrowser.storage.local.set({ vouchedSettings: { profile: 'kids', hours: 8 } });
    await countedItem(store, 'build-1').item.getValue();
    const next = countedItem(store, 'build-2');
    expect(await next.item.getValue()).toEqual({ profile: 'kids', hours: 8 });
    expect(next.loads.count).toBe(1);
  });

  it('never include a value zod had to change (a key it drops): it is checked at every opening', async () => {
    const store = pageStorage();
    await fakeBrowser.storage.local.set({ vouchedSettings: { profile: 'kids', hours: 8, extra: true } });
    for (let opening = 0; opening < 2; opening++) {
      const { item, loads } = countedItem(store);
      expect(await item.getValue()).toEqual({ profile: 'kids', hours: 8 });
      expect(loads.count).toBe(1);
    }
  });

  it('are checked as before where the page has no localStorage, or an unreadable record of them', async () => {
    await fakeBrowser.storage.local.set({ vouchedSettings: { profile: 'kids', hours: 8 } });
    const none = createVouchedValues({ store: undefined, build: 'b', schedule: now });
    none.vouchFor('local:vouchedSettings', { profile: 'kids', hours: 8 }).remember();
    expect(none.vouchFor('local:vouchedSettings', { profile: 'kids', hours: 8 }).vouched).toBe(false);

    const damaged = pageStorage();
    damaged.setItem(VOUCHED_VALUES_KEY, '{not json');
    const { item, loads } = countedItem(damaged);
    expect(await item.getValue()).toEqual({ profile: 'kids', hours: 8 });
    expect(loads.count).toBe(1);
  });

  it('vouch for exactly the value remembered, under its own key', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (remembered, read) => {
        const vouched = createVouchedValues({ store: pageStorage(), build: 'b', schedule: now });
        vouched.vouchFor('local:a', remembered).remember();
        expect(vouched.vouchFor('local:b', remembered).vouched).toBe(false);
        expect(vouched.vouchFor('local:a', read).vouched).toBe(
          JSON.stringify(read) === JSON.stringify(remembered),
        );
      }),
    );
  });

  it('are kept for the keys read last, at most MAX_VOUCHED_KEYS of them', () => {
    const store = pageStorage();
    const vouched = createVouchedValues({ store, build: 'b', schedule: now });
    for (let i = 0; i <= MAX_VOUCHED_KEYS; i++) vouched.vouchFor(`local:key${i}`, i).remember();
    const reopened = createVouchedValues({ store, build: 'b', schedule: now });
    expect(reopened.vouchFor('local:key0', 0).vouched).toBe(false);
    expect(reopened.vouchFor(`local:key${MAX_VOUCHED_KEYS}`, MAX_VOUCHED_KEYS).vouched).toBe(true);
    expect(Object.keys(JSON.parse(store.getItem(VOUCHED_VALUES_KEY) ?? '{}').prints)).toHaveLength(
      MAX_VOUCHED_KEYS,
    );
  });

  it('are checked in the order they come when watched, even when the first needs the schema', async () => {
    const store = pageStorage();
    const { item } = countedItem(store);
    const seen: number[] = [];
    const stop = item.watch((value) => seen.push(value.hours));
    await fakeBrowser.storage.local.set({ vouchedSettings: { profile: 'kids', hours: 2 } });
    await fakeBrowser.storage.local.set({ vouchedSettings: { profile: 'kids', hours: 3 } });
    await fakeBrowser.storage.local.set({ vouchedSettings: { profile: 'kids', hours: 2 } });
    await expect.poll(() => seen).toEqual([2, 3, 2]);
    stop();
  });

  it('include a value stored with its keys in another order than the schema’s (Chromium sorts them)', async () => {
    const store = pageStorage();
    await fakeBrowser.storage.local.set({ vouchedSettings: { hours: 8, profile: 'kids' } });
    await countedItem(store).item.getValue();
    const next = countedItem(store);
    expect(await next.item.getValue()).toEqual({ profile: 'kids', hours: 8 });
    expect(next.loads.count).toBe(0);
  });

  it('of the item’s own key are kept when the same item checks a value kept elsewhere (another account’s)', async () => {
    const store = pageStorage();
    await fakeBrowser.storage.local.set({ vouchedSettings: { profile: 'kids', hours: 8 } });
    const first = countedItem(store);
    await first.item.getValue();
    expect(
      await first.item.check({ profile: 'office', hours: 2 }, 'local:accounts/other/local:vouchedSettings'),
    ).toEqual({ profile: 'office', hours: 2 });
    const next = countedItem(store);
    expect(await next.item.getValue()).toEqual({ profile: 'kids', hours: 8 });
    expect(next.loads.count).toBe(0);
  });

  it('accepted by one page are not undone by another page open meanwhile', () => {
    const store = pageStorage();
    const optionsPage = createVouchedValues({ store, build: 'b', schedule: now });
    optionsPage.vouchFor('local:a', 1).remember();
    const popup = createVouchedValues({ store, build: 'b', schedule: now });
    popup.vouchFor('local:b', 2).remember();
    optionsPage.vouchFor('local:c', 3).remember();
    const nextPopup = createVouchedValues({ store, build: 'b', schedule: now });
    expect([
      nextPopup.vouchFor('local:a', 1).vouched,
      nextPopup.vouchFor('local:b', 2).vouched,
      nextPopup.vouchFor('local:c', 3).vouched,
    ]).toEqual([true, true, true]);
  });
});

describe('sameJsonValue', () => {
  /** The same value with every object's keys in reverse order. */
  const reordered = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(reordered)
      : typeof value === 'object' && value !== null
        ? Object.fromEntries(
            Object.entries(value)
              .reverse()
              .map(([key, item]) => [key, reordered(item)]),
          )
        : value;
  /** JSON with object keys sorted: equal exactly when the values are. */
  const canonical = (value: unknown): string =>
    JSON.stringify(value, (_key, item) =>
      typeof item === 'object' && item !== null && !Array.isArray(item)
        ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : 1)))
        : item,
    );

  it('ignores the order of object keys, nothing else', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        expect(sameJsonValue(a, reordered(a))).toBe(true);
        expect(sameJsonValue(a, b)).toBe(canonical(a) === canonical(b));
      }),
    );
  });
});
