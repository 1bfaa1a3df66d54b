/**
 * The popup's first script (lib/popup/first-script.ts) asks for the fixed start values (with the
 * names the last opening read after its tab) and the tab before the modules load, then for the
 * site's lists not asked yet; the modules take each answer once (lib/settings/early-answers.ts)
 * and ask storage for anything else.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { type ExtensionApi, startPopupEarly } from '@/lib/popup/first-script';
import { REMEMBERED_NAMES_RECORD } from '@/lib/popup/remembered-names';
import { START_NAMES } from '@/lib/popup/start-keys';
import { dropEarlyAnswers, readWithEarly, useEarlyAnswers } from '@/lib/settings/early-answers';
import { copyName } from '@/lib/settings/start-copies';
import { connectionItem, outboxItem } from '@/lib/settings/storage';

const FINGERPRINT = '0123456789abcdef';
const STORED: Record<string, unknown> = {
  connection: { baseUrl: 'https://dns.example', form: 'A' },
  apiKeyFingerprint: FINGERPRINT,
  chosenProfile: 'kids',
};

function fakeApi(calls: string[], stored = STORED, site = 'https://news.example.org/'): ExtensionApi {
  return {
    storage: {
      local: {
        get: async (keys) => {
          calls.push(`get ${keys.join(',')}`);
          return Object.fromEntries(keys.filter((key) => key in stored).map((key) => [key, stored[key]]));
        },
      },
    },
    tabs: {
      get: async () => ({ url: site }),
      query: async () => {
        calls.push('tab');
        return [{ id: 3, url: site }];
      },
    },
  };
}

beforeEach(() => {
  fakeBrowser.reset();
  localStorage.clear();
});
afterEach(() => dropEarlyAnswers());

describe('the popup’s first script', () => {
  it('asks for the start values before the tab, and for the site’s lists and notes once both are known', async () => {
    const calls: string[] = [];
    startPopupEarly({ document, location: { search: '' } as Location, api: fakeApi(calls) });
    expect(calls).toEqual([`get ${START_NAMES.join(',')}`, 'tab']);
    expect(await useEarlyAnswers()).toEqual({ id: 3, url: 'https://news.example.org/' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const account = `A https://dns.example ${FINGERPRINT}`;
    expect(calls[2]).toMatch(
      new RegExp(`^get cachedLists:A:kids ${account},cachedListsBucket:\\d+:A:kids ${account},`),
    );
    expect(calls[2]).toContain(`listNotes:${account}`);
  });

  it('in Firefox, reads its start copies, and storage for each name without one, on its own', async () => {
    const calls: string[] = [];
    const api = {
      ...fakeApi(calls),
      storage: { ...fakeApi(calls).storage, session: fakeBrowser.storage.session },
    };
    await fakeBrowser.storage.session.set({ [copyName('connection')]: { value: STORED.connection } });
    startPopupEarly({ document, location: { search: '' } as Location, api, browserName: 'firefox' });
    await useEarlyAnswers();
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Each name without a copy is read on its own (and once more, to check the copy made of it).
    expect(calls).not.toContain('get connection');
    const others = START_NAMES.filter((name) => name !== 'connection');
    expect(calls).toEqual(expect.arrayContaining(others.map((name) => `get ${name}`)));
    expect(calls.some((call) => call.startsWith('get cachedLists:A:kids'))).toBe(true);
  });

  it('asks for nothing more while no key is set', async () => {
    const calls: string[] = [];
    startPopupEarly({
      document,
      location: { search: '' } as Location,
      api: fakeApi(calls, { connection: STORED.connection }),
    });
    await useEarlyAnswers();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls).toEqual([`get ${START_NAMES.join(',')}`, 'tab']);
  });
});

/** Opens a popup's first script on `site` and lets every answer in; its storage calls. */
async function openOn(site: string): Promise<string[]> {
  dropEarlyAnswers();
  const calls: string[] = [];
  startPopupEarly({ document, location: { search: '' } as Location, api: fakeApi(calls, STORED, site) });
  await useEarlyAnswers();
  await new Promise((resolve) => setTimeout(resolve, 0));
  return calls;
}

