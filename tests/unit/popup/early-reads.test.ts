import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import {
  askForKeys,
  createEarlyReadSource,
  EARLY_READ_KEYS_HINT,
  type EarlyReads,
  hintedKeys,
  publishEarlyReads,
  startEarlyReads,
} from '@/lib/popup/early-reads';

/** A localStorage stand-in that counts writes. */
function hintStore(initial?: unknown) {
  const values = new Map<string, string>();
  if (initial !== undefined) values.set(EARLY_READ_KEYS_HINT, JSON.stringify(initial));
  let writes = 0;
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => {
      writes++;
      values.set(key, value);
    },
    get writes() {
      return writes;
    },
    get keys(): unknown {
      return JSON.parse(values.get(EARLY_READ_KEYS_HINT) ?? 'null');
    },
  };
}

/** A page scope holding the first script's reads of `values`. */
function pageWith(values: Promise<Record<string, unknown>>, keys: string[]): object {
  const scope = {};
  publishEarlyReads({ keys, values } satisfies EarlyReads, scope);
  return scope;
}

/** `readNow` that answers from `stored` and records each call's keys. */
function storageReads(stored: Record<string, unknown>) {
  const calls: string[][] = [];
  const readNow = async (keys: string[]) => {
    calls.push(keys);
    return new Map(keys.map((key) => [key, stored[key.replace(/^local:/, '')]] as const));
  };
  return { calls, readNow };
}

describe('hintedKeys', () => {
  it.each([
    ['no hint', undefined, []],
    ['a list of keys', ['apiKey', 'connection'], ['apiKey', 'connection']],
    ['not a list', { apiKey: true }, []],
    ['too many keys', Array.from({ length: 33 }, (_, i) => `k${i}`), []],
    ['entries that are not keys', ['apiKey', 3, '', null], ['apiKey']],
  ])('%s', (_name, hint, keys) => {
    expect(hintedKeys(hintStore(hint))).toEqual(keys);
  });

  it('a hint that is not JSON reads as none', () => {
    expect(hintedKeys({ getItem: () => '[oops' })).toEqual([]);
  });
});

describe('startEarlyReads', () => {
  it('reads the remembered keys in one call', async () => {
    const get = vi.fn(async (keys: string[]) => Object.fromEntries(keys.map((key) => [key, 1])));
    const reads = startEarlyReads({ local: { get } }, hintStore(['apiKey', 'connection']));
    expect(await reads.values).toEqual({ apiKey: 1, connection: 1 });
    expect(get).toHaveBeenCalledExactlyOnceWith(['apiKey', 'connection']);
  });

  it('a first opening reads nothing early', async () => {
    const get = vi.fn();
    const reads = startEarlyReads({ local: { get } }, hintStore());
    expect(reads.keys).toEqual([]);
    expect(await reads.values).toEqual({});
    expect(get).not.toHaveBeenCalled();
  });

  it('a storage call that throws at once becomes a failed read, not a crashed script', async () => {
    const reads = startEarlyReads(
      {
        local: {
          get: () => {
            throw new Error('no storage');
          },
        },
      },
      hintStore(['apiKey']),
    );
    await expect(reads.values).rejects.toThrow('no storage');
  });
});

describe('askForKeys', () => {
  /** A `get` whose answers come back in the reverse order of the asking, and that records each call. */
  function slowFirst() {
    const calls: string[][] = [];
    let pending = 0;
    const get = async (keys: string[]) => {
      calls.push(keys);
      const wait = 10 - pending++;
      await new Promise((resolve) => setTimeout(resolve, wait));
      return Object.fromEntries(keys.map((key) => [key, key.length]));
    };
    return { calls, get };
  }

  it('Chromium answers several keys in one message: they are asked in one call', async () => {
    const { calls, get } = slowFirst();
    expect(await askForKeys(['apiKey', 'outbox'], get, 'chrome')).toEqual([{ apiKey: 6, outbox: 6 }]);
    expect(calls).toEqual([['apiKey', 'outbox']]);
  });

  it('Firefox reads a call’s keys one after another: each key is asked alone, all at once, answers in asking order', async () => {
    const { calls, get } = slowFirst();
    const answers = askForKeys(['apiKey', 'outbox', 'connection'], get, 'firefox');
    // Every call is made before any answer comes back.
    expect(calls).toEqual([['apiKey'], ['outbox'], ['connection']]);
    expect(await answers).toEqual([{ apiKey: 6 }, { outbox: 6 }, { connection: 10 }]);
  });
});

