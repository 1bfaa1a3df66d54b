import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { AccountsSettings, ActiveAccountBar } from '@/components/options/AccountsSettings';
import { PopupAccountSwitcher } from '@/components/popup/PopupAccountSwitcher';
import { createAccounts, listAccounts, switchAccount } from '@/lib/accounts';
import { forgetAccount } from '@/lib/accounts/forget';
import { saveActiveConnection } from '@/lib/accounts/store';
import { accountIdentity } from '@/lib/identity/identity';
import { requestSchema } from '@/lib/messaging/protocol';
import { accountKeysItem, apiKeyItem, connectionItem, outboxItem } from '@/lib/settings/storage';

const DEFAULT = 'https://my.cleanbrowsing.org';

beforeEach(() => {
  fakeBrowser.reset();
  // The worker's side of 'remove-account' (entrypoints/background/jobs.ts).
  fakeBrowser.runtime.onMessage.addListener((message: unknown) => {
    const request = requestSchema.parse(message);
    if (request.type !== 'remove-account') return undefined;
    return forgetAccount(request.accountId, {
      alarms: fakeBrowser.alarms,
      alarmsOf: () => [],
      leasesOf: () => [],
    });
  });
});
afterEach(cleanup);

/** Accounts added the way the page adds them (the default service needs no confirmation). */
async function addAccounts(...names: string[]) {
  const api = createAccounts({
    confirm: async () => true,
    permissions: { request: async () => true, remove: async () => true },
    removeInWorker: async () => ({ removed: false, discarded: 0 }),
  });
  for (const name of names)
    await api.add({ name, key: `${name.toLowerCase()}-key`, baseUrl: DEFAULT, form: 'A' });
}

const section = () => screen.getByRole('region', { name: 'Accounts' });

