/**
 * The popup remembers the registrable domain of each host it shows, so an opening on a known host
 * never loads the Public Suffix List (lib/filtering/domain.ts, spied on here).
 */
import { cleanup, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { PSL_VERSION } from '@/lib/cache/registrable-domains';
import { registrableDomainsItem } from '@/lib/settings/storage';
import { openPopup } from './popup-harness';

const suffixList = vi.hoisted(() => ({ lookups: [] as string[] }));
vi.mock('@/lib/filtering/domain', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/lib/filtering/domain')>();
  return {
    ...actual,
    registrableDomainOrNull: (host: string) => {
      suffixList.lookups.push(host);
      return actual.registrableDomainOrNull(host);
    },
  };
});

beforeEach(() => {
  fakeBrowser.reset();
  suffixList.lookups = [];
});
afterEach(cleanup);

/** The domain the buttons act on: it names their group ("Acts on bbc.co.uk"). */
const shownDomain = () =>
  screen
    .getAllByRole('region')
    .map((region) => /^Acts on (\S+)$/.exec(region.getAttribute('aria-label') ?? '')?.[1])
    .find((domain) => domain !== undefined);

describe('registrable domains remembered per host', () => {
  it('a new host: the Public Suffix List answers, and the answer is remembered', async () => {
    const popup = await openPopup({ url: 'https://news.bbc.co.uk/story' });
    await popup.started;
    expect(shownDomain()).toBe('bbc.co.uk');
    expect(suffixList.lookups).toEqual(['news.bbc.co.uk']);
    await vi.waitFor(async () =>
      expect(await registrableDomainsItem.getValue()).toEqual({
        psl: PSL_VERSION,
        hosts: [['news.bbc.co.uk', 'bbc.co.uk']],
      }),
    );
  });

  it('a known host: the remembered answer, without loading the list', async () => {
    await registrableDomainsItem.setValue({ psl: PSL_VERSION, hosts: [['news.bbc.co.uk', 'bbc.co.uk']] });
    const popup = await openPopup({ url: 'https://news.bbc.co.uk/other' });
    await popup.started;
    expect(shownDomain()).toBe('bbc.co.uk');
    expect(screen.getByRole('button', { name: 'Use the exact hostname news.bbc.co.uk' })).toBeTruthy();
    expect(suffixList.lookups).toEqual([]);
  });

  it.each([
    ['names a domain that is not a parent of the host', PSL_VERSION, 'bank.example'],
    ['comes from another version of the list', 'tldts 0.0.1', 'www.shop.example'],
  ])('a remembered answer that %s is not used', async (_, psl, remembered) => {
    await registrableDomainsItem.setValue({ psl, hosts: [['www.shop.example', remembered]] });
    const popup = await openPopup({ url: 'https://www.shop.example/' });
    await popup.started;
    expect(shownDomain()).toBe('shop.example');
    expect(suffixList.lookups).toEqual(['www.shop.example']);
  });
});
