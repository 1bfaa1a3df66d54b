/**
 * The cached lists of a scope are stored in buckets, so the popup reads only what its site needs
 * (a few kB) rather than both whole lists (about 3 MB at 2 × 100,000 entries, whose reading
 * alone would make a large account's popup slow; docs/performance.md).
 *
 * An entry goes to the bucket of its last two labels (`a.b.example.com` → `example.com`), one of
 * `HASHED_BUCKETS`; an entry of one label (`com`) to the bucket of its own. The entries that can
 * cover a host are the host and its parents (lib/filtering/domain-index.ts), and all of them share
 * the host's last two labels except the single label at the end: any host needs at most two
 * buckets (`bucketsFor`). No Public Suffix List: `co.uk` is "the last two labels" of every
 * `*.co.uk`, which only makes that bucket larger.
 *
 * Pure, and imported relatively: the bench (scripts/bench, plain Node) lays out its large lists
 * with the same functions.
 */
import { canonicalHost, unpackDomains } from '../filtering/domain-index';

/** Buckets for names of two labels or more. */
const HASHED_BUCKETS = 64;
/** The bucket of single-label entries (TLDs). */
export const SINGLE_LABEL_BUCKET = HASHED_BUCKETS;

/**
 * Where one account's lists of one scope are stored (./cached-lists.ts): the scope and the account
 * both name it, so switching between two accounts (lib/accounts) keeps each one's lists instead of
 * one fetch replacing the other's. The budget (./storage-room.ts) counts them all together.
 */
export const listsStorageScope = (scope: string, account: string) => `${scope} ${account}`;

/** The storage name of a scope's head (./cached-lists.ts), before its storage scope. */
export const CACHED_LISTS_PREFIX = 'cachedLists:';

/** Every stored bucket's key starts with this (lib/cache/storage-room.ts frees them all). */
export const CACHED_LISTS_BUCKET_PREFIX = 'cachedListsBucket:';

/**
 * Where a scope's bucket is stored in `storage.local` (lib/settings/storage.ts): the bucket
 * first, so no profile name can make one scope's key another's.
 */
export const bucketKey = (scope: string, bucket: number) =>
  `${CACHED_LISTS_BUCKET_PREFIX}${bucket}:${scope}` as const;

/** 32-bit FNV-1a of a string's UTF-16 code units: stable across browsers and releases. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The bucket of a canonical name (lib/filtering/domain-index.ts `canonicalHost`). */
export function bucketOf(canonical: string): number {
  const last = canonical.lastIndexOf('.');
  if (last < 0) return SINGLE_LABEL_BUCKET;
  const secondLast = canonical.lastIndexOf('.', last - 1);
  return fnv1a(canonical.slice(secondLast + 1)) % HASHED_BUCKETS;
}

/** The buckets holding every entry that could cover or be any of `hosts`, in ascending order. */
export function bucketsFor(hosts: Iterable<string>): number[] {
  const buckets = new Set<number>();
  for (const host of hosts) {
    const canonical = canonicalHost(host);
    if (canonical === '') continue;
    buckets.add(bucketOf(canonical));
    if (canonical.includes('.')) buckets.add(SINGLE_LABEL_BUCKET);
  }
  return [...buckets].sort((a, b) => a - b);
}

/** True when the entries of `buckets` answer every question about `domain` (null: all of them). */
export function bucketsCover(buckets: readonly number[] | null | undefined, domain: string): boolean {
  if (buckets === null || buckets === undefined) return true;
  return bucketsFor([domain]).every((bucket) => buckets.includes(bucket));
}

export interface PackedLists {
  whitelist: string;
  blocklist: string;
}

/**
 * Splits packed lists (canonical, sorted, one per line) into buckets, each packed the same way:
 * a sorted list stays sorted when filtered. Empty buckets are left out.
 */
export function splitIntoBuckets(lists: PackedLists): Map<number, PackedLists> {
  const lines = new Map<number, { whitelist: string[]; blocklist: string[] }>();
  for (const list of ['whitelist', 'blocklist'] as const) {
    for (const entry of unpackDomains(lists[list])) {
      const bucket = bucketOf(entry);
      const entries = lines.get(bucket) ?? { whitelist: [], blocklist: [] };
      lines.set(bucket, entries);
      entries[list].push(entry);
    }
  }
  return new Map(
    [...lines].map(([bucket, entries]) => [
      bucket,
      { whitelist: entries.whitelist.join('\n'), blocklist: entries.blocklist.join('\n') },
    ]),
  );
}

/** Several buckets' lists as one packed pair (sorted again, by code units: buckets interleave). */
export function joinBuckets(parts: Iterable<PackedLists>): PackedLists {
  const all = [...parts];
  if (all.length === 1) return { whitelist: all[0]!.whitelist, blocklist: all[0]!.blocklist };
  const join = (list: keyof PackedLists) =>
    all
      .flatMap((part) => unpackDomains(part[list]))
      .sort()
      .join('\n');
  return { whitelist: join('whitelist'), blocklist: join('blocklist') };
}
