import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { createConfiguredClient } from '@/lib/api/configured-client';
import { readCurrentAccount } from '@/lib/identity/current';
import { apiKeyItem, connectionItem } from '@/lib/settings/storage';

beforeEach(() => fakeBrowser.reset());

const listing = () =>
  vi.fn(
    async (_url: RequestInfo | URL, _init?: RequestInit) =>
      new Response(JSON.stringify({ status: 'success', profiles: ['default'] })),
  );

describe('createConfiguredClient', () => {
  it('uses the stored key and service', async () => {
    await apiKeyItem.setValue('stored-key');
    await connectionItem.setValue({ baseUrl: 'http://127.0.0.1:9', form: 'A' });
    const fetch = listing();
    const client = await createConfiguredClient({ fetch });
    expect(await client?.listProfiles()).toEqual(['default']);
    expect(String(fetch.mock.calls[0]?.[0])).toMatch(/^http:\/\/127\.0\.0\.1:9\/api\?apikey=stored-key&/);
  });

  it('settings handed over by the caller (the popup, which has just read them) are used as they are', async () => {
    await apiKeyItem.setValue('stored-key');
    const fetch = listing();
    const client = await createConfiguredClient({
      fetch,
      settings: {
        key: 'handed-key',
        connection: { baseUrl: 'http://127.0.0.1:7', form: 'A' },
        timeoutMs: null,
      },
    });
    await client?.listProfiles();
    expect(String(fetch.mock.calls[0]?.[0])).toMatch(/^http:\/\/127\.0\.0\.1:7\/api\?apikey=handed-key&/);
  });

  it('no key: no client, whichever way the settings came', async () => {
    expect(await createConfiguredClient()).toBeNull();
    expect(
      await createConfiguredClient({
        settings: { key: '', connection: { baseUrl: 'http://127.0.0.1:7', form: 'A' }, timeoutMs: null },
      }),
    ).toBeNull();
  });
});

describe('readCurrentAccount', () => {
  it('a new key and address saved while the worker reads never pair one key with the other address', async () => {
    await apiKeyItem.setValue('old-key');
    await connectionItem.setValue({ baseUrl: 'http://127.0.0.1:7', form: 'A' });
    // Setup saves the new key and address in one write; it lands just after the worker's first get.
    const get = fakeBrowser.storage.local.get.bind(fakeBrowser.storage.local);
    let saved = false;
    fakeBrowser.storage.local.get = (async (keys?: unknown) => {
      const answer = get(keys as string[]);
      if (!saved) {
        saved = true;
        void fakeBrowser.storage.local.set({
          apiKey: 'new-key',
          connection: { baseUrl: 'http://127.0.0.1:9', form: 'A' },
        });
      }
      return answer;
    }) as typeof fakeBrowser.storage.local.get;
    const fetch = listing();
    vi.spyOn(globalThis, 'fetch').mockImplementation(fetch);

    const { client } = await readCurrentAccount();
    await client?.listProfiles();

    // Before or after the save, never across it.
    expect(String(fetch.mock.calls[0]?.[0])).toMatch(/^http:\/\/127\.0\.0\.1:7\/api\?apikey=old-key&/);
  });
});
