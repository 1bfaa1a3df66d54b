/**
 * Strings by name that a page keeps in its own localStorage for the pages opened after it: the
 * fingerprints of stored values zod accepted (./vouched.ts) and the texts the popup showed
 * (lib/i18n/remembered.ts). A record holds only for its stamp (the build, and whatever else its
 * entries depend on); one of another stamp or shape reads as empty, and the next save replaces it.
 *
 * Zod-free and WXT-free: the popup's first modules read these records.
 */

export interface PageRecordStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface PageRecord {
  /** The entries stored for this stamp (none when missing, foreign, malformed or over `max`). */
  read(): Map<string, string>;
  /**
   * Saves `added` into what is stored now, read again (a page open for long must not undo what
   * other pages saved meanwhile): `added` become the newest entries, and the oldest beyond `max`
   * are dropped. Returns the entries saved. Never throws: without a writable localStorage the
   * next page simply finds nothing.
   */
  save(added: ReadonlyMap<string, string>): Map<string, string>;
}

/**
 * The record at `key` of `store`, stamped with `stamp`, its entries under `field`
 * (`{ ...stamp, [field]: { name: value } }`), at most `max` of them.
 */
export function pageRecord(
  store: PageRecordStore,
  key: string,
  stamp: Readonly<Record<string, string>>,
  field: string,
  max: number,
): PageRecord {
  const read = (): Map<string, string> => {
    try {
      const parsed: unknown = JSON.parse(store.getItem(key) ?? 'null');
      if (typeof parsed !== 'object' || parsed === null) return new Map();
      const record = parsed as Record<string, unknown>;
      if (Object.entries(stamp).some(([name, value]) => record[name] !== value)) return new Map();
      const entries = record[field];
      if (typeof entries !== 'object' || entries === null || Array.isArray(entries)) return new Map();
      const strings = Object.entries(entries).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      );
      return strings.length > max ? new Map() : new Map(strings);
    } catch {
      return new Map();
    }
  };
  return {
    read,
    save(added) {
      const merged = read();
      for (const [name, value] of added) {
        merged.delete(name);
        merged.set(name, value);
      }
      const kept = new Map([...merged].slice(Math.max(0, merged.size - max)));
      try {
        store.setItem(key, JSON.stringify({ ...stamp, [field]: Object.fromEntries(kept) }));
      } catch {
        // Full or disabled: the next page finds nothing, and does without.
      }
      return kept;
    },
  };
}
