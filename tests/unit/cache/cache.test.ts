import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { ageText, FRESH_FOR_MS, isFresh, localDate } from '@/lib/cache/freshness';
import { listsStorageScope } from '@/lib/cache/list-buckets';
import { type ChangeLike, inverseChange, type Membership, replayChanges } from '@/lib/cache/list-changes';
import { createViewCache, isFreshView } from '@/lib/cache/view-cache';

beforeEach(() => fakeBrowser.reset());

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 4, 1, 12, 0, 0);

const A_X = 'A http://x 0123456789abcdef';
const B_X = 'B http://x 0123456789abcdef';
/** Another Form A account: another service. */
const A_Y = 'A http://y 0123456789abcdef';
const ACCT = 'A https://dns.example 0123456789abcdef';
const OTHER = 'A https://dns.example fedcba9876543210';

describe('freshness window', () => {
  it.each([
    ['just fetched', 0, true],
    ['4 min 59 s old', FRESH_FOR_MS - 1000, true],
    ['exactly 5 minutes old', FRESH_FOR_MS, false],
    ['an hour old', 60 * MINUTE, false],
    ['fetched "in the future" (clock moved back)', -MINUTE, false],
  ])('%s -> fresh: %s', (_name, age, fresh) => {
    expect(isFresh(T0 - age, T0)).toBe(fresh);
  });

  it.each([
    [10_000, 'just now'],
    [MINUTE, '1 minute ago'],
    [12 * MINUTE, '12 minutes ago'],
    [60 * MINUTE, '1 hour ago'],
    [47 * 60 * MINUTE, '47 hours ago'],
  ])('age %i ms reads "%s"', (age, text) => {
    expect(ageText(T0 - age, T0)).toBe(text);
  });

  it('names the day for anything older than two days', () => {
    expect(ageText(T0 - 72 * 60 * MINUTE, T0)).toBe(`on ${localDate(new Date(T0 - 72 * 60 * MINUTE))}`);
  });
});

describe('view cache', () => {
  it('returns a saved view as fresh within the window and stale after it, canonical and sorted', async () => {
    const cache = createViewCache({ now: () => T0 });
    await cache.saveLists('A:default', A_X, {
      whitelist: ['b.com', 'A.com.'],
      blocklist: ['bücher.de'],
    });
    const view = await cache.readLists('A:default', A_X);
    expect(view).toEqual({
      value: { whitelist: 'a.com\nb.com', blocklist: 'xn--bcher-kva.de' },
      fetchedAt: T0,
    });
    expect(isFreshView(view, T0 + FRESH_FOR_MS - 1)).toBe(true);
    expect(isFreshView(view, T0 + FRESH_FOR_MS)).toBe(false);
    expect(isFreshView(null, T0)).toBe(false);
  });

  it('keeps scopes apart and ignores a view of another account', async () => {
    const cache = createViewCache({ now: () => T0 });
    await cache.saveLists('A:kids1', A_X, { whitelist: ['kids.org'], blocklist: [] });
    expect(await cache.readLists('A:default', A_X)).toBeNull();
    expect(await cache.readLists('A:kids1', B_X)).toBeNull();
    expect((await cache.readLists('A:kids1', A_X))?.value.whitelist).toBe('kids.org');
  });

  it('keeps the lists of two accounts with the same scope: switching back needs no fetch', async () => {
    const cache = createViewCache({ now: () => T0 });
    await cache.saveLists('A:default', A_X, { whitelist: ['family.org'], blocklist: [] });
    await cache.saveLists('A:default', A_Y, { whitelist: ['office.org'], blocklist: [] });
    expect((await cache.readLists('A:default', A_X))?.value.whitelist).toBe('family.org');
    expect((await cache.readLists('A:default', A_Y))?.value.whitelist).toBe('office.org');
  });

  it('treats a malformed stored value as missing', async () => {
    const cache = createViewCache({ now: () => T0 });
    const stored = { account: A_X, fetchedAt: T0, whitelist: 'a.com', blocklist: '' };
    const key = `cachedLists:${listsStorageScope('A:default', A_X)}`;
    await fakeBrowser.storage.local.set({ [key]: stored });
    expect((await cache.readLists('A:default', A_X))?.value.whitelist).toBe('a.com');
    await fakeBrowser.storage.local.set({ [key]: { ...stored, whitelist: ['a.com'] } });
    expect(await cache.readLists('A:default', A_X)).toBeNull();
  });

  it('applies confirmed changes, keeping the lists exclusive and the fetch time unchanged', async () => {
    let now = T0;
    const cache = createViewCache({ now: () => now });
    await cache.saveLists('A:default', ACCT, { whitelist: ['keep.org'], blocklist: ['move.com'] });
    now = T0 + MINUTE;
    await cache.applyChanges('A:default', ACCT, [{ op: 'add', list: 'whitelist', domain: 'move.com' }]);
    expect(await cache.readLists('A:default', ACCT)).toMatchObject({
      value: { whitelist: 'keep.org\nmove.com', blocklist: '' },
      fetchedAt: T0,
    });
  });

  it('keeps today’s blocked counts per account and day only', async () => {
    const cache = createViewCache({ now: () => T0 });
    await cache.saveBlockedToday(ACCT, '2026-05-01', new Map([['ads.example.net', 7]]));
    expect((await cache.readBlockedToday(ACCT, '2026-05-01'))?.value.get('ads.example.net')).toBe(7);
    expect(await cache.readBlockedToday(ACCT, '2026-05-02')).toBeNull();
    expect(await cache.readBlockedToday(OTHER, '2026-05-01')).toBeNull();
  });

  it('keeps the profile list per account', async () => {
    const cache = createViewCache({ now: () => T0 });
    await cache.saveProfiles(ACCT, ['default', 'kids1']);
    expect((await cache.readProfiles(ACCT))?.value).toEqual(['default', 'kids1']);
    expect(await cache.readProfiles(OTHER)).toBeNull();
  });
});

