/**
 * Several accounts (lib/accounts): adding, switching, renaming and removing keep each account's
 * key, connection and settings with it, each key in exactly one stored place, and a key only for
 * an origin the user confirmed.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { createAccounts, listAccounts, MAX_ACCOUNTS } from '@/lib/accounts';
import { ACCOUNT_ITEMS, readAccounts } from '@/lib/accounts/store';
import { readMenuInput } from '@/lib/menus';
import { REMEMBERED_NAMES_RECORD } from '@/lib/popup/remembered-names';
import {
  accountKeysItem,
  accountsItem,
  apiKeyItem,
  connectionItem,
  dynamicIpSettingsItem,
  lastLogDumpItem,
} from '@/lib/settings/storage';

beforeEach(() => fakeBrowser.reset());

function accountsApi(answer = true) {
  const confirm = vi.fn(async () => answer);
  const request = vi.fn(async () => true);
  const removeInWorker = vi.fn(async () => ({ removed: true, discarded: 0 }));
  const api = createAccounts({ confirm, permissions: { request, remove: async () => true }, removeInWorker });
  return { api, confirm, request, removeInWorker };
}

async function setUpFirst() {
  await apiKeyItem.setValue('key-home');
  await connectionItem.setValue({ baseUrl: 'https://my.cleanbrowsing.org', form: 'A' });
}

/** Every stored value (all areas) as text, to find where a key is kept. */
async function storedPlacesOf(key: string): Promise<string[]> {
  const local = await fakeBrowser.storage.local.get(null);
  return Object.entries(local)
    .filter(([, value]) => JSON.stringify(value).includes(key))
    .map(([name]) => name);
}

