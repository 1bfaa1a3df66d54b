/**
 * The lock's state (docs/lock.md, "Design"): turning it on and off, unlocking, locking, the
 * growing wait after wrong passphrases, the idle time. The records:
 * - storage.local `lock` (./sealed-storage.ts `LockRecord`): present exactly while the lock is on;
 * - storage.local `lockFailures`: wrong passphrases since the last right one, kept so reopening a
 *   page or restarting the browser does not reset the wait;
 * - storage.session `lockKey` (the derived key) and `lockSession` (when unlocked, when last used):
 *   present exactly while unlocked; with the keys under their own names (`apiKey`, `accountKeys`).
 * storage.session is cleared when the browser closes, so closing it locks.
 */
import { browser } from 'wxt/browser';
import type * as z from 'zod/mini';
import { deriveKey, exportKey, newSalt, open, PBKDF2_ITERATIONS, seal } from './crypto';
import { failuresSchema, lockRecordSchema, lockSessionSchema, sealedKeysSchema } from './schemas';
import {
  type BackgroundChoice,
  isLockRecord,
  LOCK_KEY_NAME,
  LOCK_RECORD_NAME,
  type LockRecord,
  SEALED_FALLBACKS,
  sessionArea,
} from './sealed-storage';

export const FAILURES_NAME = 'lockFailures';
export const LOCK_SESSION_NAME = 'lockSession';
const SEALED = Object.keys(SEALED_FALLBACKS);
const SESSION_NAMES = [LOCK_KEY_NAME, LOCK_SESSION_NAME, ...SEALED];

type SealedKeys = z.infer<typeof sealedKeysSchema>;

export interface LockStatus {
  on: boolean;
  unlocked: boolean;
  idleMinutes: number;
  background: Record<string, BackgroundChoice>;
  /** Seconds before another passphrase is tried; 0: now. */
  waitSeconds: number;
}

/** Why an operation did not happen. */
export type LockRefusal =
  | 'wrong-passphrase'
  | 'wait'
  | 'not-on'
  | 'already-on'
  | 'no-session-storage'
  | 'required';

export type LockOutcome = { ok: true } | { ok: false; reason: LockRefusal; waitSeconds?: number };

const local = () => browser.storage.local;

/**
 * Seconds to wait after `count` wrong passphrases in a row: none after the first (a typo), then
 * doubling, at most a quarter of an hour (docs/lock.md, "Wrong passphrases").
 */
export function waitAfterFailures(count: number): number {
  if (count < 2) return 0;
  return Math.min(2 ** (count - 1), 15 * 60);
}

async function readRecord(): Promise<LockRecord | null> {
  const stored = (await local().get(LOCK_RECORD_NAME))[LOCK_RECORD_NAME];
  return isLockRecord(stored) ? stored : null;
}

async function readFailures(): Promise<{ count: number; lastAt: number }> {
  const parsed = failuresSchema.safeParse((await local().get(FAILURES_NAME))[FAILURES_NAME]);
  return parsed.success ? parsed.data : { count: 0, lastAt: 0 };
}

function secondsLeft(failures: { count: number; lastAt: number }, now: number): number {
  // A clock set back does not shorten the wait: the wait counts from no later than now.
  const since = Math.max(0, now - Math.min(failures.lastAt, now));
  return Math.max(0, Math.ceil(waitAfterFailures(failures.count) - since / 1000));
}

export async function readLockStatus(now: number = Date.now()): Promise<LockStatus> {
  const [record, failures, unlockedSession] = await Promise.all([
    readRecord(),
    readFailures(),
    browser.storage.session ? sessionArea().get(LOCK_SESSION_NAME) : Promise.resolve({}),
  ]);
  return {
    on: record !== null,
    unlocked:
      record === null || (unlockedSession as Record<string, unknown>)[LOCK_SESSION_NAME] !== undefined,
    idleMinutes: record?.idleMinutes ?? 5,
    background: record?.background ?? {},
    waitSeconds: secondsLeft(failures, now),
  };
}

/** Whether the lock is on and locked now: what every change made by a person checks first. */
export async function isLocked(): Promise<boolean> {
  const status = await readLockStatus();
  return status.on && !status.unlocked;
}

