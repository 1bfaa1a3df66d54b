/**
 * A list edit on the options page goes to the service directly; a one-click change queued
 * earlier (the service was failing then) must not undo it when it is finally sent, and neither
 * must the end of a temporary allow running for the same domain.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { AccountPanel } from '@/components/options/AccountPanel';
import { expireTemporaryAllows } from '@/lib/diagnosis/temporary-allow';
import { identityOf } from '@/lib/identity/identity';
import type { ListChange } from '@/lib/messaging/protocol';
import { carriesListChange } from '@/lib/messaging/queued-change';
import { enqueueChange } from '@/lib/outbox';
import {
  apiKeyItem,
  connectionItem,
  outboxItem,
  settledChangesItem,
  temporaryAllowsItem,
} from '@/lib/settings/storage';
import { accountIdFor, fingerprintOf } from '../account-ids';

const SERVICE = 'https://dns.example';
const KEY = 'list-edit-test-key';

const jsonAnswer = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

/** The service's lists, by list: what whitelist/list and blocklist/list answer. */
function fakeService(lists: { whitelist?: string[]; blocklist?: string[] } = {}) {
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
        case 'whitelist/delete':
        case 'blocklist/delete':
          return jsonAnswer({ status: 'success' });
        case 'whitelist/list':
          return jsonAnswer({ status: 'success', domains: lists.whitelist ?? [] });
        case 'blocklist/list':
          return jsonAnswer({ status: 'success', domains: lists.blocklist ?? [] });
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
      expect(
        (await outboxItem.getValue()).filter(carriesListChange).map((entry) => entry.change.domain),
      ).toEqual(['other.example']),
    );
    expect((await settledChangesItem.getValue())[0]).toMatchObject({
      state: 'failed',
      message: expect.stringMatching(/^Not sent: add example\.com to the blocklist/),
    });
  });
});

describe('an options-page list edit and a temporary allow', () => {
  const HOUR = 60 * 60_000;
  const T0 = Date.UTC(2026, 4, 1, 12, 0, 0);

  it('removing a blocklisted domain allowed for 8 hours from the whitelist by hand: its end does not put it back on the blocklist', async () => {
    const identity = identityOf({ origin: SERVICE, form: 'A', keyFingerprint: fingerprintOf(KEY) });
    // The popup allowed it for 8 hours: whitelisted now, back on the blocklist at the end.
    await temporaryAllowsItem.setValue([
      {
        domain: 'blocked.example',
        profile: 'default',
        account: identity.id,
        createdAt: T0,
        expiresAt: T0 + 8 * HOUR,
        before: 'blocklist',
      },
    ]);
    const actions = fakeService({ whitelist: ['blocked.example'] });

    render(<AccountPanel />);
    const whitelist = within(await screen.findByRole('region', { name: 'Whitelist' }));
    fireEvent.click(
      await whitelist.findByRole('button', { name: 'Remove blocked.example from the whitelist' }),
    );
    await waitFor(() =>
      expect(whitelist.getByRole('status').textContent).toMatch(/^Removed blocked\.example/),
    );
    expect(actions).toContain('whitelist/delete blocked.example');

    // The allow's end, as the worker's alarm runs it, once the page has followed its edit.
    await waitFor(async () => expect(await temporaryAllowsItem.getValue()).toEqual([]));
    const restored: ListChange[] = [];
    await expireTemporaryAllows({
      getAccount: async () => ({ identity, client: null }),
      submit: async () => ({ state: 'delivered', message: '' }),
      enqueue: async (change) => {
        restored.push(change);
      },
      deliver: async () => undefined,
      alarms: fakeBrowser.alarms,
      notify: async () => undefined,
      now: () => T0 + 8 * HOUR,
    });
    expect(restored).toEqual([]);
  });
});
