/**
 * The one way pages and the worker read and write stored values (docs/architecture.md,
 * "Storage"): an item's `getValue`, `setValue`, `removeValue` and `watch`, and `getValues` for
 * several items in one round trip.
 *
 * - Writes are checked with zod (the item's schema, loaded then): nothing of the wrong shape is
 *   ever written. So are imports (lib/backup/) and migrations (./migrate.ts).
 * - Reads trust the current shape: the worker migrates stored values when the extension is
 *   installed or updated, so a page never runs a migration and never loads zod to read. A value
 *   that does not fit the item's structural guard (./shape.ts) reads as missing (the fallback),
 *   and the page is told which (`onUnreadable`), so it can say what it could not read.
 * - The popup's first script may have asked for some keys already (lib/popup/first-script.ts):
 *   those answers are taken once each instead of asking storage again (./early-answers.ts).
 */
import { browser } from 'wxt/browser';
import type * as z from 'zod/mini';
import { isSealedName, readWithSealed, removeWithSealed, writeWithSealed } from '@/lib/lock/sealed-storage';
import { forgetEarly, readWithEarly } from './early-answers';
import type { Shape } from './shape';
import { forgetCopies, keepsStartCopies } from './start-copies';

export type StorageArea = 'local' | 'session';
/** A key with its area, as `local:outbox`. */
export type ItemKey = `${StorageArea}:${string}`;

/** A `local:` key's name in storage.local itself (`local:outbox` → `outbox`). */
export const localName = (key: string): string => key.replace(/^local:/, '');

export type Migrations = Record<number, (old: unknown) => unknown>;

export interface StoredItem<T> {
  /** Area and name, `local:outbox`. */
  readonly key: ItemKey;
  readonly area: StorageArea;
  /** The key in its storage area, `outbox`. */
  readonly name: string;
  readonly fallback: T;
  /** The stored shape's version (tests/unit/migrations checks a fixture for each one). */
  readonly version: number;
  /** How a value of an earlier version becomes the next one's, run by the worker (./migrate.ts). */
  readonly migrations?: Migrations;
  /** The value a raw stored value reads as: itself in the current shape, else the fallback. */
  fromStored(raw: unknown): T;
  /** The item's zod schema (loaded on first use). */
  schema(): Promise<z.ZodMiniType<T>>;
  /** The value as it would be written; rejects when it does not match the schema. */
  validate(value: T): Promise<T>;
  getValue(): Promise<T>;
  /** Rejects (and writes nothing) when the value does not match the schema. */
  setValue(value: T): Promise<void>;
  removeValue(): Promise<void>;
  /** Calls back with each new value (read as `fromStored` reads it); returns the unwatch function. */
  watch(callback: (value: T) => void): () => void;
}

export interface ItemOptions<T> {
  fallback: T;
  /** The structure of a value in the current version (./shape.ts). */
  shape: Shape;
  /** Bump when the stored shape changes (absent: 1), and add a migration to that version. */
  version?: number;
  migrations?: Migrations;
}

/** Where an item's version is recorded: beside its value, as WXT has always kept it (`{ v }`). */
export const versionName = (name: string) => `${name}$`;

type UnreadableListener = (keys: readonly ItemKey[]) => void;
const unreadableListeners = new Set<UnreadableListener>();
/** The keys this page found unreadable so far (a page may read before it can show anything). */
const unreadable = new Set<ItemKey>();

/**
 * Calls back at once and whenever a stored value read did not fit its item, with every such key
 * this page has met; returns the unsubscribe function.
 */
export function onUnreadable(listener: UnreadableListener): () => void {
  unreadableListeners.add(listener);
  if (unreadable.size > 0) listener([...unreadable]);
  return () => unreadableListeners.delete(listener);
}

function reportUnreadable(key: ItemKey): void {
  if (unreadable.has(key)) return;
  unreadable.add(key);
  for (const listener of unreadableListeners) listener([...unreadable]);
}

/** A read of `names` in `area`: the first script's answers where it has them, storage for the rest. */
export async function readRaw(area: StorageArea, names: readonly string[]): Promise<Record<string, unknown>> {
  if (names.length === 0) return {};
  const readNow = (some: string[]) => areaOf(area).get(some);
  // The API keys are read where the lock keeps them (docs/lock.md).
  return area === 'local'
    ? readWithSealed(names, (some) => readWithEarly(some, readNow))
    : readNow([...names]);
}

function areaOf(area: StorageArea) {
  const found = browser.storage[area];
  if (!found) throw new Error(`storage.${area} is not available`);
  return found;
}

