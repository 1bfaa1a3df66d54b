/**
 * Where a scope's cached whitelist and blocklist are stored: a head under `cachedLists:<scope>`
 * naming the buckets that have entries, and each bucket under its own key (./list-buckets.ts), so
 * the popup reads only the one or two its site needs. One key per scope, made when asked for, and
 * no fallback value: a missing or unreadable view (an earlier shape included) reads as null, which
 * means "fetch it".
 *
 * `getValue` reads the whole lists (the options page and the worker, through `applyChanges`);
 * `getBuckets` only some (the popup). A version-3 view (the whole lists under the scope's key) is
 * read as it is and stored again in buckets.
 */
import { readRaw, removeRaw, writeRaw } from '@/lib/settings/item';
import * as shapes from '@/lib/settings/shapes';
import { type CachedLists, loadSchemas } from '@/lib/settings/storage';
import {
  bucketKey,
  CACHED_LISTS_PREFIX,
  joinBuckets,
  type PackedLists,
  SINGLE_LABEL_BUCKET,
  splitIntoBuckets,
} from './list-buckets';

const ALL_BUCKETS = Array.from({ length: SINGLE_LABEL_BUCKET + 1 }, (_, bucket) => bucket);

/** Some buckets of a scope's lists, joined (`buckets` names them; null: the whole lists). */
export type CachedListsPart = CachedLists & { buckets: readonly number[] | null };

interface ListsHead {
  account: string;
  fetchedAt: number;
  buckets: number[];
}

export function cachedListsItem(scope: string) {
  const name = `${CACHED_LISTS_PREFIX}${scope}`;

  /** The storage entries of `buckets`, each with the fetch time of the lists it was cut from. */
  const bucketEntries = (buckets: Map<number, PackedLists>, fetchedAt: number) =>
    Object.fromEntries(
      [...buckets].map(([bucket, lists]) => [bucketKey(scope, bucket), { fetchedAt, ...lists }]),
    );

  async function write(value: CachedLists): Promise<void> {
    const checked = (await loadSchemas()).cachedListsSchema.parse(value);
    const buckets = splitIntoBuckets(checked);
    const head: ListsHead = {
      account: checked.account,
      fetchedAt: checked.fetchedAt,
      buckets: [...buckets.keys()].sort((a, b) => a - b),
    };
    // One write for the head and its buckets (atomic in both browsers); buckets left from an
    // earlier fetch are not named by the new head, and go afterwards.
    await writeRaw('local', {
      [name]: head,
      ...bucketEntries(buckets, checked.fetchedAt),
    });
    const unused = ALL_BUCKETS.filter((bucket) => !buckets.has(bucket)).map((bucket) =>
      bucketKey(scope, bucket),
    );
    await removeRaw('local', unused);
  }

  const headOf = (raw: unknown): ListsHead | null => (shapes.listsHead(raw) ? (raw as ListsHead) : null);

  /** The head and the named buckets (null: all the head names); null when any is unusable. */
  async function read(wanted: readonly number[] | null): Promise<CachedListsPart | null> {
    const rawHead = (await readRaw('local', [name]))[name];
    const head = headOf(rawHead);
    if (head === null) {
      // Version 3: the whole lists under the scope's key, stored again in buckets, once (a failed
      // write only means the same conversion next time).
      if (!shapes.wholeLists(rawHead)) return null;
      const whole = rawHead as CachedLists;
      await write(whole).catch(() => undefined);
      if (wanted === null) return { ...whole, buckets: null };
      const buckets = splitIntoBuckets(whole);
      const lists = joinBuckets(wanted.flatMap((bucket) => buckets.get(bucket) ?? []));
      return { account: whole.account, fetchedAt: whole.fetchedAt, ...lists, buckets: wanted };
    }
    const { account, fetchedAt, buckets: filled } = head;
    const reading = (wanted ?? filled).filter((bucket) => filled.includes(bucket));
    const raw = await readRaw(
      'local',
      reading.map((bucket) => bucketKey(scope, bucket)),
    );
    const parts: PackedLists[] = [];
    for (const bucket of reading) {
      const part = raw[bucketKey(scope, bucket)];
      if (!shapes.listsBucket(part)) return null;
      const { fetchedAt: partFetchedAt, whitelist, blocklist } = part as PackedLists & { fetchedAt: number };
      if (partFetchedAt !== fetchedAt) return null;
      parts.push({ whitelist, blocklist });
    }
    return { account, fetchedAt, ...joinBuckets(parts), buckets: wanted };
  }

  return {
    key: `local:${name}` as const,
    /** The whole lists. */
    async getValue(): Promise<CachedLists | null> {
      const whole = await read(null);
      if (whole === null) return null;
      const { account, fetchedAt, whitelist, blocklist } = whole;
      return { account, fetchedAt, whitelist, blocklist };
    },
    /** Only the entries of `buckets` (./list-buckets.ts `bucketsFor`). */
    getBuckets: (buckets: readonly number[]): Promise<CachedListsPart | null> => read(buckets),
    setValue: write,
    /**
     * Replaces the entries of the buckets `part` names (read with `getBuckets`, then changed),
     * keeping the rest; false when the stored view is no longer the one `part` was read from.
     */
    async replaceBuckets(part: CachedListsPart & { buckets: readonly number[] }): Promise<boolean> {
      const head = headOf((await readRaw('local', [name]))[name]);
      if (head === null || head.fetchedAt !== part.fetchedAt || head.account !== part.account) return false;
      const buckets = splitIntoBuckets(part);
      if ([...buckets.keys()].some((bucket) => !part.buckets.includes(bucket)))
        throw new Error('entries outside the buckets read');
      const filled = new Set(head.buckets.filter((bucket) => !part.buckets.includes(bucket)));
      for (const bucket of buckets.keys()) filled.add(bucket);
      await writeRaw('local', {
        [name]: { ...head, buckets: [...filled].sort((a, b) => a - b) },
        ...bucketEntries(buckets, part.fetchedAt),
      });
      return true;
    },
    async removeValue(): Promise<void> {
      await removeRaw('local', [name, ...ALL_BUCKETS.map((bucket) => bucketKey(scope, bucket))]);
    },
  };
}