const namesOf = (call: string | undefined) => (call ?? '').replace(/^get /, '').split(',');

describe('the names the last opening read after its tab', () => {
  it('are asked with the start values next time: on the same site, one storage round trip', async () => {
    const firstOpening = await openOn('https://news.example.org/');
    const siteNames = namesOf(firstOpening[2]);
    const again = await openOn('https://news.example.org/');
    expect(again).toEqual([`get ${[...START_NAMES, ...siteNames].join(',')}`, 'tab']);
    // The lists and notes the modules read are the first answer's: storage is not asked again.
    const readNow = vi.fn(async () => ({}));
    await readWithEarly(siteNames, readNow);
    expect(readNow).not.toHaveBeenCalled();
  });

  it('on another site, the buckets it needs are asked once the tab is known, and nothing twice', async () => {
    const onNews = namesOf((await openOn('https://news.example.org/'))[2]);
    const onShop = await openOn('https://shop.example.net/');
    const [head, notes] = [onNews[0], onNews[onNews.length - 1]];
    expect(namesOf(onShop[0])).toEqual(expect.arrayContaining([head, notes]));
    // The head and the notes are the account's, not the site's: only the new buckets are left.
    const asked = namesOf(onShop[2]);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((name) => name.startsWith('cachedListsBucket:'))).toBe(true);
    expect(asked.some((name) => onNews.includes(name))).toBe(false);
    // And the next opening remembers the new site's names.
    expect(JSON.parse(localStorage.getItem(REMEMBERED_NAMES_RECORD) ?? '[]')).toEqual(
      expect.arrayContaining(asked),
    );
  });

  it('a record of the wrong shape is as none: the opening asks as if nothing were remembered', async () => {
    for (const garbage of ['{', '{"a":1}', JSON.stringify(Array(20).fill('cachedLists:x')), '[1,"apiKey"]']) {
      localStorage.setItem(REMEMBERED_NAMES_RECORD, garbage);
      const calls = await openOn('https://news.example.org/');
      expect(calls.slice(0, 2)).toEqual([`get ${START_NAMES.join(',')}`, 'tab']);
      expect(calls[2]).toMatch(/^get cachedLists:A:kids /);
    }
  });
});

describe('the modules’ reads', () => {
  it('take each early answer once; a later read of the same key asks storage', async () => {
    await fakeBrowser.storage.local.set({ connection: { baseUrl: 'https://later.example', form: 'B' } });
    startPopupEarly({ document, location: { search: '' } as Location, api: fakeApi([]) });
    useEarlyAnswers();
    const get = vi.spyOn(fakeBrowser.storage.local, 'get');
    expect(await connectionItem.getValue()).toEqual(STORED.connection);
    expect(get).not.toHaveBeenCalled();
    expect(await connectionItem.getValue()).toEqual({ baseUrl: 'https://later.example', form: 'B' });
    expect(get).toHaveBeenCalledTimes(1);
  });

  it('ask storage for what the first script could not read', async () => {
    await outboxItem.setValue([]);
    const api = fakeApi([]);
    api.storage.local.get = () => Promise.reject(new Error('storage is busy'));
    startPopupEarly({ document, location: { search: '' } as Location, api });
    useEarlyAnswers();
    const get = vi.spyOn(fakeBrowser.storage.local, 'get');
    expect(await outboxItem.getValue()).toEqual([]);
    expect(get).toHaveBeenCalledTimes(1);
  });

  it('never answer with what the first script read before this page wrote the key', async () => {
    startPopupEarly({ document, location: { search: '' } as Location, api: fakeApi([]) });
    useEarlyAnswers();
    await outboxItem.setValue([]);
    await fakeBrowser.storage.local.set({ outbox: [] });
    // The first script found no outbox; this page has written one since.
    expect(await outboxItem.getValue()).toEqual([]);
    await connectionItem.setValue({ baseUrl: 'https://written.example', form: 'B' });
    expect(await connectionItem.getValue()).toEqual({ baseUrl: 'https://written.example', form: 'B' });
  });
});