describe('replaying one-click changes', () => {
  const add = (list: ChangeLike['list'], domain: string): ChangeLike => ({ op: 'add', list, domain });
  const remove = (list: ChangeLike['list'], domain: string): ChangeLike => ({ op: 'remove', list, domain });
  const sets = (changes: ChangeLike[]) => {
    const delta = replayChanges(changes);
    return {
      whitelist: { added: [...delta.whitelist.added], removed: [...delta.whitelist.removed] },
      blocklist: { added: [...delta.blocklist.added], removed: [...delta.blocklist.removed] },
    };
  };

  it.each([
    [
      'adding to the whitelist takes the domain off the blocklist',
      [add('whitelist', 'a.com')],
      { whitelist: { added: ['a.com'], removed: [] }, blocklist: { added: [], removed: ['a.com'] } },
    ],
    [
      'the last change wins',
      [add('blocklist', 'a.com'), remove('blocklist', 'a.com')],
      { whitelist: { added: [], removed: ['a.com'] }, blocklist: { added: [], removed: ['a.com'] } },
    ],
    [
      'domains are compared in canonical form',
      [add('whitelist', 'A.com.'), remove('whitelist', 'a.com')],
      { whitelist: { added: [], removed: ['a.com'] }, blocklist: { added: [], removed: ['a.com'] } },
    ],
  ])('%s', (_name, changes, expected) => {
    expect(sets(changes)).toEqual(expected);
  });
});

describe('undo', () => {
  it.each<[string, ChangeLike, Membership, ChangeLike]>([
    [
      'whitelisting a new domain',
      { op: 'add', list: 'whitelist', domain: 'a.com' },
      'none',
      { op: 'remove', list: 'whitelist', domain: 'a.com' },
    ],
    [
      'moving from the blocklist',
      { op: 'add', list: 'whitelist', domain: 'a.com' },
      'blocklist',
      { op: 'add', list: 'blocklist', domain: 'a.com' },
    ],
    [
      'removing from the blocklist',
      { op: 'remove', list: 'blocklist', domain: 'a.com' },
      'blocklist',
      { op: 'add', list: 'blocklist', domain: 'a.com' },
    ],
    [
      'removing from the whitelist',
      { op: 'remove', list: 'whitelist', domain: 'a.com' },
      'whitelist',
      { op: 'add', list: 'whitelist', domain: 'a.com' },
    ],
  ])('%s is undone by the inverse change', (_name, change, before, expected) => {
    expect(inverseChange(change, before)).toEqual(expected);
  });
});
