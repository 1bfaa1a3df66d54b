/**
 * The passphrase lock (lib/lock, docs/lock.md): the keys sealed at rest with a key derived from the
 * passphrase, never in plain in storage.local or storage.sync while it is on; unlocked only in
 * storage.session; wrong passphrases refused and slowed down; locking when idle; turning it off
 * brings the keys back.
 */
import fc from 'fast-check';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { createAccounts } from '@/lib/accounts';
import { readAccounts } from '@/lib/accounts/store';
import { readConfiguredAccounts } from '@/lib/identity/current';
import { deriveKey, newSalt, open, seal } from '@/lib/lock/crypto';
import { LOCK_RECORD_NAME, LockedError } from '@/lib/lock/sealed-storage';
import {
  changePassphrase,
  FAILURES_NAME,
  isLocked,
  lockIfIdle,
  lockNow,
  readLockStatus,
  touchLock,
  turnOffLock,
  turnOnLock,
  unlock,
  waitAfterFailures,
} from '@/lib/lock/state';
import { accountKeysItem, apiKeyItem, connectionItem } from '@/lib/settings/storage';

beforeEach(() => fakeBrowser.reset());

const HOME_KEY = 'home-key-0123456789abcdef';
const WORK_KEY = 'work-key-fedcba9876543210';
const PASSPHRASE = 'correct horse battery staple';
const T0 = 1_800_000_000_000;

/** Every stored value of storage.local and storage.sync, as text. */
async function persistentStorageText(): Promise<string> {
  const [local, sync] = await Promise.all([
    fakeBrowser.storage.local.get(null),
    fakeBrowser.storage.sync.get(null),
  ]);
  return JSON.stringify({ local, sync });
}

async function twoAccounts(): Promise<{ homeId: string; workId: string }> {
  await apiKeyItem.setValue(HOME_KEY);
  await connectionItem.setValue({ baseUrl: 'https://my.cleanbrowsing.org', form: 'A' });
  const api = createAccounts({
    confirm: async () => true,
    permissions: { request: async () => true, remove: async () => true },
    removeInWorker: async () => ({ removed: true, discarded: 0 }),
  });
  const homeId = (await api.list()).activeId;
  const workId = await api.add({ name: 'Work', key: WORK_KEY, baseUrl: 'my.cleanbrowsing.org', form: 'B' });
  return { homeId, workId };
}

const turnOn = (background: Record<string, 'keep' | 'strict'> = {}) =>
  turnOnLock({ passphrase: PASSPHRASE, idleMinutes: 5, background }, T0);

describe('the cryptography', () => {
  it('opens what it sealed with the same passphrase only, under a fresh IV each time', async () => {
    const derivation = { salt: newSalt(), iterations: 600_000 };
    const key = await deriveKey(PASSPHRASE, derivation.salt, derivation.iterations);
    const first = await seal(key, HOME_KEY, derivation);
    const second = await seal(key, HOME_KEY, derivation);
    expect(first.iv).not.toBe(second.iv);
    expect(first.data).not.toBe(second.data);
    expect(JSON.stringify(first)).not.toContain(HOME_KEY);
    expect(await open(key, first)).toBe(HOME_KEY);
    const wrong = await deriveKey('correct horse battery stapler', derivation.salt, derivation.iterations);
    expect(await open(wrong, first)).toBeNull();
  });
});

