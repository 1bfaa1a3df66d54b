/**
 * Snapshots stored as deltas (docs/history.md, "Deltas"): the oldest kept snapshot whole, each
 * later one as the sections that changed since the one before. Pure: ./store.ts stores them.
 */
import { mergeDiff } from './diff';
import type { Sections, Snapshot } from './model';

export interface SectionDelta {
  add: string[];
  remove: string[];
}

export interface Delta {
  /** Sections changed or newly present: applied to the earlier entries (none when absent before). */
  changed: Record<string, SectionDelta>;
  /** Sections present before and absent now. */
  dropped: string[];
}

/** The delta from `older` to `newer`; null when they hold the same. */
export function deltaBetween(older: Sections, newer: Sections): Delta | null {
  const changed: Record<string, SectionDelta> = {};
  const dropped: string[] = [];
  let any = false;
  for (const [key, after] of Object.entries(newer)) {
    const before = older[key];
    const { added, removed } = mergeDiff(before ?? [], after);
    if (before === undefined || added.length > 0 || removed.length > 0) {
      changed[key] = { add: added, remove: removed };
      any = true;
    }
  }
  for (const key of Object.keys(older)) {
    if (!(key in newer)) {
      dropped.push(key);
      any = true;
    }
  }
  return any ? { changed, dropped } : null;
}

/** Merges sorted `entries` with sorted `add`, leaving out sorted `remove`. */
function applySection(entries: readonly string[], change: SectionDelta): string[] {
  const remove = new Set(change.remove);
  const kept = remove.size === 0 ? entries : entries.filter((entry) => !remove.has(entry));
  if (change.add.length === 0) return [...kept];
  const result: string[] = [];
  let i = 0;
  let j = 0;
  while (i < kept.length && j < change.add.length) {
    if (kept[i]! < change.add[j]!) result.push(kept[i++]!);
    else result.push(change.add[j++]!);
  }
  while (i < kept.length) result.push(kept[i++]!);
  while (j < change.add.length) result.push(change.add[j++]!);
  return result;
}

/** `sections` with `delta` applied (a new object; `sections` is not changed). */
export function applyDelta(sections: Sections, delta: Delta): Sections {
  const result: Sections = { ...sections };
  for (const key of delta.dropped) delete result[key];
  for (const [key, change] of Object.entries(delta.changed)) {
    result[key] = applySection(sections[key] ?? [], change);
  }
  return result;
}

/** One stored step: the first is whole, the others deltas. */
export type ChainRecord = Pick<Snapshot, 'takenAt' | 'reason'> & ({ whole: Sections } | { delta: Delta });

/** The records of `snapshots`, oldest first, leaving out each one equal to the one before. */
export function toChain(snapshots: readonly Snapshot[]): ChainRecord[] {
  const records: ChainRecord[] = [];
  let previous: Sections | null = null;
  for (const { takenAt, reason, sections } of snapshots) {
    if (previous === null) {
      records.push({ takenAt, reason, whole: sections });
    } else {
      const delta = deltaBetween(previous, sections);
      if (delta === null) continue;
      records.push({ takenAt, reason, delta });
    }
    previous = sections;
  }
  return records;
}

/** The sections `record` holds, given those of the record before it. */
export const sectionsOf = (record: ChainRecord, previous: Sections): Sections =>
  'whole' in record ? record.whole : applyDelta(previous, record.delta);

/** The snapshots the records hold, oldest first. */
export function fromChain(records: readonly ChainRecord[]): Snapshot[] {
  const snapshots: Snapshot[] = [];
  let previous: Sections = {};
  for (const record of records) {
    const sections = sectionsOf(record, previous);
    snapshots.push({ takenAt: record.takenAt, reason: record.reason, sections });
    previous = sections;
  }
  return snapshots;
}
