/**
 * What a snapshot of an account holds (docs/history.md, "The snapshot"): every fact as a string in
 * a section, a section being one kind of fact in one scope. Sections are sorted and without
 * duplicates, so two snapshots compare by a merge of sorted arrays and a delta between them is
 * small. A section that is absent is unknown (a TLD block or default block this browser never
 * set); a present, empty one is known to be empty.
 */

/**
 * The kinds of fact. `tlds` and `defaultBlock` come from what this browser set (the API can
 * neither list TLD blocks nor read the default block back), the others from the service.
 */
export const SECTION_KINDS = [
  'profiles',
  'categories',
  'whitelist',
  'blocklist',
  'networks',
  'defaultBlock',
  'tlds',
] as const;
export type SectionKind = (typeof SECTION_KINDS)[number];

/** The entry of a `defaultBlock` section while it is on (the section is empty while off). */
export const DEFAULT_BLOCK_ON = 'on';

/** `{ "<kind>\t<scope>": sorted entries }`; the profile list's scope is empty. */
export type Sections = Record<string, string[]>;

export type SnapshotReason = 'daily' | 'manual' | 'before-rollback' | 'after-rollback';

export interface Snapshot {
  takenAt: number;
  reason: SnapshotReason;
  sections: Sections;
}

const SEPARATOR = '\t';

export const sectionKey = (kind: SectionKind, scope: string): string => `${kind}${SEPARATOR}${scope}`;

export function parseSectionKey(key: string): { kind: SectionKind; scope: string } | null {
  const at = key.indexOf(SEPARATOR);
  if (at === -1) return null;
  const kind = key.slice(0, at);
  if (!(SECTION_KINDS as readonly string[]).includes(kind)) return null;
  return { kind: kind as SectionKind, scope: key.slice(at + 1) };
}

/** Code-unit order: the same in every browser and in Node, whatever the locale. */
export const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Entries as a section keeps them: sorted, each once. */
export function canonicalEntries(entries: Iterable<string>): string[] {
  return [...new Set(entries)].sort(byCodeUnit);
}

/** A network as one entry: its address, then its label when it has one. */
export function networkEntry(ip: string, label: string | undefined): string {
  return label === undefined || label === '' ? ip : `${ip} ${label}`;
}

export function parseNetworkEntry(entry: string): { ip: string; label?: string } {
  const at = entry.indexOf(' ');
  return at === -1 ? { ip: entry } : { ip: entry.slice(0, at), label: entry.slice(at + 1) };
}
