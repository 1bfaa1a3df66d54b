import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyDelta, deltaBetween, fromChain, toChain } from '@/lib/history/chain';
import { diffSections } from '@/lib/history/diff';
import { canonicalEntries, type Sections, type Snapshot, sectionKey } from '@/lib/history/model';

const keys = [
  sectionKey('whitelist', 'default'),
  sectionKey('blocklist', 'default'),
  sectionKey('categories', 'kids'),
  sectionKey('profiles', ''),
  sectionKey('tlds', 'kids'),
  sectionKey('defaultBlock', 'kids'),
];

/** Any sections: some keys absent, some empty, entries including odd characters. */
const sectionsArb: fc.Arbitrary<Sections> = fc
  .dictionary(fc.constantFrom(...keys), fc.array(fc.string({ maxLength: 6 }), { maxLength: 12 }))
  .map((raw) =>
    Object.fromEntries(Object.entries(raw).map(([key, entries]) => [key, canonicalEntries(entries)])),
  );

const snapshotsArb = fc
  .array(sectionsArb, { maxLength: 12 })
  .map((all) =>
    all.map((sections, index): Snapshot => ({ takenAt: 1_000 + index, reason: 'daily', sections })),
  );

/** Snapshots the store keeps: each one differing from the one before. */
function distinct(snapshots: Snapshot[]): Snapshot[] {
  return snapshots.filter(
    (snapshot, index) =>
      index === 0 || JSON.stringify(snapshot.sections) !== JSON.stringify(snapshots[index - 1]!.sections),
  );
}

describe('history deltas', () => {
  it('any sequence of snapshots comes back exactly from its deltas', () => {
    fc.assert(
      fc.property(snapshotsArb, (snapshots) => {
        expect(fromChain(toChain(snapshots))).toEqual(distinct(snapshots));
      }),
    );
  });

  it('a delta applied to the older sections gives the newer, absent and empty sections kept apart', () => {
    fc.assert(
      fc.property(sectionsArb, sectionsArb, (older, newer) => {
        const delta = deltaBetween(older, newer);
        expect(delta === null ? older : applyDelta(older, delta)).toEqual(newer);
      }),
    );
  });

  it('stores no record for a snapshot equal to the one before', () => {
    const sections = { [sectionKey('whitelist', 'default')]: ['a.com'] };
    const chain = toChain([
      { takenAt: 1, reason: 'daily', sections },
      { takenAt: 2, reason: 'manual', sections: { ...sections } },
    ]);
    expect(chain).toHaveLength(1);
  });
});

describe('history diff', () => {
  it('lists every entry on one side only, and nothing on both', () => {
    fc.assert(
      fc.property(sectionsArb, sectionsArb, (older, newer) => {
        const lines = diffSections(older, newer);
        for (const line of lines) {
          const key = sectionKey(line.kind, line.scope);
          const inOlder = (older[key] ?? []).includes(line.entry);
          const inNewer = (newer[key] ?? []).includes(line.entry);
          expect(line.change === 'added' ? inNewer && !inOlder : inOlder && !inNewer).toBe(true);
        }
        // Every difference in a list the service gives is a line.
        for (const key of [keys[0]!, keys[1]!]) {
          const a = new Set(older[key] ?? []);
          const b = new Set(newer[key] ?? []);
          const expected = [...a].filter((x) => !b.has(x)).length + [...b].filter((x) => !a.has(x)).length;
          expect(lines.filter((line) => sectionKey(line.kind, line.scope) === key)).toHaveLength(expected);
        }
      }),
    );
  });

  it('says nothing of a TLD block this browser did not know of on one side', () => {
    const tlds = sectionKey('tlds', 'kids');
    expect(diffSections({}, { [tlds]: ['.zip'] })).toEqual([]);
    expect(diffSections({ [tlds]: [] }, { [tlds]: ['.zip'] })).toEqual([
      { kind: 'tlds', scope: 'kids', entry: '.zip', change: 'added' },
    ]);
  });

  it('compares two snapshots of 2 × 100,000 entries quickly', () => {
    const make = (offset: number) =>
      canonicalEntries(Array.from({ length: 100_000 }, (_, i) => `site${i + offset}.example.com`));
    const older = { [keys[0]!]: make(0), [keys[1]!]: make(500_000) };
    const newer = { [keys[0]!]: make(1_000), [keys[1]!]: make(500_000) };
    const started = performance.now();
    const lines = diffSections(older, newer);
    const took = performance.now() - started;
    expect(lines).toHaveLength(2_000);
    // A bound a quadratic comparison could never meet, loose enough for a busy shared machine; the
    // bench measures the real figure (docs/history.md, "The diff").
    expect(took).toBeLessThan(5_000);
  });
});
