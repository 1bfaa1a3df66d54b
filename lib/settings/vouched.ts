/**
 * Stored values zod has already accepted, so a page can use them without loading zod again
 * (docs/architecture.md, "Checked once, vouched for after"). A page that reads a value and finds
 * it exactly as zod accepted it at an earlier reading, in this same build, uses it as read;
 * anything else (a new value, another build, nothing remembered) is checked with zod as before.
 *
 * What is remembered is a fingerprint of each accepted value's JSON by storage key, in the page's
 * own `localStorage` (the extension's origin: only its own pages write there). The worker has no
 * `localStorage` and vouches for nothing.
 *
 * Nothing here may import zod: this module is what keeps zod out of the popup's first modules.
 */
import { pageLocalStorage } from '@/lib/theme/first-paint';
import { pageRecord } from './page-record';

/** Where the fingerprints are kept in the page's localStorage. */
export const VOUCHED_VALUES_KEY = 'vouchedValues';

/** Enough for every key a page reads (the popup's first view reads about fifteen). */
export const MAX_VOUCHED_KEYS = 200;

/** What the page knows of one value read at `key` (its fingerprint is taken once). */
export interface Voucher {
  /** True when the value is exactly one zod accepted unchanged for this key, in this build. */
  readonly vouched: boolean;
  /** Remembers the value as accepted unchanged for this key (it replaces the key's earlier one). */
  remember(): void;
}

/**
 * What a value's fingerprint covers: the whole value, or only its shape (every string in it read
 * as empty). The shape is enough for a value whose schema accepts any string wherever one stands,
 * as a list bucket's (two packed lists: tens of kB of JSON for the largest accounts, whose print
 * was most of the popup's reading of its lists); its print costs the same for any length.
 */
export type PrintOf = 'value' | 'shape';

export interface VouchedValues {
  vouchFor(key: string, raw: unknown, printOf?: PrintOf): Voucher;
}

/** Where nothing can be remembered (no localStorage, a value with no JSON). */
const UNVOUCHED: Voucher = { vouched: false, remember: () => {} };

/**
 * The length of the value's JSON and two 32-bit hashes of it (cyrb53's mixing, two seeds). Not a
 * defence against someone who can write the extension's storage (they can write anything there
 * anyway): it tells an accepted value from a changed one, by chance wrongly about once in 2^64.
 * A cryptographic hash of a list bucket of the largest accounts (hundreds of kB of JSON) cost the
 * popup several milliseconds; this costs a fraction of one.
 */
function fingerprint(raw: unknown, printOf: PrintOf): string | null {
  let json: string | undefined;
  try {
    json = printOf === 'shape' ? JSON.stringify(raw, emptyStrings) : JSON.stringify(raw);
  } catch {
    return null;
  }
  if (json === undefined) return null;
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < json.length; i++) {
    const code = json.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const print = `${json.length.toString(36)}.${(h1 >>> 0).toString(36)}.${(h2 >>> 0).toString(36)}`;
  // A shape's print never matches a whole value's.
  return printOf === 'shape' ? `shape.${print}` : print;
}

/** JSON.stringify's replacer for a shape: each string is written as "" (a number stays a number). */
const emptyStrings = (_key: string, value: unknown) => (typeof value === 'string' ? '' : value);

/**
 * True when zod gave back what was stored: the same JSON values, whatever the order of object
 * keys (Chromium's storage hands objects back with their keys sorted; zod's output follows the
 * schema). A key zod dropped or a value it converted makes them differ.
 */
export function sameJsonValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, index) => sameJsonValue(item, b[index]))
    );
  }
  const aKeys = Object.keys(a).filter((key) => (a as Record<string, unknown>)[key] !== undefined);
  const bKeys = Object.keys(b).filter((key) => (b as Record<string, unknown>)[key] !== undefined);
  return (
    aKeys.length === bKeys.length &&
    aKeys.every(
      (key) =>
        Object.hasOwn(b, key) &&
        sameJsonValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
    )
  );
}

/**
 * The vouched values of one page. `store` is the page's localStorage (undefined where there is
 * none); `build` names this build, so a build with other schemas vouches for nothing an earlier
 * one accepted; `schedule` writes the fingerprints once the page is idle.
 */
export function createVouchedValues(deps: {
  store: Pick<Storage, 'getItem' | 'setItem'> | undefined;
  build: string;
  schedule?: (write: () => void) => void;
}): VouchedValues {
  const { store, build } = deps;
  if (!store) return { vouchFor: () => UNVOUCHED };
  const schedule = deps.schedule ?? ((write) => setTimeout(write, 0));
  const record = pageRecord(store, VOUCHED_VALUES_KEY, { build }, 'prints', MAX_VOUCHED_KEYS);
  /** What the store held when first asked, or at this page's last write. */
  let known: Map<string, string> | undefined;
  /** What this page accepted since its last write, in order. */
  const accepted = new Map<string, string>();
  const write = () => {
    known = record.save(accepted);
    accepted.clear();
  };

  return {
    vouchFor(key, raw, printOf = 'value') {
      const print = fingerprint(raw, printOf);
      if (print === null) return UNVOUCHED;
      known ??= record.read();
      const vouched = (accepted.get(key) ?? known.get(key)) === print;
      return {
        vouched,
        remember() {
          if (vouched || accepted.get(key) === print) return;
          accepted.set(key, print);
          if (accepted.size === 1) schedule(write);
        },
      };
    },
  };
}

/** The name of this build (wxt.config.ts); tests and unbuilt code share one. */
const BUILD: string = import.meta.env.BUILD_ID ?? 'unbuilt';

/** This page's vouched values (none in the worker). */
export const vouchedValues: VouchedValues = createVouchedValues({ store: pageLocalStorage(), build: BUILD });