describe('turning the lock on', () => {
  it('leaves no key in plain in storage.local or storage.sync, and the pages still read them while unlocked', async () => {
    const { homeId, workId } = await twoAccounts();
    expect(await persistentStorageText()).toContain(HOME_KEY);

    expect(await turnOn()).toEqual({ ok: true });

    const stored = await persistentStorageText();
    expect(stored).not.toContain(HOME_KEY);
    expect(stored).not.toContain(WORK_KEY);
    expect(stored).toContain('"iterations":600000');
    expect(await apiKeyItem.getValue()).toBe(HOME_KEY);
    const accounts = await readAccounts();
    expect(accounts.accounts.map((account) => [account.id, account.key])).toEqual([
      [homeId, HOME_KEY],
      [workId, WORK_KEY],
    ]);
    expect(await readLockStatus(T0)).toMatchObject({ on: true, unlocked: true });
  });

  it('seals a key written while unlocked, and switching accounts keeps both sealed', async () => {
    const { workId } = await twoAccounts();
    await turnOn();
    const before = JSON.stringify((await fakeBrowser.storage.local.get('lock')).lock);
    await apiKeyItem.setValue('home-key-new-0000000000');
    expect(JSON.stringify((await fakeBrowser.storage.local.get('lock')).lock)).not.toBe(before);

    const api = createAccounts({
      confirm: async () => true,
      permissions: { request: async () => true, remove: async () => true },
      removeInWorker: async () => ({ removed: true, discarded: 0 }),
    });
    await api.activate(workId);
    expect(await apiKeyItem.getValue()).toBe(WORK_KEY);
    const stored = await persistentStorageText();
    expect(stored).not.toContain(WORK_KEY);
    expect(stored).not.toContain('home-key-new-0000000000');

    await lockNow(workId);
    expect(await unlock(PASSPHRASE, T0)).toEqual({ ok: true });
    expect(await apiKeyItem.getValue()).toBe(WORK_KEY);
    expect(Object.values(await accountKeysItem.getValue())).toEqual(['home-key-new-0000000000']);
  });
});

describe('locked', () => {
  it('reads no key, refuses to write one, and a wrong passphrase does not unlock', async () => {
    await twoAccounts();
    await turnOn();
    await lockNow(null);

    expect(await isLocked()).toBe(true);
    expect(await apiKeyItem.getValue()).toBe('');
    expect(await accountKeysItem.getValue()).toEqual({});
    expect((await readConfiguredAccounts()).every((account) => account.client === null)).toBe(true);
    await expect(apiKeyItem.setValue('typed-while-locked')).rejects.toBeInstanceOf(LockedError);
    expect(await persistentStorageText()).not.toContain('typed-while-locked');

    expect(await unlock('wrong passphrase', T0)).toMatchObject({ ok: false, reason: 'wrong-passphrase' });
    expect(await isLocked()).toBe(true);
    expect(await unlock(PASSPHRASE, T0)).toEqual({ ok: true });
    expect(await isLocked()).toBe(false);
    expect(await apiKeyItem.getValue()).toBe(HOME_KEY);
  });

  it('makes each wrong passphrase wait longer, and the wait survives a restart of the browser', async () => {
    await twoAccounts();
    await turnOn();
    await lockNow(null);
    expect(await unlock('wrong 1', T0)).toMatchObject({ reason: 'wrong-passphrase', waitSeconds: 0 });
    expect(await unlock('wrong 2', T0)).toMatchObject({ reason: 'wrong-passphrase', waitSeconds: 2 });
    // Even the right passphrase waits its turn.
    expect(await unlock(PASSPHRASE, T0 + 1_000)).toMatchObject({ reason: 'wait', waitSeconds: 1 });
    // The browser restarts: storage.session is cleared, the count is not.
    await fakeBrowser.storage.session.clear();
    expect((await readLockStatus(T0 + 1_000)).waitSeconds).toBe(1);
    expect(await unlock('wrong 3', T0 + 2_000)).toMatchObject({ reason: 'wrong-passphrase', waitSeconds: 4 });
    expect(waitAfterFailures(30)).toBe(15 * 60);
    expect(await unlock(PASSPHRASE, T0 + 6_000)).toEqual({ ok: true });
    expect((await readLockStatus(T0 + 6_000)).waitSeconds).toBe(0);
  });

  it('locks when the browser closes: storage.session is cleared', async () => {
    await twoAccounts();
    await turnOn();
    await fakeBrowser.storage.session.clear();
    expect(await isLocked()).toBe(true);
    expect(await apiKeyItem.getValue()).toBe('');
  });
});

