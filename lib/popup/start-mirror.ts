/**
 * The popup's start mirror: in Firefox, copies of the stored values the popup reads as it opens,
 * kept in `storage.session` (docs/architecture.md, "The start mirror").
 *
 * Why: each Firefox page opens an IndexedDB connection of its own on its first `storage.local`
 * call, and its answer waits behind the page's module loading; measured in the real popup, the
 * popup's early reads answered ~17 ms after its first script asked, whatever the number of keys,
 * where `storage.session` (held in memory by the parent process) answered in ~9. Chromium answers
 * `storage.local` sooner than its modules load, so it reads storage alone (`START_SOURCE`).
 *
 * The mirror is never trusted alone: once the first view is shown, storage is read too and the
 * two answers are compared (`auditMirror`); a write the page makes before that waits for that
 * read (early-reads.ts `comparedReadDone`). What differs is mirrored again, and the popup's page
 * opens anew from it (the caller's choice, `reopenOnce`). The worker forgets the copy of any key
 * that changes (`forgetMirrored`), so the next opening reads storage for it.
 * Storage stays the only place a value is written; the mirror is memory only, for extension pages
 * only, and is gone when the browser closes.
 *
 * The API key is never copied: it is kept in `storage.local` only (docs/service-api.md, "API key
 * storage"). The mirror holds its fingerprint, which is all the first view needs of it (the
 * account it is, or that there is none); the key itself comes from storage's answer.
 *
 * No zod and no WXT: the popup's first script bundles this file.
 */
import { fingerprintOfKey, STORED_API_KEY } from '@/lib/account/key-fingerprint';

type StoredValues = Record<string, unknown>;

/** Where each browser's popup takes its start values from first (`storage.session` or storage alone). */
const START_SOURCE: Record<string, 'mirror' | 'storage'> = { firefox: 'mirror', chrome: 'storage' };

export function startMirrorUsed(browserName: string = import.meta.env.BROWSER): boolean {
  return START_SOURCE[browserName] === 'mirror';
}

/** The mirror's key for a `storage.local` key (without WXT's `local:`). */
const MIRROR_PREFIX = 'popupStart:';
export const mirrorKey = (key: string): string => MIRROR_PREFIX + key;

/**
 * A mirrored key: `{ value }` when storage holds one, `{}` when it holds none; for the API key,
 * `{ fingerprint }` when a key is set, `{}` when none is.
 */
type MirrorRecord = { value?: unknown; fingerprint?: string };
type MirrorRecords = Record<string, MirrorRecord>;

export interface MirrorArea {
  get(keys: string[]): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(keys: string[]): Promise<void>;
}

/** What the mirror answered for a batch of keys, when it held every one of them. */
export interface Mirrored {
  /** The records, as the mirror holds them (to compare with storage's). */
  records: MirrorRecords;
  /** The values of the keys, the API key left out. */
  values: StoredValues;
  /** The API key's fingerprint; null when no key is set; undefined when the key was not asked. */
  keyFingerprint?: string | null;
}

/** The mirror's answer for `keys`, or null unless every key is mirrored. */
export function fromMirror(keys: readonly string[], answer: Record<string, unknown>): Mirrored | null {
  const mirrored: Mirrored = { records: {}, values: {} };
  for (const key of keys) {
    const record = answer[mirrorKey(key)];
    if (typeof record !== 'object' || record === null) return null;
    const { value, fingerprint } = record as MirrorRecord;
    mirrored.records[mirrorKey(key)] = record;
    if (key === STORED_API_KEY)
      mirrored.keyFingerprint = typeof fingerprint === 'string' ? fingerprint : null;
    else if ('value' in record) mirrored.values[key] = value;
  }
  return mirrored;
}

/** The mirror's record of one key, as storage answered it: the API key by its fingerprint only. */
function mirrorRecord(key: string, values: StoredValues): MirrorRecord {
  if (!(key in values)) return {};
  const value = values[key];
  if (key !== STORED_API_KEY) return { value };
  return typeof value === 'string' && value !== '' ? { fingerprint: fingerprintOfKey(value) } : {};
}

/** The mirror's records of `keys`, as storage answered them. */
export function mirrorRecords(keys: readonly string[], values: StoredValues): MirrorRecords {
  return Object.fromEntries(keys.map((key) => [mirrorKey(key), mirrorRecord(key, values)]));
}

/** Both records say the same (stored values are JSON, WXT storage). */
const sameRecord = (a: MirrorRecord | undefined, b: MirrorRecord | undefined) =>
  JSON.stringify(a) === JSON.stringify(b);

