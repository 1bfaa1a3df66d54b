import { afterEach, describe, expect, it } from 'vitest';
import { EARLY_READ_KEYS_HINT } from '@/lib/popup/early-reads';
import { type ExtensionApi, startPopupEarly } from '@/lib/popup/first-script';
import { takeEarlyTab } from '@/lib/popup/read-tab';

afterEach(() => localStorage.clear());

describe('the popup’s first script', () => {
  it('asks for the stored keys before the tab (Firefox sets up the tabs API on its first call), and for the site’s buckets once the tab is known', async () => {
    localStorage.setItem(
      EARLY_READ_KEYS_HINT,
      JSON.stringify(['apiKey', 'connection', 'cachedListsBucket:7:A:default']),
    );
    const calls: string[] = [];
    const api: ExtensionApi = {
      storage: {
        local: {
          get: async (keys) => {
            calls.push(`get ${keys.join(',')}`);
            return Object.fromEntries(keys.map((key) => [key, `stored ${key}`]));
          },
        },
      },
      tabs: {
        get: async () => ({ url: 'https://news.example.org/' }),
        query: async () => {
          calls.push('tab');
          return [{ id: 3, url: 'https://news.example.org/' }];
        },
      },
    };
    startPopupEarly({ document, location: { search: '' } as Location, api });
    expect(calls.slice(0, 2)).toEqual([expect.stringMatching(/^get apiKey/), 'tab']);
    expect(await takeEarlyTab()).toEqual({ id: 3, url: 'https://news.example.org/' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls.at(-1)).toMatch(/^get cachedListsBucket:\d+:A:default/);
  });
});
