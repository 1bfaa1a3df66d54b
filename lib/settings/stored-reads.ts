/**
 * Reading stored values: several items in one storage round trip, and the answers the popup's
 * first script already asked for (lib/popup/early-reads.ts) instead of asking again.
 */
import { type StorageItemKey, storage } from 'wxt/utils/storage';
import { createEarlyReadSource } from '@/lib/popup/early-reads';

/** Answers the popup's classic script already asked for (lib/popup/early-reads.ts); other pages have none. */
const earlyReads = createEarlyReadSource();

const readNow = async (keys: string[]) =>
  new Map((await storage.getItems(keys as StorageItemKey[])).map(({ key, value }) => [key, value] as const));

/** Raw stored values of `keys` in one storage round trip (or none, when they were read early). */
function readStored(keys: readonly StorageItemKey[]): Promise<Map<string, unknown>> {
  return earlyReads.read(keys, readNow);
}

/** One raw stored value, null when nothing is stored; for items not made by `defineValidatedItem`. */
export async function readStoredValue(key: StorageItemKey): Promise<unknown> {
  return (await readStored([key])).get(key) ?? null;
}

/** Keeps the storage keys this page has read, for the next opening's early reads. */
export function rememberEarlyReads(hints: Pick<Storage, 'getItem' | 'setItem'> | undefined): void {
  if (hints) earlyReads.remember(hints);
}

/** What `getValues` needs of an item (lib/settings/validated-item.ts `ValidatedItem`). */
interface BatchReadable<T> {
  readonly key: StorageItemKey;
  readonly migrates?: boolean;
  parse(raw: unknown): T;
  getValue(): Promise<T>;
}

type ValuesOf<Items extends readonly BatchReadable<unknown>[]> = {
  -readonly [I in keyof Items]: Items[I] extends BatchReadable<infer T> ? T : never;
};

/**
 * The values of several items in one storage round trip (one `get` per area), each checked like
 * `getValue`. An item with migrations is read on its own, so its migrations still run first.
 */
export async function getValues<const Items extends readonly BatchReadable<unknown>[]>(
  items: Items,
): Promise<ValuesOf<Items>> {
  const plain = items.filter((item) => !item.migrates);
  const read = await readStored(plain.map((item) => item.key));
  return Promise.all(
    items.map((item) => (item.migrates ? item.getValue() : item.parse(read.get(item.key) ?? null))),
  ) as Promise<ValuesOf<Items>>;
}
