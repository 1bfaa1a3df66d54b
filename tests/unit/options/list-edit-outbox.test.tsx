/**
 * A list edit on the options page goes to the service directly; a one-click change queued
 * earlier (the service was failing then) must not undo it when it is finally sent.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { AccountPanel } from '@/components/options/AccountPanel';
import { enqueueChange } from '@/lib/outbox';
import { apiKeyItem, connectionItem, outboxItem, settledChangesItem } from '@/lib/settings/storage';
import { accountIdFor } from '../account-ids';

const SERVICE = 'https://dns.example';
const KEY = 'list-edit-test-key';

const jsonAnswer = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

function fakeService() {
  const actions: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input));
      const action = url.searchParams.get('action') ?? '';
      actions.push(`${action} ${url.searchParams.get('domain_name') ?? ''}`.trim());
      switch (action) {
        case 'profiles/list':
          return jsonAnswer({ status: 'success', profiles: ['default'] });
        case 'network/list':
          return jsonAnswer({ status: 'success', networks: { default: [] } });
        case 'categories/list':
          return jsonAnswer({ status: 'success', categories: [] });
        case 'whitelist/add':
        case 'blocklist/add':
          return jsonAnswer({ status: 'success' });
        default:
          return jsonAnswer({ status: 'success', domains: [] });
      }
    }),
  );
  return actions;
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

describe('an options-page list edit and the outbox', () => {
  it('adding to the whitelist drops a queued "add to the blocklist" of the same domain', async () => {
    const actions = fakeService();
    await enqueueChange(
      {
        op: 'add',
        list: 'blocklist',
        domain: 'example.com',
        profile: 'default',
        source: 'menu',
      },
      accountIdFor('A', SERVICE, KEY),
    );
    await enqueueChange(
      {
        op: 'add',
        list: 'blocklist',
        domain: 'other.example',
        profile: 'default',
        source: 'menu',
      },
      accountIdFor('A', SERVICE, KEY),
    );

    render(<AccountPanel />);
    const whitelist = within(await screen.findByRole('region', { name: 'Whitelist' }));
    await whitelist.findByText('The whitelist is empty.');
    fireEvent.input(whitelist.getByRole('textbox', { name: /Domains to add/ }), {
      target: { value: 'example.com' },
    });
    fireEvent.click(whitelist.getByRole('button', { name: 'Add to whitelist' }));
    await waitFor(() => expect(whitelist.getByRole('status').textContent).toContain('Added 1 of 1'));

    expect(actions).toContain('whitelist/add example.com');
    await waitFor(async () =>
      expect((await outboxItem.getValue()).map((entry) => entry.change.domain)).toEqual(['other.example']),
    );
    expect((await settledChangesItem.getValue())[0]).toMatchObject({
      state: 'failed',
      message: expect.stringMatching(/^Not sent: add example\.com to the blocklist/),
    });
  });
});
