/**
 * The journal of this browser's changes (lib/history/journal.ts, docs/history.md "Who made it"):
 * what the options page's client records, and how long and how much is kept.
 */
import { describe, expect, it } from 'vitest';
import {
  createJournal,
  JOURNAL_BUDGET,
  JOURNAL_KEPT,
  type JournalEntry,
  journaledClient,
  journalKeyOf,
} from '@/lib/history/journal';
import { createFakeClient, refused } from '../../fakes/fake-client';
import { memoryStorage } from './memory-storage';

const DAY = 24 * 60 * 60_000;
const ACCOUNT = 'A https://my.cleanbrowsing.org 0123456789abcdef';

function journalOver(options: { now: () => number; retentionDays?: number; quota?: number }) {
  const { storage, values } = memoryStorage(options.quota);
  // One write at a time, as Web Locks keep them (lib/outbox/lease.ts `exclusively`).
  let queue: Promise<unknown> = Promise.resolve();
  const exclusively = <T>(_name: string, fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => undefined);
    return run;
  };
  const journal = createJournal({
    storage,
    exclusively,
    withRoom: (write) => write(),
    retentionDays: async () => options.retentionDays ?? 90,
    now: options.now,
  });
  const storedChars = () => JSON.stringify(values.get(journalKeyOf(ACCOUNT))).length;
  return { journal, values, storedChars };
}

const made = (at: number, entry: string, surface = 'options'): JournalEntry => ({
  at,
  kind: 'whitelist',
  scope: 'default',
  entry,
  op: 'remove',
  surface,
});

describe('the options page client records what it changed', () => {
  it('each confirmed change, as a snapshot sees it, with the surface; a refused one records nothing', async () => {
    const service = createFakeClient('A', { profiles: ['default', 'kids'] });
    service.state.lists.whitelist.kids = new Set(['games.example']);
    const clock = 5 * DAY;
    const { journal } = journalOver({ now: () => clock });
    const client = journaledClient(service, ACCOUNT, 'options', journal, () => clock);

    await client.deleteDomain('whitelist', 'games.example', 'kids');
    await client.setCategoryBlocked('category_gaming', true, 'kids');
    await client.setDefaultBlock(false, 'kids');
    await client.blockTld('.zip', 'kids');
    await client.addNetwork({ ip: '203.0.113.7', label: 'home', profile: 'kids' });
    await client.addProfile('guests');
    service.failNext('addDomain', refused('Invalid domain'));
    await expect(client.addDomain('blocklist', 'bad.example', 'kids')).rejects.toThrow();

    expect(
      (await journal.read(ACCOUNT)).map(({ kind, scope, entry, op }) => [kind, scope, entry, op]),
    ).toEqual([
      ['whitelist', 'kids', 'games.example', 'remove'],
      ['categories', 'kids', 'category_gaming', 'add'],
      ['defaultBlock', 'kids', 'on', 'remove'],
      ['tlds', 'kids', '.zip', 'add'],
      ['networks', 'kids', '203.0.113.7', 'add'],
      ['profiles', '', 'guests', 'add'],
    ]);
    expect(new Set((await journal.read(ACCOUNT)).map((entry) => entry.surface))).toEqual(
      new Set(['options']),
    );
    // The calls reached the service with the arguments given, nothing added.
    expect(service.state.lists.whitelist.kids).toEqual(new Set());
  });

  it('Form B: everything is the whole account', async () => {
    const service = createFakeClient('B');
    const { journal } = journalOver({ now: () => DAY });
    const client = journaledClient(service, ACCOUNT, 'options', journal, () => DAY);
    await client.addDomain('blocklist', 'ads.example');
    expect(await journal.read(ACCOUNT)).toMatchObject([
      { kind: 'blocklist', scope: 'account', entry: 'ads.example', op: 'add' },
    ]);
  });

  it('changes recorded while a write runs all arrive (a bulk add)', async () => {
    const { journal } = journalOver({ now: () => DAY });
    await Promise.all(
      Array.from({ length: 50 }, (_, index) => journal.record(ACCOUNT, [made(DAY, `d${index}.example`)])),
    );
    expect(await journal.read(ACCOUNT)).toHaveLength(50);
  });
});

