/**
 * The difference between two snapshots, line by line (docs/history.md, "The diff"). Sections are
 * sorted (./model.ts), so each is compared by one merge: linear in the entries, no Set of 200,000
 * strings built on the options page.
 */
import { byCodeUnit, parseSectionKey, type SectionKind, type Sections } from './model';

export interface DiffLine {
  kind: SectionKind;
  /** The profile (Form A), the account (Form B), or empty for the profile list. */
  scope: string;
  entry: string;
  /** Present in the newer snapshot and not in the older (`added`), or the other way round. */
  change: 'added' | 'removed';
}

/** Entries of sorted `newer` not in sorted `older` (`added`) and the other way round (`removed`). */
export function mergeDiff(
  older: readonly string[],
  newer: readonly string[],
): { added: string[]; removed: string[] } {
  const added: string[] = [];
  const removed: string[] = [];
  let i = 0;
  let j = 0;
  while (i < older.length && j < newer.length) {
    const a = older[i]!;
    const b = newer[j]!;
    if (a === b) {
      i++;
      j++;
    } else if (byCodeUnit(a, b) < 0) {
      removed.push(a);
      i++;
    } else {
      added.push(b);
      j++;
    }
  }
  for (; i < older.length; i++) removed.push(older[i]!);
  for (; j < newer.length; j++) added.push(newer[j]!);
  return { added, removed };
}

/**
 * What changed from `older` to `newer`. A section unknown on either side (absent) gives no
 * lines: a TLD block this browser never knew of is not a change. The order is stable: by
 * section key, removals before additions, entries sorted.
 */
export function diffSections(older: Sections, newer: Sections): DiffLine[] {
  const keys = [...new Set([...Object.keys(older), ...Object.keys(newer)])].sort(byCodeUnit);
  const lines: DiffLine[] = [];
  for (const key of keys) {
    const parsed = parseSectionKey(key);
    if (parsed === null) continue;
    const before = older[key];
    const after = newer[key];
    const knownOnlyHere = parsed.kind === 'tlds' || parsed.kind === 'defaultBlock';
    if (knownOnlyHere && (before === undefined || after === undefined)) continue;
    const { added, removed } = mergeDiff(before ?? [], after ?? []);
    for (const entry of removed) lines.push({ ...parsed, entry, change: 'removed' });
    for (const entry of added) lines.push({ ...parsed, entry, change: 'added' });
  }
  return lines;
}
