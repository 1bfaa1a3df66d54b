import { type StorageItemKey, storage, type WxtStorageItem } from 'wxt/utils/storage';
import type * as z from 'zod/mini';
import { getValues, readStoredValue } from './stored-reads';

/**
 * A storage item whose value is checked with zod on every read and write. Storage is a trust
 * boundary: another version of the extension, a sync conflict or a hand edit can leave anything
 * there, and a page must never crash on it. An unreadable value reads as the fallback.
 */
export interface ValidatedItem<T> {
  readonly key: StorageItemKey;
  readonly fallback: T;
  /** The stored shape's version (tests/unit/migrations checks a fixture for each one). */
  readonly version: number;
  /** True when the item has migrations, which run before its first read. */
  readonly migrates?: boolean;
  /** Checks a raw stored value as `getValue` does: the fallback when it does not fit. */
  parse(raw: unknown): T;
  getValue(): Promise<T>;
  /** Rejects (and writes nothing) when the value does not match the schema. */
  setValue(value: T): Promise<void>;
  removeValue(): Promise<void>;
  /** Calls back with the validated new value; returns the unwatch function. */
  watch(callback: (value: T) => void): () => void;
}

export interface ValidatedItemOptions<T> {
  fallback: T;
  /** Bump when the stored shape changes, and add a migration to that version. */
  version: number;
  migrations?: Record<number, (oldValue: unknown) => unknown>;
}

/**
 * `schemaOf` builds the item's schema when the item is first read or written: a page defines
 * every item of lib/settings/storage.ts but uses a few, and building zod schemas is what
 * made loading that module slow (the popup waited on it).
 */
export function defineValidatedItem<S extends z.ZodMiniType>(
  key: StorageItemKey,
  schemaOf: () => S,
  options: ValidatedItemOptions<z.infer<S>>,
): ValidatedItem<z.infer<S>> {
  type T = z.infer<S>;
  let built: S | undefined;
  const schema = () => (built ??= schemaOf());
  const parse = (raw: unknown): T => {
    // Nothing stored reads as the fallback, as in WXT's own items; the schema is not even built.
    if (raw === null || raw === undefined) return options.fallback;
    const result = schema().safeParse(raw);
    return result.success ? result.data : options.fallback;
  };
  const common = { key, fallback: options.fallback, version: options.version, parse };
  if (options.migrations === undefined) {
    // Nothing to migrate: plain reads and writes. (WXT's defineItem reads the value once more as
    // soon as an item is defined, an extra storage round trip per item that every page paid.)
    return {
      ...common,
      getValue: async () => parse(await readStoredValue(key)),
      setValue: async (value) => {
        await storage.setItem(key, schema().parse(value));
      },
      removeValue: () => storage.removeItem(key),
      watch: (callback) => storage.watch(key, (raw) => callback(parse(raw))),
    };
  }
  // Defined on first use: WXT reads an item's version as soon as it is defined, and a page that
  // imports this module needs only a few of its items (the popup's first paint waits on them).
  let defined: WxtStorageItem<unknown, Record<string, unknown>> | undefined;
  const item = () =>
    (defined ??= storage.defineItem<unknown>(key, {
      fallback: options.fallback,
      version: options.version,
      migrations: options.migrations,
    }));
  const migrating = {
    key,
    version: options.version,
    migrates: true,
    parse,
    getValue: async () => parse(await item().getValue()),
  };
  return {
    ...common,
    migrates: true,
    // Read with its version record in one round trip (getValues); WXT's item, and with it the
    // migrations, only when the stored value is in an older shape.
    getValue: async () => (await getValues([migrating] as const))[0],
    setValue: async (value) => {
      await item().setValue(schema().parse(value));
    },
    removeValue: () => item().removeValue(),
    watch: (callback) => item().watch((raw) => callback(parse(raw))),
  };
}
