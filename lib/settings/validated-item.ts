import { type StorageItemKey, storage, type WxtStorageItem } from 'wxt/utils/storage';
import type * as z from 'zod/mini';

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

export function defineValidatedItem<S extends z.ZodMiniType>(
  key: StorageItemKey,
  schema: S,
  options: ValidatedItemOptions<z.infer<S>>,
): ValidatedItem<z.infer<S>> {
  type T = z.infer<S>;
  // Defined on first use: WXT reads an item's version as soon as it is defined, and a page that
  // imports this module needs only a few of its items (the popup's first paint waits on them).
  let defined: WxtStorageItem<unknown, Record<string, unknown>> | undefined;
  const item = () =>
    (defined ??= storage.defineItem<unknown>(key, {
      fallback: options.fallback,
      version: options.version,
      migrations: options.migrations,
    }));
  const parse = (raw: unknown): T => {
    const result = schema.safeParse(raw);
    return result.success ? result.data : options.fallback;
  };
  return {
    key,
    fallback: options.fallback,
    version: options.version,
    getValue: async () => parse(await item().getValue()),
    setValue: async (value) => {
      await item().setValue(schema.parse(value));
    },
    removeValue: () => item().removeValue(),
    watch: (callback) => item().watch((raw) => callback(parse(raw))),
  };
}
