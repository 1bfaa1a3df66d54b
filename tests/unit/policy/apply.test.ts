/**
 * The worker puts this browser in line with the administrator's policy (lib/policy/apply.ts): the
 * accounts it names appear with their keys where the extension keeps keys, a changed policy
 * changes the same account, and an account the policy drops goes, never one the user added.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { createAccounts, listAccounts, switchAccount } from '@/lib/accounts';
import { forgetAccount } from '@/lib/accounts/forget';
import { readAccounts } from '@/lib/accounts/store';
import { applyPolicy } from '@/lib/policy/apply';
import { readCurrentPolicy } from '@/lib/policy/current';
import { accountKeysItem, apiKeyItem, connectionItem, diagnosisSettingsItem } from '@/lib/settings/storage';
import { type FakeManagedStorage, fakeManagedStorage } from '../../fakes/fake-managed-storage';

beforeEach(() => fakeBrowser.reset());

const OFFICE = { name: 'Office', baseUrl: 'https://my.cleanbrowsing.org', form: 'A', key: 'office-key-1' };
const LAB = { name: 'Lab', baseUrl: 'https://dns.example.com', form: 'B', key: 'lab-key-1' };

function worker(managed: FakeManagedStorage) {
  const removeAccount = vi.fn((id: string) =>
    forgetAccount(id, { alarms: fakeBrowser.alarms, alarmsOf: () => [], leasesOf: () => [] }),
  );
  return { apply: () => applyPolicy({ managed, removeAccount }), removeAccount };
}

async function summary() {
  const { accounts } = await listAccounts();
  return accounts.map((account) => ({ name: account.name, active: account.active, form: account.form }));
}

describe('accounts from the policy', () => {
  it('sets up a new installation with the policy’s accounts, the first one active', async () => {
    const managed = fakeManagedStorage({ accounts: [OFFICE, LAB] });
    await worker(managed).apply();
    expect(await summary()).toEqual([
      { name: 'Office', active: true, form: 'A' },
      { name: 'Lab', active: false, form: 'B' },
    ]);
    // The keys are where the extension keeps every key: the active one's in apiKey, the others' apart.
    expect(await apiKeyItem.getValue()).toBe('office-key-1');
    expect(Object.values(await accountKeysItem.getValue())).toEqual(['lab-key-1']);
    const { managedAccounts } = await readCurrentPolicy(managed);
    expect(managedAccounts.size).toBe(2);
  });

  it('adds them beside the user’s own account, which stays active and unmanaged', async () => {
    await apiKeyItem.setValue('home-key');
    await connectionItem.setValue({ baseUrl: 'https://my.cleanbrowsing.org', form: 'A' });
    const managed = fakeManagedStorage({ accounts: [LAB] });
    await worker(managed).apply();
    const { accounts } = await listAccounts();
    expect(accounts.map((account) => [account.name, account.active])).toEqual([
      ['my.cleanbrowsing.org', true],
      ['Lab', false],
    ]);
    const { managedAccounts } = await readCurrentPolicy(managed);
    expect([...managedAccounts]).toEqual([accounts[1]?.id]);
  });

  it('changes the same account when the policy gives it another key or address, and runs twice alike', async () => {
    const managed = fakeManagedStorage({ accounts: [OFFICE, LAB] });
    const { apply } = worker(managed);
    await apply();
    const before = await readAccounts();
    managed.setPolicy({
      accounts: [
        { ...OFFICE, key: 'office-key-2' },
        { ...LAB, key: 'lab-key-2', baseUrl: 'https://dns2.example.com' },
      ],
    });
    await apply();
    await apply();
    const after = await readAccounts();
    expect(after.accounts.map((account) => account.id)).toEqual(before.accounts.map((account) => account.id));
    expect(await apiKeyItem.getValue()).toBe('office-key-2');
    const lab = after.accounts.find((account) => account.name === 'Lab');
    expect(lab?.key).toBe('lab-key-2');
    expect(lab?.connection.baseUrl).toBe('https://dns2.example.com');
    // What was recorded under the earlier key still goes when the account goes (lib/accounts/forget.ts).
    expect(lab?.earlierIdentities).toHaveLength(1);
    const stored = JSON.stringify(await fakeBrowser.storage.local.get(null));
    expect(stored).not.toContain('lab-key-1');
    expect(stored).not.toContain('office-key-1');
  });

  it('removes an account the policy no longer names, and never the user’s own', async () => {
    await apiKeyItem.setValue('home-key');
    const managed = fakeManagedStorage({ accounts: [OFFICE, LAB] });
    const { apply, removeAccount } = worker(managed);
    await apply();
    managed.setPolicy({ accounts: [OFFICE] });
    await apply();
    expect((await summary()).map((account) => account.name)).toEqual(['my.cleanbrowsing.org', 'Office']);
    expect(removeAccount).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(await fakeBrowser.storage.local.get(null))).not.toContain('lab-key-1');
    // The whole policy withdrawn: its accounts go, the user's stays.
    managed.setPolicy({});
    await apply();
    expect((await summary()).map((account) => account.name)).toEqual(['my.cleanbrowsing.org']);
    expect(await apiKeyItem.getValue()).toBe('home-key');
  });

  it('forgets the key of the only account when the policy drops it', async () => {
    const managed = fakeManagedStorage({ accounts: [OFFICE] });
    const { apply } = worker(managed);
    await apply();
    managed.setPolicy({ lockRequired: true });
    await apply();
    expect(await apiKeyItem.getValue()).toBe('');
    expect((await listAccounts()).accounts).toHaveLength(1);
    expect((await readCurrentPolicy(managed)).managedAccounts.size).toBe(0);
  });

  it('removes nothing while the policy’s list has a bad entry', async () => {
    const managed = fakeManagedStorage({ accounts: [OFFICE, LAB] });
    const { apply, removeAccount } = worker(managed);
    await apply();
    managed.setPolicy({ accounts: [OFFICE, { name: 'Lab', form: 'B' }] });
    await apply();
    expect(removeAccount).not.toHaveBeenCalled();
    expect((await summary()).map((account) => account.name)).toEqual(['Office', 'Lab']);
  });

  it('takes over an account the user had set up under the same name', async () => {
    await apiKeyItem.setValue('home-key');
    const accounts = createAccounts({
      confirm: async () => true,
      permissions: { request: async () => true, remove: async () => true },
      removeInWorker: async () => ({ removed: true, discarded: 0 }),
    });
    const id = await accounts.add({ name: 'lab', key: 'old-lab-key', baseUrl: LAB.baseUrl, form: 'B' });
    const managed = fakeManagedStorage({ accounts: [LAB] });
    await worker(managed).apply();
    const state = await readAccounts();
    expect(state.accounts).toHaveLength(2);
    expect(state.accounts.find((account) => account.id === id)).toMatchObject({
      name: 'Lab',
      key: 'lab-key-1',
    });
  });
});

describe('page diagnosis', () => {
  it('is turned off when the policy does not allow it', async () => {
    await diagnosisSettingsItem.setValue({ enabled: true });
    await worker(fakeManagedStorage({ pageDiagnosis: true })).apply();
    expect((await diagnosisSettingsItem.getValue()).enabled).toBe(true);
    await worker(fakeManagedStorage({ pageDiagnosis: false })).apply();
    expect((await diagnosisSettingsItem.getValue()).enabled).toBe(false);
  });
});

describe('a settings file', () => {
  it('never holds the key of an account the policy set up, even with "Include the API key"', async () => {
    const { collectBackup } = await import('@/lib/backup/export');
    await apiKeyItem.setValue('home-key');
    await worker(fakeManagedStorage({ accounts: [OFFICE, LAB] })).apply();
    const text = JSON.stringify(await collectBackup({ includeKey: true }));
    expect(text).toContain('home-key');
    expect(text).not.toContain('office-key-1');
    expect(text).not.toContain('lab-key-1');
    // The accounts themselves are in it, without their keys.
    expect(text).toContain('"Lab"');
    // Nor when it is the active one.
    const office = (await readAccounts()).accounts.find((account) => account.name === 'Office');
    await switchAccount(office?.id ?? '');
    const whileActive = JSON.stringify(await collectBackup({ includeKey: true }));
    expect(whileActive).not.toContain('office-key-1');
    expect(whileActive).toContain('home-key');
  });
});
