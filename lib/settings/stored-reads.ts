/**
 * Reading stored values: several items in one storage round trip, and the answers the popup's
 * first script already asked for (lib/popup/early-reads.ts) instead of asking again.
 */
import { type StorageItemKey, storage } from 'wxt/utils/storage';
import { askForKeys, createEarlyReadSource, readStorage } from '@/lib/popup/early-reads';
import { auditMirror, type MirrorArea, type MirrorOutcome } from '@/lib/popup/start-mirror';

/** Answers the popup's classic script already asked for (lib/popup/early-reads.ts); other pages have none. */
const earlyReads = createEarlyReadSource();

const readNow = async (keys: string[]) => {
  const answers = await askForKeys(keys as StorageItemKey[], (some) => storage.getItems(some));
  return new Map(answers.flat().map(({ key, value }) => [key, value] as const));
};

/**
 * Raw stored values of `keys` in one storage round trip (or none, when they were read early): one
 * call, or in Firefox one call per key, all at once (`askForKeys`).
 */
function readStored(keys: readonly StorageItemKey[]): Promise<Map<string, unknown>> {
  return earlyReads.read(keys, readNow);
}

/** One raw stored value, null when nothing is stored; for items not made by `defineValidatedItem`. */
export async function readStoredValue(key: StorageItemKey): Promise<unknown> {
  return (await readStored([key])).get(key) ?? null;
}

/** Raw stored values of several keys in one round trip; for items not made by `defineValidatedItem`. */
export function readStoredValues(keys: readonly StorageItemKey[]): Promise<Map<string, unknown>> {
  return keys.length === 0 ? Promise.resolve(new Map()) : readStored(keys);
}

/** The storage keys this page has read so far (the popup takes them when its first view is set). */
export function storageKeysReadSoFar(): readonly string[] {
  return earlyReads.readSoFar();
}

/**
 * The API key's fingerprint as the popup's start mirror holds it (null: no key is set), or
 * undefined when the mirror did not answer for it (lib/popup/start-mirror.ts).
 */
export function startKeyFingerprint(): Promise<string | null | undefined> {
  return earlyReads.keyFingerprint();
}

/**
 * Settles once storage has answered what the popup's start mirror is compared with: the popup
 * writes a key it read at start only after that (lib/popup/start-mirror.ts).
 */
export function startComparisonRead(): Promise<void> {
  return earlyReads.comparedReadDone();
}

/** Keeps `keys` (from `storageKeysReadSoFar`) for the next opening's early reads. */
export function rememberEarlyReads(
  hints: Pick<Storage, 'getItem' | 'setItem'> | undefined,
  keys: readonly string[],
): void {
  if (hints) earlyReads.remember(hints, keys);
}

/**
 * Compares what the popup's start mirror answered with storage (lib/popup/start-mirror.ts) and
 * mirrors storage where they differ: `stale` when the popup showed a value storage no longer holds.
 */
export async function auditStartMirror(areas: {
  session: MirrorArea;
  local: { get(keys: string[]): Promise<Record<string, unknown>> };
}): Promise<MirrorOutcome> {
  const checks = await earlyReads.mirrorChecks();
  const { session, local } = areas;
  // Raw answers, unchecked like the first script's, but in one get: nothing waits for any one key's.
  const readStored = (keys: readonly string[]) => readStorage(local, keys, 'together');
  const outcomes = await Promise.all(checks.map((check) => auditMirror(check, { session, readStored })));
  return OUTCOME_ORDER.find((outcome) => outcomes.includes(outcome)) ?? 'unchecked';
}

/** The outcome of several batches: the first of these any batch had. */
const OUTCOME_ORDER: readonly MirrorOutcome[] = ['stale', 'filled', 'fresh', 'unchecked'];

/** What `getValues` needs of an item (lib/settings/validated-item.ts `ValidatedItem`). */
interface BatchReadable<T> {
  readonly key: StorageItemKey;
  /** The stored shape's version: with `migrates`, a value stored in it needs no migration. */
  readonly version?: number;
  readonly migrates?: boolean;
  /** True when `raw` is exactly a value this build accepted for this item (./vouched.ts). */
  isVouched?(raw: unknown): boolean;
  check(raw: unknown): Promise<T>;
  getValue(): Promise<T>;
}

type ValuesOf<Items extends readonly BatchReadable<unknown>[]> = {
  -readonly [I in keyof Items]: Items[I] extends BatchReadable<infer T> ? T : never;
};

/** Where WXT keeps an item's version record (`{ v }`): the item's key and `$`. */
const versionKey = (key: StorageItemKey) => `${key}$` as StorageItemKey;

/** True when `record` is a version record (`{ v }`) of `version`. */
const isVersion = (record: unknown, version: number | undefined) =>
  typeof record === 'object' && record !== null && (record as { v?: unknown }).v === version;

/**
 * The values of several items in one storage round trip (one `get` per area), each checked like
 * `getValue`. Nothing stored needs no migration, and neither does a value this build accepted
 * unchanged before (./vouched.ts: it was read in the current shape, after any migration). Only
 * another value of an item with migrations has its version record read, on its own: in its
 * current shape it is used as read, else it is read again so its migrations run first. Reading
 * every version record with the values cost Firefox's popup an IndexedDB request each
 * (docs/architecture.md, "Where the popup's time goes").
 */
export async function getValues<const Items extends readonly BatchReadable<unknown>[]>(
  items: Items,
): Promise<ValuesOf<Items>> {
  const read = await readStored(items.map((item) => item.key));
  return Promise.all(
    items.map(async (item) => {
      const raw = read.get(item.key) ?? null;
      if (!item.migrates || raw === null) return item.check(raw);
      if (item.isVouched?.(raw)) return raw;
      const record = await readStoredValue(versionKey(item.key));
      return isVersion(record, item.version) ? item.check(raw) : item.getValue();
    }),
  ) as Promise<ValuesOf<Items>>;
}
