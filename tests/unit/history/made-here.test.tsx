/**
 * History's "What changed" names the changes made in the options page as this browser's
 * (docs/history.md, "Who made it"): a removal in a list view, which no note records, included.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { AccountPanel } from '@/components/options/AccountPanel';
import { createConfiguredClient } from '@/lib/api/configured-client';
import type { DnsFilterApi } from '@/lib/api/types';
import { readHistory, snapshotAccount } from '@/lib/history/service';
import { apiKeyItem, connectionItem } from '@/lib/settings/storage';
import { accountIdFor } from '../account-ids';

const SERVICE = 'https://dns.example';
const KEY = 'history-made-here-key';
const ACCOUNT = accountIdFor('A', SERVICE, KEY);

const jsonAnswer = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

/** Form A with one profile: its lists and blocked categories change as the calls ask. */
function fakeService(seed: { whitelist: string[]; blocked: string[] }) {
  const lists = { whitelist: new Set(seed.whitelist), blocklist: new Set<string>() };
  const blocked = new Set(seed.blocked);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input));
      const action = url.searchParams.get('action') ?? '';
      const domain = url.searchParams.get('domain_name') ?? '';
      const category = url.searchParams.get('category_name') ?? '';
      const [list, verb] = action.split('/') as ['whitelist' | 'blocklist', string];
      switch (action) {
        case 'profiles/list':
          return jsonAnswer({ status: 'success', profiles: ['default'] });
        case 'network/list':
          return jsonAnswer({ status: 'success', networks: { default: [] } });
        case 'categories/list':
          return jsonAnswer({ status: 'success', categories: [...blocked] });
        case 'categories/add':
          blocked.add(category);
          return jsonAnswer({ status: 'success' });
        case 'categories/delete':
          blocked.delete(category);
          return jsonAnswer({ status: 'success' });
        case 'whitelist/add':
        case 'blocklist/add':
          lists[list].add(domain);
          return jsonAnswer({ status: 'success' });
        case 'whitelist/delete':
        case 'blocklist/delete':
          lists[list].delete(domain);
          return jsonAnswer({ status: 'success' });
        case 'whitelist/list':
        case 'blocklist/list':
          return jsonAnswer({ status: 'success', domains: [...lists[list]] });
        default:
          return jsonAnswer({ status: 'success', [verb ?? 'domains']: [] });
      }
    }),
  );
}

/** A snapshot, a moment after whatever came before it. */
async function snapshot(client: DnsFilterApi) {
  await new Promise((resolve) => setTimeout(resolve, 5));
  await snapshotAccount(ACCOUNT, client, 'manual');
  await new Promise((resolve) => setTimeout(resolve, 5));
}

beforeEach(async () => {
  fakeBrowser.reset();
  await apiKeyItem.setValue(KEY);
  await connectionItem.setValue({ baseUrl: SERVICE, form: 'A' });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('what changed, for a change made in the options page', () => {
  it("a domain removed in the whitelist view shows as this browser's (options), the one removed elsewhere does not", async () => {
    fakeService({ whitelist: ['gone.example', 'elsewhere.example', 'stays.example'], blocked: [] });
    const client = (await createConfiguredClient())!;
    await snapshot(client);

    render(<AccountPanel />);
    const whitelist = within(await screen.findByRole('region', { name: 'Whitelist' }));
    fireEvent.click(await whitelist.findByRole('button', { name: 'Remove gone.example from the whitelist' }));
    await waitFor(() => expect(whitelist.getByRole('status').textContent).toMatch(/^Removed gone\.example/));
    // The dashboard, meanwhile.
    await client.deleteDomain('whitelist', 'elsewhere.example', 'default');
    await snapshot(client);

    const { rows } = await readHistory(ACCOUNT, client);
    expect(
      rows.map((row) => [row.kind, row.entry, row.change, row.madeHere?.surface ?? 'elsewhere']).sort(),
    ).toEqual([
      ['whitelist', 'elsewhere.example', 'removed', 'elsewhere'],
      ['whitelist', 'gone.example', 'removed', 'options'],
    ]);
  });
});
