import { type StorageItemKey, storage, type WxtStorageItem } from 'wxt/utils/storage';
import type * as z from 'zod/mini';
import { getValues, readStoredValue } from './stored-reads';
import { type PrintOf, sameJsonValue, type VouchedValues, vouchedValues } from './vouched';

/**
 * A storage item whose value is checked with zod on every read and write. Storage is a trust
 * boundary: another version of the extension, a sync conflict or a hand edit can leave anything
 * there, and a page must never crash on it. An unreadable value reads as the fallback.
 *
 * A value exactly as zod accepted it at an earlier reading of this build is used without zod
 * (./vouched.ts): the schema, and zod with it, is loaded only for a value not seen before.
 */
export interface ValidatedItem<T> {
  readonly key: StorageItemKey;
  readonly fallback: T;
  /** The stored shape's version (tests/unit/migrations checks a fixture for each one). */
  readonly version: number;
  /** True when the item has migrations, which run before its first read. */
  readonly migrates?: boolean;
  /**
   * Items with migrations: true when `raw` is exactly a value this build accepted for this item
   * (./vouched.ts), so it is in the current shape and needs no version record read.
   */
  isVouched?(raw: unknown): boolean;
  /**
   * Checks a raw stored value as `getValue` does: the fallback when it does not fit. `readFrom`
   * names where it was stored when that is not the item's key (an account's parked settings):
   * what is vouched for is the value at that place (./vouched.ts).
   */
  check(raw: unknown, readFrom?: string): Promise<T>;
  /** The value as it would be written; rejects when it does not match the schema. */
  validate(value: T): Promise<T>;
  getValue(): Promise<T>;
  /** Rejects (and writes nothing) when the value does not match the schema. */
  setValue(value: T): Promise<void>;
  removeValue(): Promise<void>;
  /** Calls back with the validated new value; returns the unwatch function. */
  watch(callback: (value: T) => void): () => void;
}

export interface ValidatedItemOptions<T> {
  fallback: T;
  /** Values accepted before (./vouched.ts); this page's by default, none in tests that say so. */
  vouched?: VouchedValues;
  /** Bump when the stored shape changes, and add a migration to that version. */
  version: number;
  migrations?: Record<number, (oldValue: unknown) => unknown>;
}

/**
 * The value zod makes of `raw` with the schema `schemaOf` gives (loaded only when `raw` is not
 * vouched for); `fallback` when it does not fit or nothing is stored. A value zod accepts
 * unchanged is vouched for from then on: by its shape alone (`printOf` 'shape', ./vouched.ts)
 * only where the schema accepts any string wherever one stands.
 */
export async function checkStoredValue<S extends z.ZodMiniType, F = z.infer<S>>(
  key: string,
  raw: unknown,
  schemaOf: () => S | Promise<S>,
  fallback: F,
  { vouched = vouchedValues, printOf = 'value' }: { vouched?: VouchedValues; printOf?: PrintOf } = {},
): Promise<z.infer<S> | F> {
  // Nothing stored reads as the fallback, as in WXT's own items; the schema is not even loaded.
  if (raw === null || raw === undefined) return fallback;
  const voucher = vouched.vouchFor(key, raw, printOf);
  if (voucher.vouched) return raw as z.infer<S>;
  const result = (await schemaOf()).safeParse(raw);
  if (!result.success) return fallback;
  if (sameJsonValue(result.data, raw)) voucher.remember();
  return result.data;
}

/**
 * A watch callback that checks each new value and calls back in the order they came: a value
 * that needs its schema loaded is never overtaken by a later one that is vouched for.
 */
export function inOrder<T>(check: (raw: unknown) => Promise<T>, callback: (value: T) => void) {
  let last: Promise<unknown> = Promise.resolve();
  return (raw: unknown) => {
    const checked = check(raw);
    // A failed check or callback is reported where it happened; the next values still come.
    last = Promise.all([checked, last.catch(() => undefined)]).then(([value]) => callback(value));
  };
}

/**
 * `schemaOf` gives the item's schema when a value must be checked or written: building zod
 * schemas, and loading zod itself (lib/settings/schemas.ts), is what made the popup's first paint
 * wait, and most openings find every value as it was accepted before.
 */
export function defineValidatedItem<S extends z.ZodMiniType>(
  key: StorageItemKey,
  schemaOf: () => S | Promise<S>,
  options: ValidatedItemOptions<z.infer<S>>,
): ValidatedItem<z.infer<S>> {
  type T = z.infer<S>;
  let built: Promise<S> | undefined;
  const schema = () => (built ??= Promise.resolve(schemaOf()));
  const check = (raw: unknown, readFrom: string = key): Promise<T> =>
    checkStoredValue(readFrom, raw, schema, options.fallback, { vouched: options.vouched });
  const validate = async (value: T): Promise<T> => (await schema()).parse(value);
  const common = { key, fallback: options.fallback, version: options.version, check, validate };
  if (options.migrations === undefined) {
    // Nothing to migrate: plain reads and writes. (WXT's defineItem reads the value once more as
    // soon as an item is defined, an extra storage round trip per item that every page paid.)
    return {
      ...common,
      getValue: async () => check(await readStoredValue(key)),
      setValue: async (value) => {
        await storage.setItem(key, await validate(value));
      },
      removeValue: () => storage.removeItem(key),
      watch: (callback) => storage.watch(key, inOrder(check, callback)),
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
  const vouched = options.vouched ?? vouchedValues;
  const isVouched = (raw: unknown) => vouched.vouchFor(key, raw).vouched;
  const migrating = {
    key,
    version: options.version,
    migrates: true,
    isVouched,
    check,
    getValue: async () => check(await item().getValue()),
  };
  return {
    ...common,
    migrates: true,
    isVouched,
    // Read as the popup reads it (getValues): the version record only for a value not vouched for;
    // WXT's item, and with it the migrations, only when the stored value is in an older shape.
    getValue: async () => (await getValues([migrating] as const))[0],
    setValue: async (value) => {
      await item().setValue(await validate(value));
    },
    removeValue: () => item().removeValue(),
    watch: (callback) => item().watch(inOrder(check, callback)),
  };
}
