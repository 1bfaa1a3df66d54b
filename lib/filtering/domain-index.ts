/**
 * Which list entry covers a host. An entry covers the domain itself and every subdomain
 * (docs/service-api.md), so the entries that can cover `a.b.example.com` are exactly that name and its
 * parents: looking each of them up costs one search per label, whatever the list size
 * (a list may hold 100,000 entries; a linear scan per popup opening would be felt). The list is
 * kept sorted and packed in one string, so each lookup is a binary search and the popup builds
 * nothing when it opens.
 */

const PLAIN_ASCII_HOST = /^[a-z0-9_.-]+$/;

/**
 * The form list entries and page hosts are compared in: lower case, punycode for IDNs, no
 * trailing dot. Returns '' for something that is not a host name.
 */
export function canonicalHost(value: string): string {
  let host = value.trim();
  while (host.endsWith('.')) host = host.slice(0, -1);
  if (PLAIN_ASCII_HOST.test(host)) return host;
  const lower = host.toLowerCase();
  if (PLAIN_ASCII_HOST.test(lower)) return lower;
  try {
    // The WHATWG URL parser applies IDNA (Unicode -> punycode) and lower-cases.
    return new URL(`http://${host}`).hostname.replace(/\.+$/, '');
  } catch {
    return '';
  }
}

/** Each name the entry could be: the host itself, then every parent, shortest last. */
export function* selfAndParents(host: string): Generator<string> {
  let name = host;
  while (name !== '') {
    yield name;
    const dot = name.indexOf('.');
    if (dot < 0) return;
    name = name.slice(dot + 1);
  }
}

export interface DomainIndex {
  /** The entry (canonical spelling) covering `host`, the most specific one, if any. */
  covering(host: string): string | undefined;
  /** True when `domain` itself is an entry (not merely covered by a parent entry). */
  has(domain: string): boolean;
}

/** Entries canonical, without duplicates, in code-unit order. */
export function canonicalSortedDomains(entries: Iterable<string>): string[] {
  const unique = new Set<string>();
  for (const entry of entries) {
    const canonical = canonicalHost(entry);
    if (canonical !== '') unique.add(canonical);
  }
  // Sorting without a compare function orders strings by UTF-16 code units, as `<` compares them.
  return [...unique].sort();
}

/**
 * A list packed for storage and lookup: canonical sorted entries joined by line breaks. Done once
 * when a list is fetched. Reading one string back is far cheaper than reading and checking an
 * array of 100,000 strings, and `packedDomainIndex` searches it where it lies.
 */
export function packDomains(entries: Iterable<string>): string {
  return canonicalSortedDomains(entries).join('\n');
}

export function unpackDomains(packed: string): string[] {
  return packed === '' ? [] : packed.split('\n');
}

/**
 * An index over a packed list: a binary search over its lines for the host and each parent,
 * O(labels x log n) with nothing built and nothing copied, so the popup answers at once even for
 * 100,000 entries. Any string is safe to search (the search always ends); a list that is not in
 * packed order only gives wrong answers until the next fetch replaces it.
 */
export function packedDomainIndex(packed: string): DomainIndex {
  const contains = (name: string): boolean => {
    // [low, high) is a run of whole lines: low is a line start, high a line start or the end.
    let low = 0;
    let high = packed.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const start = packed.lastIndexOf('\n', middle - 1) + 1;
      const newline = packed.indexOf('\n', start);
      const end = newline < 0 ? packed.length : newline;
      const line = packed.slice(start, end);
      if (line === name) return true;
      if (line < name) low = end + 1;
      else high = start;
    }
    return false;
  };
  return indexOver(contains);
}

/** The index whose entries are the canonical names `isEntry` holds. */
function indexOver(isEntry: (name: string) => boolean): DomainIndex {
  return {
    covering(host) {
      const canonical = canonicalHost(host);
      if (canonical === '') return undefined;
      for (const name of selfAndParents(canonical)) if (isEntry(name)) return name;
      return undefined;
    },
    has(domain) {
      const canonical = canonicalHost(domain);
      return canonical !== '' && isEntry(canonical);
    },
  };
}

export function createDomainIndex(entries: Iterable<string>): DomainIndex {
  return packedDomainIndex(packDomains(entries));
}

/**
 * The index as it will be once changes not yet confirmed by the service are applied (changes
 * waiting in the worker's outbox, or confirmed since the list was fetched), without rebuilding
 * a large index. `added` and `removed` are the net effect: a domain in both counts as removed.
 */
export function withChanges(
  base: DomainIndex,
  changes: { added: Iterable<string>; removed: Iterable<string> },
): DomainIndex {
  const removed = new Set([...changes.removed].map(canonicalHost));
  const added = new Set([...changes.added].map(canonicalHost).filter((name) => !removed.has(name)));
  if (added.size === 0 && removed.size === 0) return base;
  return indexOver((name) => added.has(name) || (!removed.has(name) && base.has(name)));
}
