import { describe, expect, it, vi } from 'vitest';
import { readTabAddress } from '@/lib/popup/read-tab';

function tabsApi() {
  return {
    get: vi.fn(async (id: number) => ({ url: `https://tab${id}.example/` })),
    query: vi.fn(async () => [{ id: 3, url: 'https://active.example/page' }]),
  };
}

describe('readTabAddress', () => {
  it.each([
    ['no tabId: the active tab', '', { id: 3, url: 'https://active.example/page' }],
    ['?tabId=7: that tab', '?tabId=7', { id: 7, url: 'https://tab7.example/' }],
    ['a tabId that is not a tab id: nothing', '?tabId=-1', { url: undefined }],
    ['a tabId that is not a number: nothing', '?tabId=abc', { url: undefined }],
  ])('%s', async (_name, search, address) => {
    expect(await readTabAddress(tabsApi(), search)).toEqual(address);
  });

  it('a tab the extension may not read comes back without an address', async () => {
    const tabs = { ...tabsApi(), query: async () => [{}] };
    expect(await readTabAddress(tabs, '')).toEqual({ url: undefined });
  });
});