describe('adding and switching', () => {
  it('keeps each account’s key, connection and settings with it, each key in one place', async () => {
    await setUpFirst();
    await dynamicIpSettingsItem.setValue({ ...dynamicIpSettingsItem.fallback, enabled: true, label: 'Home' });
    await lastLogDumpItem.setValue({ at: 1_000 });
    const { api } = accountsApi();
    const first = (await api.list()).activeId;
    const parents = await api.add({
      name: 'Parents',
      key: 'key-parents',
      baseUrl: 'my.cleanbrowsing.org',
      form: 'B',
    });

    // Added, not active: the pages still act on the first account.
    expect(await apiKeyItem.getValue()).toBe('key-home');
    expect((await api.list()).accounts.map(({ name, active, hasKey }) => ({ name, active, hasKey }))).toEqual(
      [
        { name: 'my.cleanbrowsing.org', active: true, hasKey: true },
        { name: 'Parents', active: false, hasKey: true },
      ],
    );

    await api.activate(parents);
    expect(await apiKeyItem.getValue()).toBe('key-parents');
    expect(await connectionItem.getValue()).toEqual({ baseUrl: 'https://my.cleanbrowsing.org', form: 'B' });
    // Parents has its own settings: nothing of the first account's came along.
    expect((await dynamicIpSettingsItem.getValue()).enabled).toBe(false);
    expect(await lastLogDumpItem.getValue()).toBeNull();
    expect(await storedPlacesOf('key-parents')).toEqual(['apiKey']);
    expect(await storedPlacesOf('key-home')).toEqual(['accountKeys']);

    await api.activate(first);
    expect(await apiKeyItem.getValue()).toBe('key-home');
    expect(await connectionItem.getValue()).toEqual({ baseUrl: 'https://my.cleanbrowsing.org', form: 'A' });
    expect(await dynamicIpSettingsItem.getValue()).toMatchObject({ enabled: true, label: 'Home' });
    expect(await lastLogDumpItem.getValue()).toEqual({ at: 1_000 });
    expect(await storedPlacesOf('key-home')).toEqual(['apiKey']);
    expect(await storedPlacesOf('key-parents')).toEqual(['accountKeys']);
  });

  it('switches in one storage write, so no reader sees one account’s key with another’s connection', async () => {
    await setUpFirst();
    const { api } = accountsApi();
    const office = await api.add({
      name: 'Office',
      key: 'key-office',
      baseUrl: 'https://dns.example',
      form: 'B',
    });
    const set = vi.spyOn(fakeBrowser.storage.local, 'set');
    await api.activate(office);
    expect(set).toHaveBeenCalledTimes(1);
    expect(set.mock.calls[0]![0]).toMatchObject({
      apiKey: 'key-office',
      connection: { baseUrl: 'https://dns.example', form: 'B' },
    });
  });

  it('asks before the key goes to a new origin; a no writes nothing', async () => {
    await setUpFirst();
    const { api, confirm, request } = accountsApi(false);
    await expect(
      api.add({ name: 'Client', key: 'key-client', baseUrl: 'https://dns.client.example', form: 'A' }),
    ).rejects.toMatchObject({ kind: 'invalid-input', details: { field: 'baseUrl' } });
    expect(confirm).toHaveBeenCalledWith(expect.objectContaining({ origin: 'https://dns.client.example' }));
    expect(request).not.toHaveBeenCalled();
    expect((await listAccounts()).accounts).toHaveLength(1);
    expect(await storedPlacesOf('key-client')).toEqual([]);
  });

  it('does not ask again for an origin another account already uses', async () => {
    await setUpFirst();
    const { api, confirm } = accountsApi();
    await api.add({ name: 'Client', key: 'key-client', baseUrl: 'https://dns.client.example', form: 'A' });
    expect(confirm).toHaveBeenCalledTimes(1);
    await api.add({
      name: 'Client 2',
      key: 'key-client-2',
      baseUrl: 'https://dns.client.example',
      form: 'A',
    });
    expect(confirm).toHaveBeenCalledTimes(1);
  });

  it('refuses a taken name, the same account twice, a bad key, and an eleventh account', async () => {
    await setUpFirst();
    const { api } = accountsApi();
    const base = { baseUrl: 'my.cleanbrowsing.org', form: 'A' as const };
    await expect(api.add({ ...base, name: ' MY.cleanbrowsing.org ', key: 'other' })).rejects.toMatchObject({
      details: { field: 'name' },
    });
    await expect(api.add({ ...base, name: 'Again', key: 'key-home' })).rejects.toMatchObject({
      details: { field: 'key' },
    });
    await expect(api.add({ ...base, name: 'Spaces', key: 'a key' })).rejects.toMatchObject({
      details: { field: 'key' },
    });
    for (let n = 2; n <= MAX_ACCOUNTS; n++) await api.add({ ...base, name: `Client ${n}`, key: `key-${n}` });
    await expect(api.add({ ...base, name: 'One too many', key: 'key-11' })).rejects.toThrow(/at most 10/);
    expect((await listAccounts()).accounts).toHaveLength(MAX_ACCOUNTS);
  });

  it('renames, and an empty name gives the host’s name back', async () => {
    await setUpFirst();
    const { api } = accountsApi();
    const { activeId } = await api.list();
    await api.rename(activeId, '  Family ');
    expect((await api.list()).accounts[0]).toMatchObject({ name: 'Family', named: true });
    await api.rename(activeId, '');
    expect((await api.list()).accounts[0]).toMatchObject({ name: 'my.cleanbrowsing.org', named: false });
  });

  it('the only account cannot be removed; another is removed in the worker', async () => {
    await setUpFirst();
    const { api, removeInWorker } = accountsApi();
    const { activeId } = await api.list();
    await expect(api.remove(activeId)).rejects.toThrow(/only account/);
    const other = await api.add({
      name: 'Other',
      key: 'key-other',
      baseUrl: 'my.cleanbrowsing.org',
      form: 'B',
    });
    // The popup's remembered storage names may be the removed account's: they go with it.
    localStorage.setItem(REMEMBERED_NAMES_RECORD, JSON.stringify([`listNotes:${other}`]));
    await api.remove(other);
    expect(removeInWorker).toHaveBeenCalledWith(other);
    expect(localStorage.getItem(REMEMBERED_NAMES_RECORD)).toBeNull();
  });
});

describe('dynamic IP of an account', () => {
  const draft = {
    enabled: true,
    interval: '30',
    label: 'Office link',
    profile: 'default',
    firstLookupUrl: 'https://lookup.example/',
    moreLookupUrls: '',
    removePrevious: true,
  };

  it('is set for that account only, after the lookup service’s permission is granted', async () => {
    await setUpFirst();
    const { api, request } = accountsApi();
    const office = await api.add({
      name: 'Office',
      key: 'key-office',
      baseUrl: 'my.cleanbrowsing.org',
      form: 'B',
    });
    await api.setDynamicIp({ id: office, form: 'B' }, draft);
    expect(request).toHaveBeenCalledWith({ origins: ['https://lookup.example/*'] });
    const accounts = (await api.list()).accounts;
    expect(accounts.find((account) => account.id === office)?.dynamicIp).toMatchObject({
      enabled: true,
      intervalMinutes: 30,
      label: 'Office link',
    });
    expect((await dynamicIpSettingsItem.getValue()).enabled).toBe(false);
  });

  it('a refused permission or a bad label writes nothing', async () => {
    await setUpFirst();
    const { api, request } = accountsApi();
    const { activeId } = await api.list();
    request.mockResolvedValueOnce(false);
    await expect(api.setDynamicIp({ id: activeId, form: 'A' }, draft)).rejects.toThrow(/permission/);
    await expect(
      api.setDynamicIp({ id: activeId, form: 'A' }, { ...draft, label: '' }),
    ).rejects.toMatchObject({
      details: { field: 'dynamicIp' },
    });
    expect(await dynamicIpSettingsItem.getValue()).toEqual(dynamicIpSettingsItem.fallback);
  });
});

