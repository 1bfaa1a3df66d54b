import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { fingerprintOfKey } from '@/lib/account/key-fingerprint';
import { createEarlyReadSource, publishEarlyReads, startEarlyReads } from '@/lib/popup/early-reads';
import {
  auditMirror,
  forgetMirrored,
  inputSince,
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
    await session().set(mirrorRecords(['chosenProfile', 'outbox'], { chosenProfile: 'kids1' }));
    const reads = startEarlyReads(
      { local: neverAnswers, mirror: session() },
      hints(['chosenProfile', 'outbox']),
    );
    expect(await reads.values).toEqual({ chosenProfile: 'kids1' });
  });

  it('storage is asked only for the comparison, once it is wanted, in one get: not by the first script, nor as the modules load', async () => {
    await session().set(mirrorRecords(['chosenProfile', 'outbox'], { chosenProfile: 'kids1', outbox: [] }));
    const get = vi.fn(async (_keys: string[]) => ({ chosenProfile: 'kids1', outbox: [] }));
    const reads = startEarlyReads({ local: { get }, mirror: session() }, hints(['chosenProfile', 'outbox']));
    expect(await reads.values).toEqual({ chosenProfile: 'kids1', outbox: [] });
    const scope = {};
    publishEarlyReads(reads, scope);
    const source = createEarlyReadSource(scope);
    await source.read(['local:chosenProfile', 'local:outbox'], async () => new Map());
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(get).not.toHaveBeenCalled();
    expect(await source.mirrorChecks()).toEqual([
      {
        keys: ['chosenProfile', 'outbox'],
        mirrored: mirrorRecords(['chosenProfile', 'outbox'], { chosenProfile: 'kids1', outbox: [] }),
        stored: { chosenProfile: 'kids1', outbox: [] },
      },
    ]);
    expect(get.mock.calls).toEqual([[['chosenProfile', 'outbox']]]);
  });

  it('the popup’s own writes wait until storage has answered the comparison read', async () => {
    await session().set(mirrorRecords(['registrableDomains'], { registrableDomains: {} }));
    let answerStorage: (values: Record<string, unknown>) => void = () => {};
    const stored = new Promise<Record<string, unknown>>((resolve) => {
      answerStorage = resolve;
    });
    const reads = startEarlyReads(
      { local: { get: () => stored }, mirror: session() },
      hints(['registrableDomains']),
    );
    const scope = {};
    publishEarlyReads(reads, scope);
    const source = createEarlyReadSource(scope);
    let done = false;
    void source.comparedReadDone().then(() => {
      done = true;
    });
    await reads.values;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(done).toBe(false);
    answerStorage({ registrableDomains: {} });
    await expect(source.comparedReadDone()).resolves.toBeUndefined();
    expect(done).toBe(true);
  });

  it('a mirror missing one key leaves the whole batch to storage', async () => {
    await session().set(mirrorRecords(['chosenProfile'], { chosenProfile: 'old' }));
    await fakeBrowser.storage.local.set({ chosenProfile: 'kids1', outbox: [] });
    const areas = { local: fakeBrowser.storage.local, mirror: session() };
    const reads = startEarlyReads(areas, hints(['chosenProfile', 'outbox']));
    expect(await reads.values).toEqual({ chosenProfile: 'kids1', outbox: [] });
    expect(await reads.keyFingerprint).toBeUndefined();
  });

  it('a mirror that fails to answer leaves the batch to storage', async () => {
    await fakeBrowser.storage.local.set({ chosenProfile: 'kids1' });
    const failing = { get: () => Promise.reject(new Error('no session storage')) };
    const reads = startEarlyReads(
      { local: fakeBrowser.storage.local, mirror: failing },
      hints(['chosenProfile']),
    );
    expect(await reads.values).toEqual({ chosenProfile: 'kids1' });
  });
});