describe('createEarlyReadSource', () => {
  it('without a first script, every read goes to storage and nothing is remembered', async () => {
    const source = createEarlyReadSource({});
    const { calls, readNow } = storageReads({ apiKey: 'k' });
    expect(await source.read(['local:apiKey'], readNow)).toEqual(new Map([['local:apiKey', 'k']]));
    expect(calls).toEqual([['local:apiKey']]);
    const hints = hintStore();
    source.remember(hints, source.readSoFar());
    expect(hints.writes).toBe(0);
  });

  it('answers the keys read early without asking storage, once each', async () => {
    const source = createEarlyReadSource(
      pageWith(Promise.resolve({ apiKey: 'early', connection: { form: 'A' } }), ['apiKey', 'connection']),
    );
    const { calls, readNow } = storageReads({ apiKey: 'later', chosenProfile: 'kids' });

    const first = await source.read(['local:apiKey', 'local:chosenProfile'], readNow);
    expect(first).toEqual(
      new Map<string, unknown>([
        ['local:apiKey', 'early'],
        ['local:chosenProfile', 'kids'],
      ]),
    );
    // Only the key not read early went to storage.
    expect(calls).toEqual([['local:chosenProfile']]);

    // A second read of a key may see a newer value: it goes to storage.
    expect(await source.read(['local:apiKey'], readNow)).toEqual(new Map([['local:apiKey', 'later']]));
    expect(calls).toEqual([['local:chosenProfile'], ['local:apiKey']]);
  });

  it('a key read early but not stored reads as missing', async () => {
    const source = createEarlyReadSource(pageWith(Promise.resolve({}), ['outbox']));
    const { calls, readNow } = storageReads({ outbox: ['should not be read'] });
    expect(await source.read(['local:outbox'], readNow)).toEqual(new Map([['local:outbox', undefined]]));
    expect(calls).toEqual([]);
  });

  it('a failed early read is made good by reading storage', async () => {
    const failed = Promise.reject(new Error('storage busy'));
    failed.catch(() => undefined);
    const source = createEarlyReadSource(pageWith(failed, ['apiKey']));
    const { calls, readNow } = storageReads({ apiKey: 'k' });
    expect(await source.read(['local:apiKey'], readNow)).toEqual(new Map([['local:apiKey', 'k']]));
    expect(calls).toEqual([['local:apiKey']]);
  });

  it('keys of another area are never taken from the early read', async () => {
    const source = createEarlyReadSource(pageWith(Promise.resolve({ failedHosts: {} }), ['failedHosts']));
    const { calls, readNow } = storageReads({});
    await source.read(['session:failedHosts'], readNow);
    expect(calls).toEqual([['session:failedHosts']]);
  });

  it('remembers the storage.local keys read, for the next opening, and writes only a change', async () => {
    const source = createEarlyReadSource(pageWith(Promise.resolve({}), []));
    const { readNow } = storageReads({});
    await source.read(['local:apiKey', 'local:connection', 'session:failedHosts'], readNow);
    await source.read(['local:apiKey', 'local:cachedLists:A:default'], readNow);
    const hints = hintStore();
    source.remember(hints, source.readSoFar());
    expect(hints.keys).toEqual(['apiKey', 'connection', 'cachedLists:A:default']);
    source.remember(hints, source.readSoFar());
    expect(hints.writes).toBe(1);
    // What the next opening's first script will read.
    expect(hintedKeys(hints)).toEqual(['apiKey', 'connection', 'cachedLists:A:default']);
  });

  it('remembers only the keys read up to a moment (the first view), not what was read after it', async () => {
    const source = createEarlyReadSource(pageWith(Promise.resolve({}), []));
    const { readNow } = storageReads({});
    await source.read(['local:apiKey', 'local:outbox'], readNow);
    const firstView = source.readSoFar();
    // A panel shown after the verdict reads its own setting.
    await source.read(['local:dynamicIp'], readNow);
    const hints = hintStore();
    source.remember(hints, firstView);
    expect(hintedKeys(hints)).toEqual(['apiKey', 'outbox']);
  });

  it('a localStorage that refuses writes loses only the hint', () => {
    const source = createEarlyReadSource(pageWith(Promise.resolve({}), []));
    expect(() =>
      source.remember(
        {
          getItem: () => null,
          setItem: () => {
            throw new DOMException('full', 'QuotaExceededError');
          },
        },
        ['apiKey'],
      ),
    ).not.toThrow();
  });
});

