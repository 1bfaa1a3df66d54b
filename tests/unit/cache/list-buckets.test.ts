/**
 * Cached lists in buckets (lib/cache/list-buckets.ts): the popup reads only the entries that can
 * cover its site, and must reach the same verdict as from the whole lists.
 */
import fc from 'fast-check';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { cachedListsItem } from '@/lib/cache/cached-lists';
import { bucketsCover, bucketsFor, listsStorageScope, SINGLE_LABEL_BUCKET } from '@/lib/cache/list-buckets';
import { createViewCache } from '@/lib/cache/view-cache';
import { packedDomainIndex, selfAndParents } from '@/lib/filtering/domain-index';

beforeEach(() => fakeBrowser.reset());

const ACCOUNT = 'A https://dns.example 0123456789abcdef';
const T0 = Date.UTC(2026, 4, 1, 12);
const SCOPE = 'A:default';
/** Where the view cache stores this account's lists of SCOPE. */
const STORED = listsStorageScope(SCOPE, ACCOUNT);

const label = fc.stringMatching(/^[a-z0-9]{1,6}$/);
const domain = fc
  .tuple(fc.array(label, { minLength: 0, maxLength: 3 }), fc.constantFrom('com', 'org', 'co.uk', 'de'))
  .map(([labels, tld]) => [...labels, tld].join('.'));

describe('buckets', () => {
  it('a host needs the bucket of its last two labels and the one of single labels', () => {
    expect(bucketsFor(['a.b.example.com'])).toEqual(bucketsFor(['example.com']));
    expect(bucketsFor(['example.com'])).toContain(SINGLE_LABEL_BUCKET);
    expect(bucketsFor(['example.com'])).toHaveLength(2);
    expect(bucketsFor(['com'])).toEqual([SINGLE_LABEL_BUCKET]);
    expect(bucketsFor(['EXAMPLE.com.'])).toEqual(bucketsFor(['example.com']));
  });

  it('the buckets of a host cover the host and every parent', () => {
    fc.assert(
      fc.property(domain, (host) => {
        const buckets = bucketsFor([host]);
        for (const name of selfAndParents(host)) expect(bucketsCover(buckets, name)).toBe(true);
      }),
    );
  });

  it('the entries read for a host give the same answers as the whole lists', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(domain, { maxLength: 40 }),
        fc.array(domain, { maxLength: 40 }),
        fc.array(domain, { minLength: 1, maxLength: 5 }),
        async (whitelist, blocklist, hosts) => {
          fakeBrowser.reset();
          const cache = createViewCache({ now: () => T0 });
          await cache.saveLists(SCOPE, ACCOUNT, { whitelist, blocklist });
          const whole = await cache.readLists(SCOPE, ACCOUNT);
          for (const host of hosts) {
            const part = await cache.readLists(SCOPE, ACCOUNT, [host]);
            expect(part?.fetchedAt).toBe(T0);
            for (const list of ['whitelist', 'blocklist'] as const) {
              const fromWhole = packedDomainIndex(whole!.value[list]);
              const fromPart = packedDomainIndex(part!.value[list]);
              expect(fromPart.covering(host)).toBe(fromWhole.covering(host));
              for (const name of selfAndParents(host)) expect(fromPart.has(name)).toBe(fromWhole.has(name));
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a large account: opening the popup reads a few kB, not the whole lists', async () => {
    const cache = createViewCache({ now: () => T0 });
    const many = (tag: string) => Array.from({ length: 20_000 }, (_, i) => `${tag}${i}.example`);
    await cache.saveLists(SCOPE, ACCOUNT, { whitelist: many('w'), blocklist: many('b') });
    const get = vi.spyOn(fakeBrowser.storage.local, 'get');
    const part = await cache.readLists(SCOPE, ACCOUNT, ['www.w17.example']);
    const read = await Promise.all(get.mock.results.map((result) => result.value));
    const size = JSON.stringify(read).length;
    expect(packedDomainIndex(part!.value.whitelist).covering('www.w17.example')).toBe('w17.example');
    expect(size).toBeLessThan(30_000);
    const whole = JSON.stringify((await cache.readLists(SCOPE, ACCOUNT))!.value).length;
    expect(whole).toBeGreaterThan(20 * size);
  });

  it('a bucket left from another fetch makes the view a miss, never a mix of two fetches', async () => {
    const cache = createViewCache({ now: () => T0 });
    await cache.saveLists(SCOPE, ACCOUNT, { whitelist: ['a.example.com'], blocklist: [] });
    const [bucket] = bucketsFor(['a.example.com']);
    const key = `cachedListsBucket:${bucket}:${STORED}`;
    const stored = (await fakeBrowser.storage.local.get(key))[key] as object;
    await fakeBrowser.storage.local.set({ [key]: { ...stored, fetchedAt: T0 - 1 } });
    expect(await cache.readLists(SCOPE, ACCOUNT, ['a.example.com'])).toBeNull();
    expect(await cache.readLists(SCOPE, ACCOUNT)).toBeNull();
  });

  it('a view stored whole (version 3) is read, then stored in buckets', async () => {
    await fakeBrowser.storage.local.set({
      [`cachedLists:${STORED}`]: {
        account: ACCOUNT,
        fetchedAt: T0,
        whitelist: 'example.com\nwiki.org',
        blocklist: 'ads.net',
      },
    });
    const cache = createViewCache({ now: () => T0 });
    const part = await cache.readLists(SCOPE, ACCOUNT, ['www.example.com']);
    expect(part?.value.whitelist).toBe('example.com');
    const head = (await fakeBrowser.storage.local.get(`cachedLists:${STORED}`))[`cachedLists:${STORED}`];
    expect(head).toEqual({ account: ACCOUNT, fetchedAt: T0, buckets: expect.any(Array) });
    expect(await cachedListsItem(STORED).getValue()).toEqual({
      account: ACCOUNT,
      fetchedAt: T0,
      whitelist: 'example.com\nwiki.org',
      blocklist: 'ads.net',
    });
  });

  it('confirmed changes land in their buckets, the others untouched, and the view is removed whole', async () => {
    const cache = createViewCache({ now: () => T0 });
    await cache.saveLists(SCOPE, ACCOUNT, { whitelist: ['keep.org'], blocklist: ['move.com'] });
    await cache.applyChanges(SCOPE, ACCOUNT, [
      { op: 'add', list: 'whitelist', domain: 'move.com' },
      { op: 'add', list: 'blocklist', domain: 'new.example.net' },
    ]);
    expect(await cache.readLists(SCOPE, ACCOUNT)).toEqual({
      value: { whitelist: 'keep.org\nmove.com', blocklist: 'new.example.net' },
      fetchedAt: T0,
    });
    expect((await cache.readLists(SCOPE, ACCOUNT, ['x.new.example.net']))?.value.blocklist).toBe(
      'new.example.net',
    );
    await cachedListsItem(STORED).removeValue();
    expect(Object.keys(await fakeBrowser.storage.local.get(null)).filter((k) => k.includes(SCOPE))).toEqual(
      [],
    );
  });
});