describe('the API key and the mirror', () => {
  it('the mirror holds the key’s fingerprint, never the key', () => {
    const records = mirrorRecords(['apiKey', 'outbox'], { apiKey: 'secret-key-1', outbox: [] });
    expect(JSON.stringify(records)).not.toContain('secret-key-1');
    expect(records[mirrorKey('apiKey')]).toEqual({ fingerprint: fingerprintOfKey('secret-key-1') });
    expect(mirrorRecords(['apiKey'], {})[mirrorKey('apiKey')]).toEqual({});
    expect(mirrorRecords(['apiKey'], { apiKey: '' })[mirrorKey('apiKey')]).toEqual({});
  });

  it('from the mirror the popup gets the fingerprint at once, and the key from storage’s answer once the comparison is asked', async () => {
    await session().set(mirrorRecords(['apiKey', 'outbox'], { apiKey: 'k-1', outbox: ['queued'] }));
    let answerStorage: (values: Record<string, unknown>) => void = () => {};
    const stored = new Promise<Record<string, unknown>>((resolve) => {
      answerStorage = resolve;
    });
    const reads = startEarlyReads(
      { local: { get: () => stored }, mirror: session() },
      hints(['apiKey', 'outbox']),
    );
    expect(await reads.values).toEqual({ outbox: ['queued'] });
    expect(await reads.keyFingerprint).toBe(fingerprintOfKey('k-1'));

    const scope = {};
    publishEarlyReads(reads, scope);
    const source = createEarlyReadSource(scope);
    const readNow = vi.fn(async () => new Map<string, unknown>());
    expect(await source.read(['local:outbox'], readNow)).toEqual(new Map([['local:outbox', ['queued']]]));
    let key: Map<string, unknown> | undefined;
    void source.read(['local:apiKey'], readNow).then((answer) => {
      key = answer;
    });
    answerStorage({ apiKey: 'k-1', outbox: ['queued'] });
    await new Promise((resolve) => setTimeout(resolve, 0));
    // The key waits for the comparison read, and does not ask for it: it comes after the first view.
    expect(key).toBeUndefined();
    await source.mirrorChecks();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(key).toEqual(new Map([['local:apiKey', 'k-1']]));
    expect(readNow).not.toHaveBeenCalled();
  });

  it('a mirror missing a key: the key comes with storage’s answer to the batch, without waiting for the comparison', async () => {
    await session().set(mirrorRecords(['apiKey'], { apiKey: 'k-1' }));
    await fakeBrowser.storage.local.set({ apiKey: 'k-2', outbox: ['queued'] });
    const reads = startEarlyReads(
      { local: fakeBrowser.storage.local, mirror: session() },
      hints(['apiKey', 'outbox']),
    );
    const scope = {};
    publishEarlyReads(reads, scope);
    const source = createEarlyReadSource(scope);
    const readNow = vi.fn(async () => new Map<string, unknown>());
    expect(await source.read(['local:apiKey', 'local:outbox'], readNow)).toEqual(
      new Map<string, unknown>([
        ['local:apiKey', 'k-2'],
        ['local:outbox', ['queued']],
      ]),
    );
    expect(readNow).not.toHaveBeenCalled();
  });

  it('a mirror that says no key is set gives no fingerprint', async () => {
    await session().set(mirrorRecords(['apiKey'], {}));
    const reads = startEarlyReads({ local: neverAnswers, mirror: session() }, hints(['apiKey']));
    expect(await reads.keyFingerprint).toBeNull();
  });

  it('another key in storage than the mirror’s fingerprint stands for is stale', async () => {
    const mirrored = mirrorRecords(['apiKey'], { apiKey: 'old-key' });
    const outcome = await auditMirror(
      { keys: ['apiKey'], mirrored, stored: { apiKey: 'new-key' } },
      { session: session(), readStored: async () => ({ apiKey: 'new-key' }) },
    );
    expect(outcome).toBe('stale');
    expect(await session().get(mirrorKey('apiKey'))).toEqual({
      [mirrorKey('apiKey')]: { fingerprint: fingerprintOfKey('new-key') },
    });
  });
});

describe('auditMirror: the mirror compared with storage once the first view is shown', () => {
  const keys = ['connection', 'chosenProfile'];
  const areas = () => ({ session: session(), readStored: readLocal });
  /** What the popup read: the mirror's values (null: it read storage's) and storage's answer. */
  const check = (mirrored: Record<string, unknown> | null, stored: MirrorCheck['stored']): MirrorCheck => ({
    keys,
    mirrored: mirrored === null ? null : mirrorRecords(keys, mirrored),
    stored,
  });

  it('the same values: fresh, and nothing is written', async () => {
    const set = vi.spyOn(session(), 'set');
    const same = { connection: 'c', chosenProfile: { id: 1 } };
    expect(await auditMirror(check(same, { ...same }), areas())).toBe('fresh');
    expect(set).not.toHaveBeenCalled();
  });

  it('a value storage no longer holds: stale, and the mirror then holds storage’s', async () => {
    await fakeBrowser.storage.local.set({ connection: 'new' });
    expect(await auditMirror(check({ connection: 'old' }, { connection: 'new' }), areas())).toBe('stale');
    const reads = startEarlyReads({ local: neverAnswers, mirror: session() }, hints(['connection']));
    expect(await reads.values).toEqual({ connection: 'new' });
  });

  it('a value removed from storage is stale too', async () => {
    expect(await auditMirror(check({ connection: 'removed' }, {}), areas())).toBe('stale');
    expect(await session().get(mirrorKey('connection'))).toEqual({ [mirrorKey('connection')]: {} });
  });

  it('read from storage: every key is mirrored for the next opening', async () => {
    await fakeBrowser.storage.local.set({ connection: 'c' });
    expect(await auditMirror(check(null, { connection: 'c' }), areas())).toBe('filled');
    const reads = startEarlyReads({ local: neverAnswers, mirror: session() }, hints(keys));
    expect(await reads.values).toEqual({ connection: 'c' });
  });

  it('a value that changed while it was being mirrored is not mirrored', async () => {
    // Storage answered `c` at start; it holds `c2` by the time the copy is written.
    await fakeBrowser.storage.local.set({ connection: 'c2' });
    expect(await auditMirror(check(null, { connection: 'c' }), areas())).toBe('filled');
    const mirrored = await session().get([mirrorKey('connection'), mirrorKey('chosenProfile')]);
    expect(mirrored).toEqual({ [mirrorKey('chosenProfile')]: {} });
  });

  it('storage that failed to answer: nothing is compared or written', async () => {
    const set = vi.spyOn(session(), 'set');
    expect(await auditMirror(check({ connection: 'c' }, null), areas())).toBe('unchecked');
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

  it('never under the user’s hand: once they have clicked or typed, the page stays', () => {
    const shown = page();
    const target = new EventTarget();
    const acted = inputSince(target);
    expect(reopenOnce('stale', { ...shown, acted })).toBe(true);
    shown.sessionStorage.removeItem('startMirrorReopened');
    target.dispatchEvent(new Event('keydown'));
    expect(acted()).toBe(true);
    expect(reopenOnce('stale', { ...shown, acted })).toBe(false);
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
