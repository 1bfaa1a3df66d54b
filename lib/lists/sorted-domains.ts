/**
 * A domain list kept sorted, so a 10,000-entry list is sorted once on load and each later change
 * costs one binary search instead of a full re-sort.
 */

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

export function compareDomains(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** A sorted copy without duplicates. */
export function sortDomains(domains: Iterable<string>): string[] {
  return [...new Set(domains)].sort(compareDomains);
}

function lowerBound(sorted: readonly string[], domain: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareDomains(sorted[middle]!, domain) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** A new sorted array with `domain` added (unchanged array when it is already there). */
export function withDomain(sorted: readonly string[], domain: string): readonly string[] {
  const index = lowerBound(sorted, domain);
  if (sorted[index] === domain) return sorted;
  return [...sorted.slice(0, index), domain, ...sorted.slice(index)];
}

/** A new sorted array without `domain` (unchanged array when it is not there). */
export function withoutDomain(sorted: readonly string[], domain: string): readonly string[] {
  const index = lowerBound(sorted, domain);
  if (sorted[index] !== domain) return sorted;
  return [...sorted.slice(0, index), ...sorted.slice(index + 1)];
}

/**
 * Entries containing what the user typed in the filter box, in list order. Case-insensitive;
 * a pasted URL or a trailing dot still matches the domain. An empty filter returns the list itself.
 */
export function filterDomains(sorted: readonly string[], query: string): readonly string[] {
  const needle = query
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/[/?#].*$/, '')
    .replace(/\.$/, '');
  if (needle === '') return sorted;
  return sorted.filter((domain) => domain.includes(needle));
}

/** Domains found on both lists, sorted; the whitelist wins for them (docs/service-api.md). */
export function domainsOnBothLists(whitelist: readonly string[], blocklist: readonly string[]): string[] {
  const [smaller, larger] =
    whitelist.length <= blocklist.length ? [whitelist, blocklist] : [blocklist, whitelist];
  const inLarger = new Set(larger);
  return sortDomains(smaller.filter((domain) => inLarger.has(domain)));
}