/** Firefox's popup keeps copies of what it reads first: a write forgets them once done. */
async function forgetStartCopies(names: readonly string[]): Promise<void> {
  if (keepsStartCopies() && browser.storage.session) await forgetCopies(browser.storage.session, names);
}

/** Writes several values in one call: one storage event, never a half-written change. */
export async function writeRaw(area: StorageArea, values: Record<string, unknown>): Promise<void> {
  if (area !== 'local') return areaOf(area).set(values);
  forgetEarly(Object.keys(values));
  // While the lock is on, a key is sealed before it is stored (docs/lock.md).
  await writeWithSealed(values, (plain) => areaOf('local').set(plain));
  await forgetStartCopies(Object.keys(values));
}

/** Writes values named by their `local:` keys (`local:outbox`), as `writeRaw` does. */
export function writeLocalKeys(values: Record<string, unknown>): Promise<void> {
  return writeRaw(
    'local',
    Object.fromEntries(Object.entries(values).map(([key, value]) => [localName(key), value])),
  );
}

export async function removeRaw(area: StorageArea, names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  if (area !== 'local') return areaOf(area).remove([...names]);
  forgetEarly(names);
  await removeWithSealed(names, async (plain) => {
    if (plain.length > 0) await areaOf('local').remove(plain);
  });
  await forgetStartCopies(names);
}

/** Calls back with the new raw value of `name` whenever it changes in `area`. */
export function watchRaw(area: StorageArea, name: string, callback: (raw: unknown) => void): () => void {
  // A key the lock keeps also changes in storage.session: on unlocking and locking (docs/lock.md).
  const alsoSession = area === 'local' && isSealedName(name);
  const listener = (changes: Record<string, { newValue?: unknown }>, changedArea: string) => {
    if (alsoSession && (changedArea === 'local' || changedArea === 'session') && name in changes) {
      // Read again: turning the lock on or off moves the key between areas in several writes.
      readRaw('local', [name]).then(
        (values) => callback(values[name] ?? null),
        () => {},
      );
    } else if (changedArea === area && name in changes) callback(changes[name]?.newValue ?? null);
  };
  browser.storage.onChanged.addListener(listener);
  return () => browser.storage.onChanged.removeListener(listener);
}

/**
 * The entries that write `value` as the item's stored value, with its version record where the
 * item is versioned, for one `writeRaw` with other values (a change of several items at once).
 */
export async function entriesOf<T>(item: StoredItem<T>, value: T): Promise<Record<string, unknown>> {
  const checked = await item.validate(value);
  return item.version > 1 || item.migrations
    ? { [item.name]: checked, [versionName(item.name)]: { v: item.version } }
    : { [item.name]: checked };
}

export function defineItem<T>(
  key: ItemKey,
  schemaOf: () => Promise<z.ZodMiniType<T>>,
  options: ItemOptions<T>,
): StoredItem<T> {
  const colon = key.indexOf(':');
  const area = key.slice(0, colon) as StorageArea;
  const name = key.slice(colon + 1);
  let schema: Promise<z.ZodMiniType<T>> | undefined;
  const fromStored = (raw: unknown): T => {
    if (raw === null || raw === undefined) return options.fallback;
    if (options.shape(raw)) return raw as T;
    reportUnreadable(key);
    return options.fallback;
  };
  const item: StoredItem<T> = {
    key,
    area,
    name,
    fallback: options.fallback,
    version: options.version ?? 1,
    ...(options.migrations ? { migrations: options.migrations } : {}),
    fromStored,
    schema: () => {
      schema ??= schemaOf();
      return schema;
    },
    validate: async (value) => (await item.schema()).parse(value),
    getValue: async () => fromStored((await readRaw(area, [name]))[name]),
    setValue: async (value) => writeRaw(area, await entriesOf(item, value)),
    removeValue: () => removeRaw(area, [name]),
    watch: (callback) => watchRaw(area, name, (raw) => callback(fromStored(raw))),
  };
  return item;
}

type ValuesOf<Items extends readonly StoredItem<unknown>[]> = {
  -readonly [I in keyof Items]: Items[I] extends StoredItem<infer T> ? T : never;
};

/** The values of several items in one storage round trip (one `get` per area). */
export async function getValues<const Items extends readonly StoredItem<unknown>[]>(
  items: Items,
): Promise<ValuesOf<Items>> {
  const read = (area: StorageArea) =>
    readRaw(
      area,
      items.filter((item) => item.area === area).map((item) => item.name),
    );
  const [local, session] = await Promise.all([read('local'), read('session')]);
  return items.map((item) =>
    item.fromStored((item.area === 'local' ? local : session)[item.name]),
  ) as ValuesOf<Items>;
}
