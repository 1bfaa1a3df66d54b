/**
 * Where the API keys are read and written while the lock is on (docs/lock.md, "Design"): the
 * items `apiKey` and `accountKeys` of storage.local keep their names for every reader, but their
 * values then live in storage.session (unlocked) and, sealed, in the lock record of storage.local.
 * lib/settings/item.ts sends every read and write of those names through here, so no reader needs
 * to know about the lock, and no write can leave a plaintext key in storage.local.
 *
 * Without zod (its guard is of lib/settings/shape.ts): the popup's module bundles this file.
 */
import { browser } from 'wxt/browser';
import type * as z from 'zod/mini';
import { isRecord, number, object, oneOf, string } from '@/lib/settings/shape';
import type { lockRecordSchema } from './schemas';

/** The storage.local names whose values the lock seals, with the value each reads as when absent. */
export const SEALED_FALLBACKS: Readonly<Record<string, unknown>> = { apiKey: '', accountKeys: {} };
/** storage.local: the lock record (`LockRecord`), present exactly while the lock is on. */
export const LOCK_RECORD_NAME = 'lock';
/** storage.session: the key derived from the passphrase, present exactly while unlocked. */
export const LOCK_KEY_NAME = 'lockKey';

export type LockRecord = z.infer<typeof lockRecordSchema>;
export type BackgroundChoice = LockRecord['background'][string];

/** The structural guard of a stored lock record (its writes are checked with zod: ./schemas.ts). */
const lockRecordShape = object({
  version: oneOf(1),
  box: object({ salt: string, iv: string, data: string, iterations: number }),
  idleMinutes: number,
  background: isRecord,
});
export const isLockRecord = (value: unknown): value is LockRecord => lockRecordShape(value);

/** A key written while locked: nothing was written (docs/lock.md). */
export class LockedError extends Error {
  constructor() {
    super('The lock is on: unlock first.');
    this.name = 'LockedError';
  }
}

export const isSealedName = (name: string): boolean => Object.hasOwn(SEALED_FALLBACKS, name);

export function sessionArea() {
  const area = browser.storage.session;
  if (!area) throw new Error('storage.session is not available');
  return area;
}

/**
 * A storage.local read of `names` by `readLocal`; while the lock is on, the sealed names read
 * from storage.session (absent while locked: no key). One round trip more only for a read of a key.
 */
export async function readWithSealed(
  names: readonly string[],
  readLocal: (names: string[]) => Promise<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  const sealed = names.filter(isSealedName);
  if (sealed.length === 0) return readLocal([...names]);
  const values = { ...(await readLocal([...new Set([...names, LOCK_RECORD_NAME])])) };
  const lockOn = values[LOCK_RECORD_NAME] !== undefined && values[LOCK_RECORD_NAME] !== null;
  if (!names.includes(LOCK_RECORD_NAME)) delete values[LOCK_RECORD_NAME];
  if (!lockOn) return values;
  const unlocked = await sessionArea().get(sealed);
  for (const name of sealed) {
    if (unlocked[name] === undefined) delete values[name];
    else values[name] = unlocked[name];
  }
  return values;
}

/**
 * A storage.local write by `writeLocal`; while the lock is on, the sealed names' new values are
 * sealed into the lock record under a fresh IV (in the same write as the other values) and kept
 * in storage.session. Refused with `LockedError` while locked: writing needs the derived key.
 */
export async function writeWithSealed(
  values: Record<string, unknown>,
  writeLocal: (values: Record<string, unknown>) => Promise<void>,
): Promise<void> {
  const sealed = Object.keys(values).filter(isSealedName);
  if (sealed.length === 0) return writeLocal(values);
  const stored = (await browser.storage.local.get(LOCK_RECORD_NAME))[LOCK_RECORD_NAME];
  if (stored === undefined || stored === null) return writeLocal(values);
  if (!isLockRecord(stored)) throw new LockedError();
  const session = await sessionArea().get([LOCK_KEY_NAME, ...Object.keys(SEALED_FALLBACKS)]);
  const rawKey = session[LOCK_KEY_NAME];
  if (typeof rawKey !== 'string') throw new LockedError();
  const keys: Record<string, unknown> = {};
  for (const [name, fallback] of Object.entries(SEALED_FALLBACKS)) {
    const next = sealed.includes(name) ? values[name] : session[name];
    keys[name] = next === undefined || next === null ? fallback : next;
  }
  const { importKey, seal } = await import('./crypto');
  const box = await seal(await importKey(rawKey), JSON.stringify(keys), stored.box);
  const rest = Object.fromEntries(Object.entries(values).filter(([name]) => !isSealedName(name)));
  await sessionArea().set(keys);
  await writeLocal({ ...rest, [LOCK_RECORD_NAME]: { ...stored, box } });
}

/** A storage.local removal; while the lock is on, a sealed name is written as its fallback instead. */
export async function removeWithSealed(
  names: readonly string[],
  removeLocal: (names: string[]) => Promise<void>,
): Promise<void> {
  const sealed = names.filter(isSealedName);
  const lockOn =
    sealed.length > 0 &&
    ((await browser.storage.local.get(LOCK_RECORD_NAME))[LOCK_RECORD_NAME] ?? null) !== null;
  if (!lockOn) return removeLocal([...names]);
  await writeWithSealed(Object.fromEntries(sealed.map((name) => [name, SEALED_FALLBACKS[name]])), (rest) =>
    browser.storage.local.set(rest),
  );
  return removeLocal(names.filter((name) => !isSealedName(name)));
}
