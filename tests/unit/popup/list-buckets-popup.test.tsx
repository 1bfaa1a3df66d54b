/**
 * The popup reads only the cached list entries that can cover its site (lib/cache/list-buckets.ts):
 * another host's place in the lists (page diagnosis's failed hosts) is unknown until its entries
 * are read, never shown wrong, and stays known after a one-click change.
 */
import { cleanup } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { membershipOf } from '@/lib/popup/verdict-inputs';
import { accountOf, cacheAt, createFakeApi, openPopup, T0 } from './popup-harness';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

const SITE = 'https://news.example.com/today';
const FAILED_HOST = 'cdn.other-site.net';

function placeOf(popup: Awaited<ReturnType<typeof openPopup>>, domain: string) {
  const state = popup.controller.getState();
  return state.phase === 'ready' ? membershipOf(state, domain) : undefined;
}

describe('cached lists read for the hosts shown', () => {
  it('another host is unknown until its entries are read, then known', async () => {
    await cacheAt(T0).saveLists('A:default', accountOf('A'), {
      whitelist: [FAILED_HOST],
      blocklist: ['ads.example.com'],
    });
    const popup = await openPopup({ url: SITE, askWorkerForDomains: async (hosts) => hosts });
    await popup.started;
    expect(placeOf(popup, 'news.example.com')).toBe('none');
    expect(placeOf(popup, 'ads.example.com')).toBe('blocklist');
    expect(placeOf(popup, FAILED_HOST)).toBeNull();

    await popup.controller.registrableDomainsOf([FAILED_HOST]);
    await vi.waitFor(() => expect(placeOf(popup, FAILED_HOST)).toBe('whitelist'));
  });

  it('after a one-click change the lists are read again for every host shown', async () => {
    const api = createFakeApi('A', { whitelist: { default: [FAILED_HOST] } });
    const popup = await openPopup({ url: SITE, api, askWorkerForDomains: async (hosts) => hosts });
    await popup.started;
    // Fetched: the whole lists, so the other host is known at once.
    await vi.waitFor(() => expect(placeOf(popup, FAILED_HOST)).toBe('whitelist'));
    await popup.controller.registrableDomainsOf([FAILED_HOST]);

    await popup.controller.act('add', 'blocklist', 'example.com', 'none');
    expect(placeOf(popup, 'example.com')).toBe('blocklist');
    expect(placeOf(popup, FAILED_HOST)).toBe('whitelist');
  });
});