/** The mirror's answer for `keys`, or null when any is not mirrored or the read fails. */
export function readMirror(
  mirror: Pick<MirrorArea, 'get'>,
  keys: readonly string[],
): Promise<Mirrored | null> {
  try {
    return mirror.get(keys.map(mirrorKey)).then(
      (answer) => fromMirror(keys, answer),
      () => null,
    );
  } catch {
    return Promise.resolve(null);
  }
}

/** One batch of start reads as the first script took it: what the mirror and storage answered. */
export interface MirrorCheck {
  keys: readonly string[];
  /** The mirror's records, which the popup used; null when it used storage's answer. */
  mirrored: MirrorRecords | null;
  /** Storage's answer; null when that read failed. */
  stored: StoredValues | null;
}

/** The mirror stood for storage (`fresh`), did not (`stale`), or was not used (`filled`, `unchecked`). */
export type MirrorOutcome = 'fresh' | 'stale' | 'filled' | 'unchecked';

export interface MirrorAreas {
  session: MirrorArea;
  /** Reads storage now (the page's own reading, one call per key in Firefox). */
  readStored(keys: readonly string[]): Promise<StoredValues>;
}

/**
 * Compares a batch's mirrored values with storage's and mirrors storage's where they differ, or
 * all of them when the popup read storage (a key not mirrored yet). `stale` means the popup
 * showed values storage no longer holds.
 */
export async function auditMirror(check: MirrorCheck, areas: MirrorAreas): Promise<MirrorOutcome> {
  const { keys, mirrored, stored } = check;
  if (stored === null) return 'unchecked';
  if (mirrored === null) {
    await fillMirror(areas, keys, stored);
    return 'filled';
  }
  const fromStorage = mirrorRecords(keys, stored);
  const stale = keys.filter((key) => !sameRecord(mirrored[mirrorKey(key)], fromStorage[mirrorKey(key)]));
  if (stale.length === 0) return 'fresh';
  await fillMirror(areas, stale, stored);
  return 'stale';
}

/**
 * Mirrors `values` of `keys`, then reads storage again and forgets the copy of any key that
 * changed since `values` were read: a change the worker saw before this write (and so could not
 * forget) is caught here, and one after it is forgotten by the worker.
 */
async function fillMirror(areas: MirrorAreas, keys: readonly string[], values: StoredValues): Promise<void> {
  const records = mirrorRecords(keys, values);
  await areas.session.set(records);
  const now = mirrorRecords(keys, await areas.readStored(keys));
  const changed = keys.filter((key) => !sameRecord(now[mirrorKey(key)], records[mirrorKey(key)]));
  if (changed.length > 0) await areas.session.remove(changed.map(mirrorKey));
}

/** The worker's part: the copies of `changedKeys` (storage.local keys) are forgotten. */
export function forgetMirrored(
  session: Pick<MirrorArea, 'remove'>,
  changedKeys: readonly string[],
): Promise<void> {
  return changedKeys.length === 0 ? Promise.resolve() : session.remove(changedKeys.map(mirrorKey));
}

/** The session flag that keeps a stale mirror from reopening the page more than once in a row. */
const REOPENED_FLAG = 'startMirrorReopened';

/**
 * Opens the page anew, once: the popup showed values its mirror held and storage no longer does,
 * and the mirror now holds storage's. A second stale outcome in a row only clears the flag (a
 * mirror that cannot be written must not make the popup reload for ever). Never once the user
 * has clicked or typed in the page (`acted`, from `inputSince`): the page must not reload under
 * their hand, and their own change (a profile chosen, a site listed) also makes storage differ
 * from what the page showed; the mirror is corrected all the same, for the next opening.
 */
export function reopenOnce(
  outcome: MirrorOutcome,
  page: {
    sessionStorage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
    reload(): void;
    acted?: () => boolean;
  },
): boolean {
  try {
    if (page.sessionStorage.getItem(REOPENED_FLAG) !== null) {
      page.sessionStorage.removeItem(REOPENED_FLAG);
      return false;
    }
    if (outcome !== 'stale' || page.acted?.() === true) return false;
    page.sessionStorage.setItem(REOPENED_FLAG, '1');
  } catch {
    return false;
  }
  page.reload();
  return true;
}

/** True once the user has pressed a pointer or a key in `page` since this was called. */
export function inputSince(page: Pick<EventTarget, 'addEventListener'>): () => boolean {
  let acted = false;
  const noteInput = () => {
    acted = true;
  };
  for (const type of ['pointerdown', 'keydown'])
    page.addEventListener(type, noteInput, { capture: true, once: true, passive: true });
  return () => acted;
}
