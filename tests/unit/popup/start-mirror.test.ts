import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { startEarlyReads } from '@/lib/popup/early-reads';
import {
  auditMirror,
  forgetMirrored,
  type MirrorCheck,
  mirrorKey,
  mirrorRecords,
  reopenOnce,
  startMirrorUsed,
} from '@/lib/popup/start-mirror';

beforeEach(() => fakeBrowser.reset());

const session = () => fakeBrowser.storage.session;
const hints = (keys: string[]) => ({ getItem: () => JSON.stringify(keys) });
/** A storage read that never answers: values that arrive came from elsewhere. */
const neverAnswers = { get: () => new Promise<Record<string, unknown>>(() => {}) };
const readLocal = async (keys: readonly string[]) => fakeBrowser.storage.local.get([...keys]);

describe('where the popup takes its start values from', () => {
  it('the mirror in Firefox, storage alone in Chromium', () => {
    expect(startMirrorUsed('firefox')).toBe(true);
    expect(startMirrorUsed('chrome')).toBe(false);
  });

  it('a mirror holding every key answers without waiting for storage, a key with no value included', async () => {
    await session().set(mirrorRecords(['apiKey', 'outbox'], { apiKey: 'k-1' }));
    const reads = startEarlyReads({ local: neverAnswers, mirror: session() }, hints(['apiKey', 'outbox']));
    expect(await reads.values).toEqual({ apiKey: 'k-1' });
  });

  it('a mirror missing one key leaves the whole batch to storage', async () => {
    await session().set(mirrorRecords(['apiKey'], { apiKey: 'old key' }));
    await fakeBrowser.storage.local.set({ apiKey: 'k-2', outbox: [] });
    const reads = startEarlyReads(
      { local: fakeBrowser.storage.local, mirror: session() },
      hints(['apiKey', 'outbox']),
    );
    expect(await reads.values).toEqual({ apiKey: 'k-2', outbox: [] });
  });

  it('a mirror that fails to answer leaves the batch to storage', async () => {
    await fakeBrowser.storage.local.set({ apiKey: 'k-3' });
    const failing = { get: () => Promise.reject(new Error('no session storage')) };
    const reads = startEarlyReads({ local: fakeBrowser.storage.local, mirror: failing }, hints(['apiKey']));
    expect(await reads.values).toEqual({ apiKey: 'k-3' });
  });
});

describe('auditMirror: the mirror compared with storage once the first view is shown', () => {
  const areas = () => ({ session: session(), readStored: readLocal });
  const check = (mirrored: MirrorCheck['mirrored'], stored: MirrorCheck['stored']): MirrorCheck => ({
    keys: ['apiKey', 'chosenProfile'],
    mirrored,
    stored,
  });

  it('the same values: fresh, and nothing is written', async () => {
    const set = vi.spyOn(session(), 'set');
    const outcome = await auditMirror(
      check({ apiKey: 'k', chosenProfile: { id: 1 } }, { apiKey: 'k', chosenProfile: { id: 1 } }),
      areas(),
    );
    expect(outcome).toBe('fresh');
    expect(set).not.toHaveBeenCalled();
  });

  it('a value storage no longer holds: stale, and the mirror then holds storage’s', async () => {
    await fakeBrowser.storage.local.set({ apiKey: 'new key' });
    const outcome = await auditMirror(check({ apiKey: 'old key' }, { apiKey: 'new key' }), areas());
    expect(outcome).toBe('stale');
    const reads = startEarlyReads({ local: neverAnswers, mirror: session() }, hints(['apiKey']));
    expect(await reads.values).toEqual({ apiKey: 'new key' });
  });

  it('a value removed from storage is stale too', async () => {
    const outcome = await auditMirror(check({ apiKey: 'removed key' }, {}), areas());
    expect(outcome).toBe('stale');
    expect(await session().get(mirrorKey('apiKey'))).toEqual({ [mirrorKey('apiKey')]: {} });
  });

  it('read from storage: every key is mirrored for the next opening', async () => {
    await fakeBrowser.storage.local.set({ apiKey: 'k' });
    expect(await auditMirror(check(null, { apiKey: 'k' }), areas())).toBe('filled');
    const reads = startEarlyReads(
      { local: neverAnswers, mirror: session() },
      hints(['apiKey', 'chosenProfile']),
    );
    expect(await reads.values).toEqual({ apiKey: 'k' });
  });

  it('a value that changed while it was being mirrored is not mirrored', async () => {
    // Storage answered `k` at start; it holds `k2` by the time the copy is written.
    await fakeBrowser.storage.local.set({ apiKey: 'k2' });
    expect(await auditMirror(check(null, { apiKey: 'k' }), areas())).toBe('filled');
    const mirrored = await session().get([mirrorKey('apiKey'), mirrorKey('chosenProfile')]);
    expect(mirrored).toEqual({ [mirrorKey('chosenProfile')]: {} });
  });

  it('storage that failed to answer: nothing is compared or written', async () => {
    const set = vi.spyOn(session(), 'set');
    expect(await auditMirror(check({ apiKey: 'k' }, null), areas())).toBe('unchecked');
    expect(set).not.toHaveBeenCalled();
  });
});

describe('forgetMirrored: the worker forgets the copies of changed keys', () => {
  it('removes the copies of the changed keys only', async () => {
    await session().set(mirrorRecords(['apiKey', 'outbox'], { apiKey: 'k', outbox: [] }));
    await forgetMirrored(session(), ['apiKey', 'cachedLists:A']);
    expect(Object.keys(await session().get(null))).toEqual([mirrorKey('outbox')]);
  });
});

describe('reopenOnce', () => {
  function page() {
    const stored = new Map<string, string>();
    const sessionStorage = {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => void stored.set(key, value),
      removeItem: (key: string) => void stored.delete(key),
    };
    return { sessionStorage, reload: vi.fn() };
  }

  it('opens the page anew when it showed stale values, and only then', () => {
    const shown = page();
    expect(reopenOnce('fresh', shown)).toBe(false);
    expect(reopenOnce('filled', shown)).toBe(false);
    expect(reopenOnce('stale', shown)).toBe(true);
    expect(shown.reload).toHaveBeenCalledTimes(1);
  });

  it('never twice in a row: a mirror that cannot be written does not reload the popup for ever', () => {
    const shown = page();
    reopenOnce('stale', shown);
    expect(reopenOnce('stale', shown)).toBe(false);
    expect(shown.reload).toHaveBeenCalledTimes(1);
    // The flag is spent: a later stale mirror reopens the page again.
    expect(reopenOnce('stale', shown)).toBe(true);
  });
});