describe('storage items on a page with early reads', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    vi.resetModules();
  });
  afterEach(() => {
    Reflect.deleteProperty(globalThis, '__dnsFilterEarlyReads');
  });

  it('the first read of an item takes the early answer, still checked by its schema', async () => {
    await fakeBrowser.storage.local.set({ chosenProfile: 'stored', apiKey: 'stored-key' });
    // What the first script read moments ago: a profile, and an API key that is not a string.
    publishEarlyReads({
      keys: ['chosenProfile', 'apiKey'],
      values: Promise.resolve({ chosenProfile: 'early', apiKey: 42 }),
    });
    const { apiKeyItem, chosenProfileItem } = await import('@/lib/settings/storage');
    const { getValues } = await import('@/lib/settings/stored-reads');

    // The key read early fails its schema: the fallback, as from storage.
    expect(await getValues([chosenProfileItem, apiKeyItem] as const)).toEqual(['early', '']);
    // Later reads ask storage.
    expect(await chosenProfileItem.getValue()).toBe('stored');
    expect(await apiKeyItem.getValue()).toBe('stored-key');
  });
});

describe('reads that wait for the tab (the cached lists of its site)', () => {
  const isBucket = (key: string) => key.startsWith('bucket:');
  /** The last opening read `bucket:1` and `bucket:2`; this one's site needs `bucket:7`. */
  function readsForSite(site: Promise<string[]>) {
    const get = vi.fn(async (keys: string[]) =>
      Object.fromEntries(keys.map((key) => [key, `stored ${key}`])),
    );
    const reads = startEarlyReads({ local: { get } }, hintStore(['apiKey', 'bucket:1', 'bucket:2']), {
      matches: isBucket,
      keysFor: async (remembered) => {
        expect(remembered).toEqual(['bucket:1', 'bucket:2']);
        return site;
      },
    });
    const scope = {};
    publishEarlyReads(reads, scope);
    return { get, reads, source: createEarlyReadSource(scope) };
  }

  it('reads the other keys at once and, once the tab is known, the keys of its site instead of the last one’s', async () => {
    const { get, reads, source } = readsForSite(Promise.resolve(['bucket:7']));
    expect(reads.keys).toEqual(['apiKey']);
    const { calls, readNow } = storageReads({ 'bucket:7': 'from storage' });
    expect(await source.read(['local:apiKey'], readNow)).toEqual(
      new Map([['local:apiKey', 'stored apiKey']]),
    );
    expect(await source.read(['local:bucket:7'], readNow)).toEqual(
      new Map([['local:bucket:7', 'stored bucket:7']]),
    );
    expect(calls).toEqual([]);
    expect(get.mock.calls).toEqual([[['apiKey']], [['bucket:7']]]);
    // Each answer serves one read: the next read of the same key goes to storage.
    expect(await source.read(['local:bucket:7'], readNow)).toEqual(
      new Map([['local:bucket:7', 'from storage']]),
    );
  });

  it('a key the tab did not name, or a tab that could not be read, goes to storage', async () => {
    const failed = Promise.reject(new Error('no tab'));
    failed.catch(() => undefined);
    const { source } = readsForSite(failed);
    const { calls, readNow } = storageReads({ 'bucket:7': 'from storage' });
    expect(await source.read(['local:bucket:7'], readNow)).toEqual(
      new Map([['local:bucket:7', 'from storage']]),
    );
    expect(calls).toEqual([['local:bucket:7']]);
  });

  it('other keys never wait for the tab', async () => {
    const { source } = readsForSite(new Promise(() => {}));
    const { readNow } = storageReads({ chosenProfile: 'kids' });
    expect(await source.read(['local:apiKey', 'local:chosenProfile'], readNow)).toEqual(
      new Map([
        ['local:apiKey', 'stored apiKey'],
        ['local:chosenProfile', 'kids'],
      ]),
    );
  });
});
