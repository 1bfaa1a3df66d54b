/**
 * Opening the options page must not tell a third-party IP lookup service (ipify, icanhazip) this
 * browser's address unless the user turned dynamic IP registration on (which asks them anyway) or
 * asks for the address with "Find this browser's address".
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { AccountPanel } from '@/components/options/AccountPanel';
import { apiKeyItem, connectionItem, dynamicIpSettingsItem } from '@/lib/settings/storage';

const SERVICE = 'https://dns.example';
const LOOKUP_URL = 'https://lookup.example/ip';

const jsonAnswer = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

/** The service's answers by action, and the lookup service's address. */
function fakeNetwork() {
  const lookups: string[] = [];
  const fetchStub = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input));
    if (url.origin !== SERVICE) {
      lookups.push(url.href);
      return new Response('203.0.113.77\n');
    }
    switch (url.searchParams.get('action')) {
      case 'profiles/list':
        return jsonAnswer({ status: 'success', profiles: ['default'] });
      case 'network/list':
        return jsonAnswer({ status: 'success', networks: { default: ['203.0.113.77'] } });
      case 'categories/list':
        return jsonAnswer({ status: 'success', categories: [] });
      default:
        return jsonAnswer({ status: 'success', domains: [] });
    }
  });
  vi.stubGlobal('fetch', fetchStub);
  return { lookups };
}

beforeEach(async () => {
  fakeBrowser.reset();
  await apiKeyItem.setValue('privacy-test-key');
  await connectionItem.setValue({ baseUrl: SERVICE, form: 'A' });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function openNetworks() {
  render(<AccountPanel />);
  const networks = within(await screen.findByRole('region', { name: 'Networks' }));
  await networks.findByRole('table');
  return networks;
}

describe('the public address on the options page', () => {
  it('is not looked up when the page opens while dynamic IP is off; a click looks it up', async () => {
    await dynamicIpSettingsItem.setValue({ ...dynamicIpSettingsItem.fallback, lookupUrls: [LOOKUP_URL] });
    const { lookups } = fakeNetwork();
    const networks = await openNetworks();
    // Give a lookup every chance to start before checking that none did.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(lookups).toEqual([]);
    expect(networks.queryByText(/this browser's public address/i)).toBeNull();

    fireEvent.click(networks.getByRole('button', { name: "Find this browser's address" }));
    await networks.findByText("This browser's public address is 203.0.113.77.");
    expect(lookups).toEqual([LOOKUP_URL]);
    expect(networks.getByRole('row', { name: /203\.0\.113\.77 this browser/ })).toBeTruthy();
    expect(networks.queryByRole('button', { name: "Find this browser's address" })).toBeNull();
  });

  it('is looked up at once while dynamic IP registration is on', async () => {
    await dynamicIpSettingsItem.setValue({
      ...dynamicIpSettingsItem.fallback,
      enabled: true,
      lookupUrls: [LOOKUP_URL],
    });
    const { lookups } = fakeNetwork();
    const networks = await openNetworks();
    await networks.findByText("This browser's public address is 203.0.113.77.");
    expect(lookups).toEqual([LOOKUP_URL]);
  });

  it('with the default settings, never contacts the default lookup services on its own', async () => {
    const { lookups } = fakeNetwork();
    await openNetworks();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(lookups).toEqual([]);
    await waitFor(() => expect(fetch).toHaveBeenCalled());
  });
});
