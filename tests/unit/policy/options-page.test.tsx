/**
 * The options page under an administrator's policy: it says who manages it, what the policy
 * requires and what of it could not be read; a closed section's controls are disabled; an account
 * the policy set up can be neither renamed nor removed.
 */
import { cleanup, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { AccountsSettings } from '@/components/options/AccountsSettings';
import { ManagedNotice } from '@/components/options/ManagedNotice';
import { ManagedSection } from '@/components/options/ManagedSection';
import { PolicyProvider } from '@/components/options/PolicyProvider';
import { createAccounts } from '@/lib/accounts';
import { applyPolicy } from '@/lib/policy/apply';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

const OFFICE = { name: 'Office', baseUrl: 'https://my.cleanbrowsing.org', form: 'A', key: 'office-key-1' };

async function setPolicy(policy: Record<string, unknown>) {
  await fakeBrowser.storage.managed.set(policy);
  await applyPolicy({
    managed: fakeBrowser.storage.managed,
    removeAccount: async () => ({ removed: false }),
  });
}

/**
 * Disabled as HTML says (a control inside a disabled fieldset is disabled), which happy-dom's
 * `:disabled` does not follow; the e2e test sees the browser's own.
 */
const isDisabled = (element: HTMLElement) =>
  element.matches(':disabled') || element.closest('fieldset[disabled]') !== null;

function renderSection(id: string) {
  render(
    <PolicyProvider>
      <ManagedNotice />
      <ManagedSection id={id}>
        <input aria-label="Domain" />
        <button type="button">Add to whitelist</button>
      </ManagedSection>
    </PolicyProvider>,
  );
}

describe('Managed by your organization', () => {
  it('says nothing and closes nothing without a policy', async () => {
    renderSection('whitelist');
    // The policy is read, then nothing changes.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('heading', { name: 'Managed by your organization' })).toBeNull();
    expect(isDisabled(screen.getByRole('button', { name: 'Add to whitelist' }))).toBe(false);
  });

  it('says who manages it and that the lock is required, and disables a closed section', async () => {
    await setPolicy({ lockRequired: true, closedOptionsSections: ['whitelist'] });
    renderSection('whitelist');
    await screen.findByRole('heading', { name: 'Managed by your organization' });
    screen.getByText('Your organization requires the passphrase lock.');
    await waitFor(() =>
      expect(isDisabled(screen.getByRole('button', { name: 'Add to whitelist' }))).toBe(true),
    );
    expect(isDisabled(screen.getByRole('textbox', { name: 'Domain' }))).toBe(true);
    screen.getByText(/Your organization manages this section/);
  });

  it('follows a policy set while the page is open', async () => {
    renderSection('whitelist');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await fakeBrowser.storage.managed.set({ closedOptionsSections: ['whitelist'] });
    await screen.findByRole('heading', { name: 'Managed by your organization' });
    await waitFor(() =>
      expect(isDisabled(screen.getByRole('button', { name: 'Add to whitelist' }))).toBe(true),
    );
  });

  it('leaves open a section the policy does not close', async () => {
    await setPolicy({ closedOptionsSections: ['blocklist'] });
    renderSection('whitelist');
    await screen.findByRole('heading', { name: 'Managed by your organization' });
    expect(isDisabled(screen.getByRole('button', { name: 'Add to whitelist' }))).toBe(false);
  });

  it('lists what of a bad policy was left out, never a key', async () => {
    await setPolicy({
      popupChanges: 'no',
      accounts: [OFFICE, { name: 'Lab', baseUrl: 'https://dns.example.com', form: 'C', key: 'lab-secret' }],
    });
    renderSection('whitelist');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('“popupChanges” does not have a value this extension understands.');
    expect(alert.textContent).toContain('Lab');
    expect(alert.textContent).not.toContain('lab-secret');
  });
});

describe('accounts the policy set up', () => {
  it('are marked Managed, without Rename or Remove; the user’s own keep both', async () => {
    await setPolicy({ accounts: [OFFICE] });
    await createAccounts({
      confirm: async () => true,
      permissions: { request: async () => true, remove: async () => true },
      removeInWorker: async () => ({ removed: false, discarded: 0 }),
    }).add({ name: 'Home', key: 'home-key', baseUrl: OFFICE.baseUrl, form: 'B' });
    render(
      <PolicyProvider>
        <AccountsSettings />
      </PolicyProvider>,
    );
    const list = await screen.findByRole('list', { name: 'Your accounts' });
    await waitFor(() => within(list).getByText('Managed'));
    expect(within(list).queryByRole('button', { name: 'Rename Office' })).toBeNull();
    expect(within(list).queryByRole('button', { name: 'Remove Office' })).toBeNull();
    within(list).getByRole('button', { name: 'Rename Home' });
    within(list).getByRole('button', { name: 'Remove Home' });
  });
});
