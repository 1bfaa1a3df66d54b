/**
 * What version 1 of the history stored (tests/fixtures/history/v1.json) reads back as it was:
 * a later version that changes the shapes must keep reading it, or migrate it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attributeChanges } from '@/lib/history/changes';
import { createJournal } from '@/lib/history/journal';
import { historySettingsSchema, rollbackJobSchema } from '@/lib/history/schema';
import { createHistoryStore } from '@/lib/history/store';
import { historyDeps, memoryStorage } from './memory-storage';

const fixture = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../fixtures/history/v1.json'), 'utf8'),
) as {
  stored: Record<string, unknown>;
};
const ACCOUNT = 'A https://my.cleanbrowsing.org 0123456789abcdef';

describe('history, version 1 as stored', () => {
  it('reads its snapshots, its changes, its retention and its waiting rollback', async () => {
    const { storage, values } = memoryStorage();
    for (const [key, value] of Object.entries(fixture.stored)) values.set(key, value);
    const store = createHistoryStore(historyDeps(storage, () => 1763890000000));
    const snapshots = await store.read(ACCOUNT);
    expect(snapshots.map(({ id }) => id)).toEqual(['rec-1', 'rec-2']);
    expect(snapshots[1]!.snapshot.sections).toEqual({
      'profiles\t': ['default', 'kids1'],
      'whitelist\tdefault': ['homework.example', 'school.example'],
      'blocklist\tkids1': [],
      'tlds\tkids1': ['.zip'],
      'defaultBlock\tkids1': ['on'],
      'categories\tkids1': ['category_adult'],
      'networks\tkids1': ['203.0.113.7'],
    });
    expect((await store.changes(ACCOUNT))[0]!.lines).toEqual([
      { kind: 'whitelist', scope: 'default', entry: 'homework.example', change: 'added' },
      { kind: 'blocklist', scope: 'kids1', entry: 'games.example', change: 'removed' },
    ]);
    expect(historySettingsSchema.parse(values.get('local:historySettings'))).toEqual({
      v: 1,
      retentionDays: 30,
    });
    const job = rollbackJobSchema.parse(values.get(`local:historyRollback:${ACCOUNT}`));
    expect(job).toMatchObject({ next: 1, attempts: 2 });
  });

  it('reads garbage in any of its keys as no history, never as an error', async () => {
    for (const key of Object.keys(fixture.stored).filter(
      (key) => key.includes('history:') || key.includes('historyRecord:'),
    )) {
      const { storage, values } = memoryStorage();
      for (const [k, value] of Object.entries(fixture.stored)) values.set(k, value);
      values.set(key, { v: 99, whatever: true });
      const store = createHistoryStore(historyDeps(storage, () => 0));
      const read = await store.read(ACCOUNT);
      expect(read.length).toBeLessThan(2);
    }
  });
});

const journalFixture = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../fixtures/history/journal-v1.json'), 'utf8'),
) as { stored: Record<string, unknown> };

describe('the journal of this browser’s changes, version 1 as stored', () => {
  it('reads every entry back, and names the matching changes of the history as made here', async () => {
    const { storage, values } = memoryStorage();
    for (const [key, value] of Object.entries({ ...fixture.stored, ...journalFixture.stored }))
      values.set(key, value);
    const journal = createJournal({
      storage,
      exclusively: (_name, fn) => fn(),
      withRoom: (write) => write(),
      retentionDays: async () => 30,
    });
    const entries = await journal.read(ACCOUNT);
    expect(entries).toHaveLength(5);
    expect(entries[1]).toEqual({
      at: 1763860000000,
      kind: 'whitelist',
      scope: 'default',
      entry: 'homework.example',
      op: 'add',
      surface: 'popup',
      page: 'school.example',
    });
    const store = createHistoryStore(historyDeps(storage, () => 1763890000000));
    const rows = attributeChanges(await store.changes(ACCOUNT), {
      form: 'A',
      journal: entries,
      settled: [],
      notes: [],
      rollbacks: [],
    });
    expect(rows.map((row) => [row.entry, row.madeHere])).toEqual([
      ['homework.example', { surface: 'popup', page: 'school.example' }],
      ['games.example', { surface: 'options' }],
    ]);
  });
});