describe('Accounts on the options page', () => {
  it('in a fresh installation, the first account added is the setup itself, and active', async () => {
    render(<AccountsSettings />);
    await within(section()).findByText('No API key yet: enter it in Setup.');
    fireEvent.click(screen.getByRole('button', { name: 'Add account' }));
    fireEvent.input(within(section()).getByRole('textbox', { name: 'Account name' }), {
      target: { value: 'Family' },
    });
    fireEvent.input(within(section()).getByLabelText('API key'), { target: { value: 'family-key' } });
    fireEvent.click(within(section()).getByRole('button', { name: 'Save account' }));
    await within(section()).findByText('Added Family. It is the active account.', undefined, {
      timeout: 5000,
    });

    const { accounts, activeId } = await listAccounts();
    expect(accounts.map((account) => [account.name, account.id === activeId])).toEqual([['Family', true]]);
    // The active account's key is where every page and the worker read it, and only there.
    expect(await apiKeyItem.getValue()).toBe('family-key');
    expect(await accountKeysItem.getValue()).toEqual({});
  });

  it('says how many changes wait for each account, and removes one after the confirmation', async () => {
    await apiKeyItem.setValue('family-key');
    await connectionItem.setValue({ baseUrl: DEFAULT, form: 'A' });
    await addAccounts('Office');
    const office = (await accountIdentity({ key: 'office-key', connection: { baseUrl: DEFAULT, form: 'A' } }))
      .id;
    await outboxItem.setValue(
      ['a.example', 'b.example'].map((domain, index) => ({
        id: `c${index}`,
        change: { op: 'add', list: 'whitelist', domain, profile: 'default', source: 'popup' },
        account: office,
        createdAt: 1,
        attempts: 1,
        nextAttemptAt: 2,
      })),
    );
    render(<AccountsSettings />);
    await within(section()).findByText('2 changes waiting to be sent');
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Office' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove the account Office?' });
    expect(dialog.textContent).toContain('2 changes made for it have not been sent yet and will be lost.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await within(section()).findByText('Removed Office.', undefined, { timeout: 5000 });
    expect((await listAccounts()).accounts.map((account) => account.name)).toHaveLength(1);
    expect(await outboxItem.getValue()).toEqual([]);
  });

  it('the removal says it discards the changes queued under a key the account had before', async () => {
    await apiKeyItem.setValue('family-key');
    await connectionItem.setValue({ baseUrl: DEFAULT, form: 'A' });
    await addAccounts('Office');
    const officeId = (await listAccounts()).accounts.find((account) => account.name === 'Office')!.id;
    await switchAccount(officeId);
    const earlierKey = (
      await accountIdentity({ key: 'office-key', connection: { baseUrl: DEFAULT, form: 'A' } })
    ).id;
    await outboxItem.setValue([
      {
        id: 'c0',
        change: { op: 'add', list: 'whitelist', domain: 'a.example', profile: 'default', source: 'popup' },
        account: earlierKey,
        createdAt: 1,
        attempts: 1,
        nextAttemptAt: 2,
      },
    ]);
    // Office gets a new key, as Setup's Save gives it.
    await saveActiveConnection({ key: 'office-key-2' });

    render(<AccountsSettings />);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Office' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove the account Office?' });
    expect(dialog.textContent).toContain('1 change made for it has not been sent yet and will be lost.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await within(section()).findByText('Removed Office.', undefined, { timeout: 5000 });
    expect(await outboxItem.getValue()).toEqual([]);
  });

  it('says when an account could not be read, and removes what is left of it after the confirmation', async () => {
    await apiKeyItem.setValue('family-key');
    await connectionItem.setValue({ baseUrl: DEFAULT, form: 'A' });
    await addAccounts('Office', 'Parents');
    // Office's entry as another version (or a hand edit) left it.
    const { accounts: stored } = (await fakeBrowser.storage.local.get('accounts')) as {
      accounts: { active: string; accounts: { name?: string }[] };
    };
    await fakeBrowser.storage.local.set({
      accounts: {
        ...stored,
        accounts: stored.accounts.map((entry) =>
          entry.name === 'Office' ? { ...entry, createdAt: 'yesterday' } : entry,
        ),
      },
    });

    render(<AccountsSettings />);
    await within(section()).findByText(/^1 account could not be read/);
    expect(within(section()).getByRole('button', { name: 'Remove Parents' })).toBeTruthy();
    fireEvent.click(
      within(section()).getByRole('button', { name: 'Remove the accounts that could not be read' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Remove the accounts that could not be read?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await within(section()).findByText('Removed what was left of the accounts that could not be read.');
    await waitFor(() => expect(within(section()).queryByText(/could not be read \(/)).toBeNull());
    expect(JSON.stringify(await fakeBrowser.storage.local.get(null))).not.toContain('office-key');
    expect((await listAccounts()).accounts.map((account) => account.name)).toEqual([
      'my.cleanbrowsing.org',
      'Parents',
    ]);
  });

  it('the Account combobox appears with a second account and switches the active one', async () => {
    await apiKeyItem.setValue('family-key');
    render(<ActiveAccountBar />);
    await listAccounts();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('combobox', { name: 'Account' })).toBeNull();

    await addAccounts('Office');
    const box = (await screen.findByRole('combobox', { name: 'Account' })) as HTMLSelectElement;
    const office = (await listAccounts()).accounts.find((account) => account.name === 'Office')!;
    fireEvent.change(box, { target: { value: office.id } });
    await waitFor(async () => expect((await listAccounts()).activeId).toBe(office.id));
    expect(await apiKeyItem.getValue()).toBe('office-key');
  });
});

describe('Account switcher in the popup', () => {
  it('names the accounts without reading their keys, and opens the popup again for the one chosen', async () => {
    await apiKeyItem.setValue('family-key');
    await addAccounts('Office', 'Parents');
    const reopened: string[] = [];
    const keysRead: string[] = [];
    const get = fakeBrowser.storage.local.get.bind(fakeBrowser.storage.local);
    fakeBrowser.storage.local.get = (async (keys?: unknown) => {
      keysRead.push(...(Array.isArray(keys) ? keys : [String(keys)]));
      return get(keys as string[]);
    }) as typeof fakeBrowser.storage.local.get;

    render(
      <PopupAccountSwitcher
        reopen={() => reopened.push((screen.getByRole('combobox') as HTMLSelectElement).value)}
      />,
    );
    const box = (await screen.findByRole('combobox', { name: 'Account' })) as HTMLSelectElement;
    expect([...box.options].map((option) => option.textContent)).toEqual([
      'my.cleanbrowsing.org',
      'Office',
      'Parents',
    ]);
    expect(keysRead.filter((key) => /key/i.test(key))).toEqual([]);

    const parents = [...box.options].find((option) => option.textContent === 'Parents')!.value;
    fireEvent.change(box, { target: { value: parents } });
    await waitFor(() => expect(reopened).toEqual([parents]));
    expect((await listAccounts()).activeId).toBe(parents);
  });
});
