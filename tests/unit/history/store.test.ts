import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DiffLine, diffSections } from '@/lib/history/diff';
import { canonicalEntries, type Sections, type Snapshot, sectionKey } from '@/lib/history/model';
import { historyHeadKeyOf } from '@/lib/history/schema';
import { createHistoryStore } from '@/lib/history/store';
import { historyDeps, memoryStorage } from './memory-storage';

const DAY = 24 * 60 * 60_000;
const WHITE = sectionKey('whitelist', 'default');
const BLOCK = sectionKey('blocklist', 'kids');

const canonical = (sections: Sections) => JSON.stringify(Object.entries(sections).sort());

const snapshotAt = (day: number, sections: Sections): Snapshot => ({
  takenAt: day * DAY,
  reason: 'daily',
  sections,
});

describe('history store', () => {
  it('gives back any sequence of snapshots exactly, each stored only when it differs from the last', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.dictionary(
            fc.constantFrom(WHITE, BLOCK),
            fc.array(fc.constantFrom('a.com', 'b.org', 'c.net', 'é.de')),
          ),
          { maxLength: 8 },
        ),
        async (raw) => {
          const { storage } = memoryStorage();
          let day = 0;
          const store = createHistoryStore(historyDeps(storage, () => day * DAY));
          const expected: Snapshot[] = [];
          for (const dict of raw) {
            day++;
            const sections = Object.fromEntries(
              Object.entries(dict).map(([k, v]) => [k, canonicalEntries(v)]),
            );
            const snapshot = snapshotAt(day, sections);
            const outcome = await store.add('acc', snapshot, 90);
            const last = expected.at(-1);
            const differs = last === undefined || canonical(last.sections) !== canonical(sections);
            expect(outcome.stored).toBe(differs);
            if (differs) expected.push(snapshot);
          }
          expect((await store.read('acc')).map(({ snapshot }) => snapshot)).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('drops snapshots past the retention, keeps the newest, and the rest still reads exactly', async () => {
    const { storage } = memoryStorage();
    let day = 0;
    const store = createHistoryStore(historyDeps(storage, () => day * DAY));
    const all: Snapshot[] = [];
    for (day = 1; day <= 10; day++) {
      const snapshot = snapshotAt(day, { [WHITE]: [`d${day}.com`, 'keep.com'].sort() });
      all.push(snapshot);
      await store.add('acc', snapshot, 3);
    }
    const kept = (await store.read('acc')).map(({ snapshot }) => snapshot);
    expect(kept).toEqual(all.slice(-4));
    day = 100;
    await store.add('acc', all.at(-1)!, 3);
    expect((await store.read('acc')).map(({ snapshot }) => snapshot)).toEqual([all.at(-1)]);
  });

  it('keeps history within its budget, oldest going first', async () => {
    const { storage } = memoryStorage();
    let day = 0;
    const store = createHistoryStore(historyDeps(storage, () => day * DAY, { budget: 3_000 }));
    for (day = 1; day <= 30; day++) {
      const entries = Array.from(
        { length: 40 },
        (_, i) => `${Math.random().toString(36).slice(2)}${day}-${i}.com`,
      );
      await store.add('acc', snapshotAt(day, { [WHITE]: canonicalEntries(entries) }), 90);
    }
    const summaries = await store.list('acc');
    expect(summaries.reduce((sum, s) => sum + s.size, 0)).toBeLessThanOrEqual(3_000);
    expect(summaries.at(-1)!.takenAt).toBe(30 * DAY);
    expect(summaries.length).toBeLessThan(30);
  });

  it('when storage is full, gives up its oldest snapshots and never what the user typed', async () => {
    const { storage, values } = memoryStorage(9_000);
    values.set('local:listNotes:acc', { v: 1, entries: [{ note: 'x'.repeat(2_000) }] });
    let day = 0;
    const store = createHistoryStore(historyDeps(storage, () => day * DAY, { budget: 1e9 }));
    for (day = 1; day <= 12; day++) {
      const entries = Array.from(
        { length: 40 },
        (_, i) => `${Math.random().toString(36).slice(2)}${day}-${i}.com`,
      );
      await store.add('acc', snapshotAt(day, { [WHITE]: canonicalEntries(entries) }), 90);
    }
    expect(values.get('local:listNotes:acc')).toEqual({ v: 1, entries: [{ note: 'x'.repeat(2_000) }] });
    const kept = await store.read('acc');
    expect(kept.at(-1)!.snapshot.takenAt).toBe(12 * DAY);
    expect(kept.length).toBeLessThan(12);
  });

  it('forgets an account with all its records, and leaves other accounts alone', async () => {
    const { storage, values } = memoryStorage();
    let day = 1;
    const store = createHistoryStore(historyDeps(storage, () => day * DAY));
    await store.add('one', snapshotAt(1, { [WHITE]: ['a.com'] }), 90);
    day = 2;
    await store.add('one', snapshotAt(2, { [WHITE]: ['b.com'] }), 90);
    await store.add('two', snapshotAt(2, { [WHITE]: ['c.com'] }), 90);
    await store.forget('one');
    expect([...values.keys()].filter((key) => key.includes(':one'))).toEqual([]);
    expect(await store.read('two')).toHaveLength(1);
  });

  it('reads a damaged record as the end of the chain, keeping the snapshots before it', async () => {
    const { storage, values } = memoryStorage();
    let day = 1;
    const store = createHistoryStore(historyDeps(storage, () => day * DAY));
    for (day = 1; day <= 3; day++) await store.add('acc', snapshotAt(day, { [WHITE]: [`d${day}.com`] }), 90);
    const head = values.get(historyHeadKeyOf('acc')) as { records: { id: string }[] };
    values.set(`local:historyRecord:acc:${head.records[1]!.id}`, { v: 1, packed: 'not packed' });
    expect((await store.read('acc')).map(({ snapshot }) => snapshot.takenAt)).toEqual([DAY]);
    values.set(historyHeadKeyOf('acc'), 'garbage');
    expect(await store.read('acc')).toEqual([]);
  });
});

describe('history changes', () => {
  it('lists what each snapshot changed, newest first, as the diff of the two snapshots says', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.dictionary(
            fc.constantFrom(WHITE, BLOCK, sectionKey('tlds', 'kids')),
            fc.array(fc.constantFrom('a.com', 'b.org', '.zip')),
          ),
          { minLength: 2, maxLength: 6 },
        ),
        async (raw) => {
          const { storage } = memoryStorage();
          let day = 0;
          const store = createHistoryStore(historyDeps(storage, () => day * DAY));
          for (const dict of raw) {
            day++;
            const sections = Object.fromEntries(
              Object.entries(dict).map(([k, v]) => [k, canonicalEntries(v)]),
            );
            await store.add('acc', snapshotAt(day, sections), 90);
          }
          const snapshots = await store.read('acc');
          const changes = await store.changes('acc');
          expect(changes).toHaveLength(snapshots.length - 1);
          changes.forEach((change, index) => {
            const newer = snapshots[snapshots.length - 1 - index]!;
            const older = snapshots[snapshots.length - 2 - index]!;
            expect(change.id).toBe(newer.id);
            const sort = (lines: DiffLine[]) => lines.map((l) => JSON.stringify(l)).sort();
            expect(sort(change.lines)).toEqual(
              sort(diffSections(older.snapshot.sections, newer.snapshot.sections)),
            );
          });
          const middle = snapshots[Math.floor(snapshots.length / 2)]!;
          expect(await store.snapshotOf('acc', middle.id)).toEqual(middle.snapshot);
        },
      ),
      { numRuns: 40 },
    );
  });
});