describe('the right-click menu and shortcuts act on the active account', () => {
  it('the menu names the active account once there is more than one', async () => {
    await setUpFirst();
    const { api } = accountsApi();
    expect((await readMenuInput()).accountName).toBeUndefined();
    const parents = await api.add({
      name: 'Parents',
      key: 'key-parents',
      baseUrl: 'my.cleanbrowsing.org',
      form: 'B',
    });
    expect(await readMenuInput()).toMatchObject({ accountName: 'my.cleanbrowsing.org', form: 'A' });
    await api.activate(parents);
    expect(await readMenuInput()).toMatchObject({ accountName: 'Parents', form: 'B' });
  });
});

describe('the per-account items', () => {
  it('have no migrations: parked copies carry no version record', () => {
    expect(ACCOUNT_ITEMS.filter((item) => item.migrations).map((item) => item.key)).toEqual([]);
  });

  it('damaged accounts storage loses nothing of the active setup', async () => {
    await setUpFirst();
    await fakeBrowser.storage.local.set({ accounts: { active: 'nobody-here', accounts: [] } });
    const state = await readAccounts();
    expect(state.accounts).toHaveLength(1);
    expect(state.accounts[0]).toMatchObject({ active: true, key: 'key-home' });
    expect((await accountsItem.getValue()).active).toBe(state.activeId);
    expect(await accountKeysItem.getValue()).toEqual({});
  });
});

describe('an account entry this version cannot read', () => {
  /** Changes the stored entry of account `id` as a hand edit or another version might. */
  async function damageEntry(id: string) {
    const { accounts: stored } = (await fakeBrowser.storage.local.get('accounts')) as {
      accounts: { active: string; accounts: { id: string }[] };
    };
    await fakeBrowser.storage.local.set({
      accounts: {
        ...stored,
        accounts: stored.accounts.map((entry) =>
          entry.id === id ? { ...entry, createdAt: 'yesterday' } : entry,
        ),
      },
    });
  }

  it('is left out: the other accounts still load, and what is left of it is reported until removed', async () => {
    await setUpFirst();
    const { api } = accountsApi();
    const office = await api.add({
      name: 'Office',
      key: 'key-office',
      baseUrl: 'my.cleanbrowsing.org',
      form: 'B',
    });
    const parents = await api.add({
      name: 'Parents',
      key: 'key-parents',
      baseUrl: 'my.cleanbrowsing.org',
      form: 'A',
    });
    await damageEntry(office);

    const view = await api.list();
    expect(view.accounts.map((account) => account.name)).toEqual(['my.cleanbrowsing.org', 'Parents']);
    expect(view.unreadable).toBe(1);
    // Working with the others keeps what is left of it: only the user removes it.
    await api.rename(parents, 'Kids');
    await api.activate(parents);
    expect((await api.list()).unreadable).toBe(1);
    expect(await storedPlacesOf('key-office')).toEqual(['accountKeys']);

    await api.removeUnreadable();
    const after = await api.list();
    expect(after.unreadable).toBe(0);
    expect(after.accounts.map((account) => account.name)).toEqual(['my.cleanbrowsing.org', 'Kids']);
    expect(await storedPlacesOf('key-office')).toEqual([]);
    expect((await readAccounts()).accounts.map((account) => account.key)).toEqual([
      'key-home',
      'key-parents',
    ]);
  });

  it('a list that cannot be read at all: the active setup stays, and the keys left over are reported', async () => {
    await setUpFirst();
    const { api } = accountsApi();
    await api.add({ name: 'Office', key: 'key-office', baseUrl: 'my.cleanbrowsing.org', form: 'B' });
    await api.add({ name: 'Parents', key: 'key-parents', baseUrl: 'my.cleanbrowsing.org', form: 'A' });
    await fakeBrowser.storage.local.set({ accounts: { active: 7, accounts: 'damaged' } });

    const view = await api.list();
    expect(view.accounts).toMatchObject([{ active: true, hasKey: true }]);
    expect(view.unreadable).toBe(2);
    await api.removeUnreadable();
    expect((await api.list()).unreadable).toBe(0);
    expect(await accountKeysItem.getValue()).toEqual({});
    expect(await apiKeyItem.getValue()).toBe('key-home');
  });
});
