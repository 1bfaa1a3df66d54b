/**
 * Reading stored values: several items in one storage round trip, and the answers the popup's
 * first script already asked for (lib/popup/early-reads.ts) instead of asking again.
 */
import { type StorageItemKey, storage } from 'wxt/utils/storage';
import { askForKeys, createEarlyReadSource } from '@/lib/popup/early-reads';

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

/** Keeps `keys` (from `storageKeysReadSoFar`) for the next opening's early reads. */
export function rememberEarlyReads(
  hints: Pick<Storage, 'getItem' | 'setItem'> | undefined,
  keys: readonly string[],
): void {
  if (hints) earlyReads.remember(hints, keys);
}

/** What `getValues` needs of an item (lib/settings/validated-item.ts `ValidatedItem`). */
interface BatchReadable<T> {
  readonly key: StorageItemKey;
  /** The stored shape's version: with `migrates`, a value stored in it needs no migration. */
  readonly version?: number;
  readonly migrates?: boolean;
  check(raw: unknown): Promise<T>;
  getValue(): Promise<T>;
}

type ValuesOf<Items extends readonly BatchReadable<unknown>[]> = {
  -readonly [I in keyof Items]: Items[I] extends BatchReadable<infer T> ? T : never;
};

/** Where WXT keeps an item's version record (`{ v }`): the item's key and `$`. */
const versionKey = (key: StorageItemKey) => `${key}$` as StorageItemKey;

/**
 * The values of several items in one storage round trip (one `get` per area), each checked like
 * `getValue`. An item with migrations is read with its version record in the same round trip:
 * nothing stored, or a value already in the current shape, is used as read; anything else is read
 * on its own, so its migrations run first.
 */
export async function getValues<const Items extends readonly BatchReadable<unknown>[]>(
  items: Items,
): Promise<ValuesOf<Items>> {
  const keys = items.flatMap((item) => (item.migrates ? [item.key, versionKey(item.key)] : [item.key]));
  const read = await readStored(keys);
  const current = (item: BatchReadable<unknown>) => {
    const record = read.get(versionKey(item.key));
    return typeof record === 'object' && record !== null && (record as { v?: unknown }).v === item.version;
  };
  return Promise.all(
    items.map((item) => {
      const raw = read.get(item.key) ?? null;
      return !item.migrates || raw === null || current(item) ? item.check(raw) : item.getValue();
    }),
  ) as Promise<ValuesOf<Items>>;
}