describe('the idle time', () => {
  it('locks after the chosen time without use, counted from the last use', async () => {
    const { homeId } = await twoAccounts();
    await turnOn();
    expect(await lockIfIdle(homeId, T0 + 4 * 60_000)).toBe(false);
    await touchLock(T0 + 4 * 60_000);
    expect(await lockIfIdle(homeId, T0 + 8 * 60_000)).toBe(false);
    expect(await isLocked()).toBe(false);
    expect(await lockIfIdle(homeId, T0 + 9 * 60_000)).toBe(true);
    expect(await isLocked()).toBe(true);
  });
});

describe('background work while locked', () => {
  it('keeps the keys of accounts that chose to keep it running, and only theirs', async () => {
    const { homeId, workId } = await twoAccounts();
    await turnOn({ [homeId]: 'keep', [workId]: 'strict' });
    await lockNow(homeId);
    expect(await isLocked()).toBe(true);
    const clients = await readConfiguredAccounts();
    expect(clients.find((account) => account.accountId === homeId)?.client).not.toBeNull();
    expect(clients.find((account) => account.accountId === workId)?.client).toBeNull();
  });
});

describe('turning the lock off and changing the passphrase', () => {
  it('needs the passphrase, then puts the keys back where they were', async () => {
    const { workId } = await twoAccounts();
    await turnOn();
    await lockNow(null);
    expect(await turnOffLock('not it', {}, T0)).toMatchObject({ ok: false, reason: 'wrong-passphrase' });
    expect(await turnOffLock(PASSPHRASE, { lockRequired: true }, T0)).toMatchObject({
      ok: false,
      reason: 'required',
    });
    expect(await isLocked()).toBe(true);

    expect(await turnOffLock(PASSPHRASE, {}, T0)).toEqual({ ok: true });
    expect(await apiKeyItem.getValue()).toBe(HOME_KEY);
    expect(await accountKeysItem.getValue()).toEqual({ [workId]: WORK_KEY });
    const local = await fakeBrowser.storage.local.get(null);
    expect(local.lock).toBeUndefined();
    expect(await fakeBrowser.storage.session.get(null)).toEqual({});
  });

  it('changes the passphrase only given the current one', async () => {
    await twoAccounts();
    await turnOn();
    expect(await changePassphrase('not it', 'new passphrase', T0)).toMatchObject({ ok: false });
    expect(await changePassphrase(PASSPHRASE, 'new passphrase', T0)).toEqual({ ok: true });
    await lockNow(null);
    expect(await unlock(PASSPHRASE, T0)).toMatchObject({ ok: false, reason: 'wrong-passphrase' });
    expect(await unlock('new passphrase', T0)).toEqual({ ok: true });
    expect(await apiKeyItem.getValue()).toBe(HOME_KEY);
  });
});

describe('a page following the key', () => {
  it('sees the key disappear when it locks and come back when it unlocks', async () => {
    await twoAccounts();
    await turnOn();
    const seen = vi.fn();
    const unwatch = apiKeyItem.watch(seen);
    await lockNow(null);
    await vi.waitFor(() => expect(seen).toHaveBeenLastCalledWith(''));
    await unlock(PASSPHRASE, T0);
    await vi.waitFor(() => expect(seen).toHaveBeenLastCalledWith(HOME_KEY));
    unwatch();
  });
});

describe('garbage in the lock’s stored values', () => {
  it('a damaged lock record or failure count never breaks reading the lock: read as off, no wait', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.anything({ maxDepth: 3, withNullPrototype: false }),
        fc.anything({ maxDepth: 3, withNullPrototype: false }),
        async (record, failures) => {
          fakeBrowser.reset();
          await fakeBrowser.storage.local.set({ [LOCK_RECORD_NAME]: record, [FAILURES_NAME]: failures });
          const status = await readLockStatus(T0);
          expect(status).toMatchObject({ on: false, unlocked: true });
          expect(Number.isFinite(status.waitSeconds)).toBe(true);
          expect(await isLocked()).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  });
});