/**
 * The lock's record and the keys sealed in it, opened with the key derived from `passphrase`, or
 * the refusal; a wrong passphrase is counted, a right one clears the count.
 */
async function openWith(
  passphrase: string,
  now: number,
): Promise<{ record: LockRecord; keys: SealedKeys; key: CryptoKey } | { refusal: LockOutcome }> {
  const record = await readRecord();
  if (!record) return { refusal: { ok: false, reason: 'not-on' } };
  const failures = await readFailures();
  const waitSeconds = secondsLeft(failures, now);
  if (waitSeconds > 0) return { refusal: { ok: false, reason: 'wait', waitSeconds } };
  const key = await deriveKey(passphrase, record.box.salt, record.box.iterations);
  const plain = await open(key, record.box);
  const parsed = plain === null ? null : sealedKeysSchema.safeParse(JSON.parse(plain));
  if (!parsed?.success) {
    const next = failuresSchema.parse({ count: failures.count + 1, lastAt: now });
    await local().set({ [FAILURES_NAME]: next });
    return { refusal: { ok: false, reason: 'wrong-passphrase', waitSeconds: waitAfterFailures(next.count) } };
  }
  if (failures.count > 0) await local().remove(FAILURES_NAME);
  return { record, keys: parsed.data, key };
}

async function unlockedSessionValues(keys: SealedKeys, key: CryptoKey, now: number) {
  return {
    ...keys,
    [LOCK_KEY_NAME]: await exportKey(key),
    [LOCK_SESSION_NAME]: lockSessionSchema.parse({ unlockedAt: now, lastUsedAt: now }),
  };
}

async function sealedRecord(
  keys: SealedKeys,
  passphrase: string,
  settings: Pick<LockRecord, 'idleMinutes' | 'background' | 'turnedOnAt'>,
): Promise<{ record: LockRecord; key: CryptoKey }> {
  const derivation = { salt: newSalt(), iterations: PBKDF2_ITERATIONS };
  const key = await deriveKey(passphrase, derivation.salt, derivation.iterations);
  const box = await seal(key, JSON.stringify(sealedKeysSchema.parse(keys)), derivation);
  // The schema keeps only its own fields: a whole record as `settings` brings nothing else along.
  return { record: lockRecordSchema.parse({ ...settings, version: 1, box }), key };
}

/**
 * Turns the lock on (docs/lock.md, "Turning it on"): the keys stored in plain are sealed with a
 * key derived from `passphrase`, kept unlocked in storage.session, then removed from
 * storage.local. The page says first that a forgotten passphrase means entering the key again.
 */
export async function turnOnLock(
  choice: { passphrase: string; idleMinutes: number; background: Record<string, BackgroundChoice> },
  now: number = Date.now(),
): Promise<LockOutcome> {
  if (!browser.storage.session) return { ok: false, reason: 'no-session-storage' };
  if (await readRecord()) return { ok: false, reason: 'already-on' };
  const stored = await local().get(SEALED);
  const keys: SealedKeys = {
    apiKey: typeof stored.apiKey === 'string' ? stored.apiKey : '',
    accountKeys: (stored.accountKeys as Record<string, string> | undefined) ?? {},
  };
  const { record, key } = await sealedRecord(keys, choice.passphrase, {
    idleMinutes: choice.idleMinutes,
    background: choice.background,
    turnedOnAt: now,
  });
  // In this order, every read on the way finds the keys: in plain, or unlocked in the session.
  await sessionArea().set(await unlockedSessionValues(keys, key, now));
  await local().set({ [LOCK_RECORD_NAME]: record });
  await local().remove([...SEALED, FAILURES_NAME]);
  return { ok: true };
}

/** Unlocks with `passphrase`: the keys and the derived key go into storage.session. */
export async function unlock(passphrase: string, now: number = Date.now()): Promise<LockOutcome> {
  const opened = await openWith(passphrase, now);
  if ('refusal' in opened) return opened.refusal;
  await sessionArea().set(await unlockedSessionValues(opened.keys, opened.key, now));
  return { ok: true };
}

/**
 * Locks: the derived key and the unlocked mark leave storage.session, and so do the keys of the
 * accounts whose background work waits until unlocked ("strict"); the others' stay until the
 * browser closes (docs/lock.md, "Background work"). `activeAccountId` owns `apiKey`.
 */