describe('how long and how much the journal keeps', () => {
  it('entries older than the history retention go with the next write', async () => {
    let clock = 10 * DAY;
    const { journal } = journalOver({ now: () => clock, retentionDays: 30 });
    await journal.record(ACCOUNT, [made(clock, 'old.example')]);
    clock += 29 * DAY;
    await journal.record(ACCOUNT, [made(clock, 'recent.example')]);
    expect((await journal.read(ACCOUNT)).map((entry) => entry.entry)).toEqual([
      'old.example',
      'recent.example',
    ]);
    clock += 2 * DAY;
    await journal.record(ACCOUNT, [made(clock, 'new.example')]);
    expect((await journal.read(ACCOUNT)).map((entry) => entry.entry)).toEqual([
      'recent.example',
      'new.example',
    ]);
  });

  it(`keeps the newest ${JOURNAL_KEPT} entries`, async () => {
    const { journal } = journalOver({ now: () => DAY });
    const many = Array.from({ length: JOURNAL_KEPT + 10 }, (_, index) => made(DAY, `d${index}.example`));
    await journal.record(ACCOUNT, many.slice(0, 100));
    await journal.record(ACCOUNT, many.slice(100));
    const kept = await journal.read(ACCOUNT);
    expect(kept).toHaveLength(JOURNAL_KEPT);
    expect(kept[0]!.entry).toBe('d10.example');
    expect(kept.at(-1)!.entry).toBe(`d${JOURNAL_KEPT + 9}.example`);
  });

  it('stays within its budget even when every entry is as long as it can be', async () => {
    const { journal, storedChars } = journalOver({ now: () => DAY });
    const longest = (index: number): JournalEntry => ({
      at: DAY,
      kind: 'blocklist',
      scope: 'p'.repeat(64),
      entry: `${String(index).padStart(6, '0')}.${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(49)}`,
      op: 'remove',
      surface: 'temporary-allow',
      page: `${'e'.repeat(63)}.${'f'.repeat(63)}.${'g'.repeat(63)}.${'h'.repeat(61)}`,
    });
    await journal.record(
      ACCOUNT,
      Array.from({ length: JOURNAL_KEPT }, (_, index) => longest(index)),
    );
    expect(storedChars()).toBeLessThanOrEqual(JOURNAL_BUDGET);
    const kept = await journal.read(ACCOUNT);
    expect(kept.length).toBeGreaterThan(1000);
    expect(kept.at(-1)!.entry).toMatch(new RegExp(`^00${JOURNAL_KEPT - 1}\\.`));
  });

  it(`${JOURNAL_KEPT} ordinary entries take less than 500,000 characters`, async () => {
    const { journal, storedChars } = journalOver({ now: () => Date.UTC(2026, 10, 1) });
    const ordinary = (index: number): JournalEntry => ({
      at: Date.UTC(2026, 10, 1) - index * 1000,
      kind: index % 2 === 0 ? 'whitelist' : 'blocklist',
      scope: 'default',
      entry: `site-${index}.example.com`,
      op: index % 3 === 0 ? 'remove' : 'add',
      surface: 'popup',
      page: `www.news-${index % 50}.example`,
    });
    await journal.record(
      ACCOUNT,
      Array.from({ length: JOURNAL_KEPT }, (_, index) => ordinary(JOURNAL_KEPT - index)),
    );
    expect(await journal.read(ACCOUNT)).toHaveLength(JOURNAL_KEPT);
    // docs/history.md, "Limits", names this figure.
    expect(storedChars()).toBeLessThan(500_000);
  });

  it('reads garbage as no journal, and keeps the readable entries beside a damaged one', async () => {
    const { journal, values } = journalOver({ now: () => DAY });
    values.set(journalKeyOf(ACCOUNT), { v: 99, entries: 'x' });
    expect(await journal.read(ACCOUNT)).toEqual([]);
    values.set(journalKeyOf(ACCOUNT), {
      v: 1,
      entries: [[DAY, 'whitelist', 'default', 'ok.example', 'add', 'popup', ''], ['nonsense']],
    });
    expect(await journal.read(ACCOUNT)).toEqual([
      { at: DAY, kind: 'whitelist', scope: 'default', entry: 'ok.example', op: 'add', surface: 'popup' },
    ]);
  });

  it('a write the storage refuses rejects; the options page call it followed still succeeds', async () => {
    const service = createFakeClient('A');
    const { journal } = journalOver({ now: () => DAY, quota: 10 });
    await expect(journal.record(ACCOUNT, [made(DAY, 'x.example')])).rejects.toThrow(/quota/);
    const client = journaledClient(service, ACCOUNT, 'options', journal, () => DAY);
    await expect(client.addDomain('whitelist', 'kept.example', 'default')).resolves.toBeUndefined();
    expect(service.state.lists.whitelist.default).toEqual(new Set(['kept.example']));
  });
});