export async function lockNow(activeAccountId: string | null): Promise<void> {
  const record = await readRecord();
  if (!record || !browser.storage.session) return;
  const keeps = (id: string | null) => id !== null && record.background[id] === 'keep';
  const stored = await sessionArea().get(SEALED);
  const accountKeys = Object.fromEntries(
    Object.entries((stored.accountKeys as Record<string, string> | undefined) ?? {}).filter(([id]) =>
      keeps(id),
    ),
  );
  await sessionArea().set({ accountKeys });
  await sessionArea().remove([
    LOCK_KEY_NAME,
    LOCK_SESSION_NAME,
    ...(keeps(activeAccountId) ? [] : ['apiKey']),
  ]);
}

/**
 * Turns the lock off with `passphrase`: the keys go back to storage.local in plain (the
 * migration back), the lock record and the session's copies go. `lockRequired`: a policy
 * (managed deployment) requires the lock; it stays on.
 */
export async function turnOffLock(
  passphrase: string,
  options: { lockRequired?: boolean } = {},
  now: number = Date.now(),
): Promise<LockOutcome> {
  if (options.lockRequired) return { ok: false, reason: 'required' };
  const opened = await openWith(passphrase, now);
  if ('refusal' in opened) return opened.refusal;
  // The keys are in plain before the record goes, so every read on the way finds them.
  await local().set(opened.keys as unknown as Record<string, unknown>);
  await local().remove([LOCK_RECORD_NAME, FAILURES_NAME]);
  await sessionArea().remove(SESSION_NAMES);
  return { ok: true };
}

/**
 * A new passphrase, given the current one: the keys sealed under a new salt. The keys are the
 * sealed ones, so a key changed while unlocked is already among them (./sealed-storage.ts).
 */
export async function changePassphrase(
  current: string,
  next: string,
  now: number = Date.now(),
): Promise<LockOutcome> {
  const opened = await openWith(current, now);
  if ('refusal' in opened) return opened.refusal;
  const { record: sealed, key } = await sealedRecord(opened.keys, next, opened.record);
  await sessionArea().set(await unlockedSessionValues(opened.keys, key, now));
  await local().set({ [LOCK_RECORD_NAME]: sealed });
  return { ok: true };
}

/** The idle time and the background choices, changed while unlocked (nothing sealed changes). */
export async function changeLockSettings(
  change: Partial<Pick<LockRecord, 'idleMinutes' | 'background'>>,
): Promise<LockOutcome> {
  const [record, status] = await Promise.all([readRecord(), readLockStatus()]);
  if (!record) return { ok: false, reason: 'not-on' };
  if (!status.unlocked) return { ok: false, reason: 'wrong-passphrase' };
  await local().set({ [LOCK_RECORD_NAME]: lockRecordSchema.parse({ ...record, ...change }) });
  return { ok: true };
}

/** Marks a use of what the lock guards: the idle time counts from the last one. */
export async function touchLock(now: number = Date.now()): Promise<void> {
  if (!browser.storage.session) return;
  const current = lockSessionSchema.safeParse(
    (await sessionArea().get(LOCK_SESSION_NAME))[LOCK_SESSION_NAME],
  );
  if (!current.success) return;
  await sessionArea().set({ [LOCK_SESSION_NAME]: { ...current.data, lastUsedAt: now } });
}

/** Locks when unlocked and unused for the idle time; true when it locked. */
export async function lockIfIdle(activeAccountId: string | null, now: number = Date.now()): Promise<boolean> {
  const record = await readRecord();
  if (!record || !browser.storage.session) return false;
  const current = lockSessionSchema.safeParse(
    (await sessionArea().get(LOCK_SESSION_NAME))[LOCK_SESSION_NAME],
  );
  if (!current.success) return false;
  const unusedFor = now - Math.min(current.data.lastUsedAt, now);
  if (unusedFor < record.idleMinutes * 60_000) return false;
  await lockNow(activeAccountId);
  return true;
}

/** Every name the lock stores under (PRIVACY.md lists each; tests/unit/security checks it). */
export const LOCK_STORAGE_NAMES = [
  LOCK_RECORD_NAME,
  FAILURES_NAME,
  LOCK_KEY_NAME,
  LOCK_SESSION_NAME,
] as const;
