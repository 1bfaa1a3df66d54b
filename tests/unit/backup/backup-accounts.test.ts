/**
 * Backup with several accounts (lib/backup/): every account is exported (keys only when
 * asked), and imported with a confirmation for every new service; an import never merges two
 * accounts silently: same origin, form and key is the same account, anything else a new one.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { createAccounts, listAccounts } from '@/lib/accounts';
import { backupText, collectBackup } from '@/lib/backup/export';
import { applyBackup, type DestinationChange } from '@/lib/backup/import';
import { parseBackup } from '@/lib/backup/parse';
import { apiKeyItem, connectionItem, dynamicIpSettingsItem } from '@/lib/settings/storage';

beforeEach(() => fakeBrowser.reset());

async function twoAccounts() {
  await apiKeyItem.setValue('key-home');
  await connectionItem.setValue({ baseUrl: 'https://my.cleanbrowsing.org', form: 'A' });
  const api = createAccounts({
    confirm: async () => true,
    permissions: { request: async () => true, remove: async () => true },
    removeInWorker: async () => ({ removed: true, discarded: 0 }),
  });
  const office = await api.add({
    name: 'Office',
    key: 'key-office',
    baseUrl: 'https://dns.office.example',
    form: 'B',
  });
  return { api, office };
}

async function importText(text: string, answer = true) {
  const parsed = parseBackup(text);
  if (!parsed.ok) throw new Error(parsed.message);
  const asked: DestinationChange[][] = [];
  const outcome = await applyBackup(parsed, {
    confirmDestinations: async (changes) => {
      asked.push(changes);
      return answer;
    },
  });
  return { outcome, asked };
}

const summary = async () =>
  (await listAccounts()).accounts.map(({ name, baseUrl, form, hasKey }) => ({ name, baseUrl, form, hasKey }));

describe('export', () => {
  it('holds every account; the keys only when asked', async () => {
    await twoAccounts();
    const without = backupText(await collectBackup({ includeKey: false }));
    expect(without).not.toContain('key-office');
    expect(without).not.toContain('key-home');
    expect(JSON.parse(without).accounts).toMatchObject([
      { name: 'Office', connection: { baseUrl: 'https://dns.office.example', form: 'B' } },
    ]);
    const withKeys = JSON.parse(backupText(await collectBackup({ includeKey: true })));
    expect(withKeys.settings.apiKey).toBe('key-home');
    expect(withKeys.accounts[0].apiKey).toBe('key-office');
  });
});

describe('import', () => {
  it('adds the file’s other accounts in a fresh browser, once their services are confirmed', async () => {
    await twoAccounts();
    const text = backupText(await collectBackup({ includeKey: true }));
    fakeBrowser.reset();

    const refused = await importText(text, false);
    expect(refused.outcome.cancelled).toBe(true);
    expect(refused.asked[0]?.map((change) => change.after)).toContain('https://dns.office.example');
    expect(await summary()).toHaveLength(1);

    const { outcome } = await importText(text);
    expect(outcome.cancelled).toBe(false);
    expect(await summary()).toEqual([
      { name: 'my.cleanbrowsing.org', baseUrl: 'https://my.cleanbrowsing.org', form: 'A', hasKey: true },
      { name: 'Office', baseUrl: 'https://dns.office.example', form: 'B', hasKey: true },
    ]);
    expect(await apiKeyItem.getValue()).toBe('key-home');
  });

  it('the same account again (origin, form and key) is updated, not doubled', async () => {
    const { api, office } = await twoAccounts();
    const text = backupText(await collectBackup({ includeKey: true }));
    await api.activate(office);
    await dynamicIpSettingsItem.setValue({ ...dynamicIpSettingsItem.fallback, label: 'Changed here' });
    await api.activate((await listAccounts()).accounts[0]!.id);
    const { outcome, asked } = await importText(text);
    // Nothing about its service is asked: this browser sends that key there already.
    expect(asked.flat().filter((change) => change.name === 'account')).toEqual([]);
    expect(await summary()).toHaveLength(2);
    if (outcome.cancelled) throw new Error('cancelled');
    expect(outcome.imported.filter((line) => line.name === 'accounts')[0]?.detail).toMatch(/key kept/);
    const officeNow = (await listAccounts()).accounts.find((account) => account.id === office);
    expect(officeNow?.dynamicIp.label).toBe('Dynamic IP (this browser)');
  });

  it('another key on the same service is another account, named apart', async () => {
    await twoAccounts();
    const file = JSON.parse(backupText(await collectBackup({ includeKey: true })));
    file.accounts[0].apiKey = 'key-of-someone-else';
    await importText(JSON.stringify(file));
    const accounts = await summary();
    expect(accounts.map((account) => account.name)).toEqual(['my.cleanbrowsing.org', 'Office', 'Office (2)']);
    // Each keeps its own key: the office's is not replaced by the file's.
    const { accounts: stored } = await listAccounts();
    expect(new Set(stored.map((account) => account.identity.id)).size).toBe(3);
  });

  it('without keys, an account of the same service, form and name is the same; the file is imported twice without doubling', async () => {
    await twoAccounts();
    const text = backupText(await collectBackup({ includeKey: false }));
    fakeBrowser.reset();
    await importText(text);
    await importText(text);
    expect(await summary()).toEqual([
      { name: 'my.cleanbrowsing.org', baseUrl: 'https://my.cleanbrowsing.org', form: 'A', hasKey: false },
      { name: 'Office', baseUrl: 'https://dns.office.example', form: 'B', hasKey: false },
    ]);
  });

  it('a damaged account is refused on its own, never quoting a key', async () => {
    await twoAccounts();
    const file = JSON.parse(backupText(await collectBackup({ includeKey: true })));
    file.accounts.push({
      name: 'Broken',
      connection: { baseUrl: 'not a url at all', form: 'A' },
      apiKey: 'secret-x',
    });
    file.accounts.push({
      name: 'Bad key',
      connection: { baseUrl: 'https://my.cleanbrowsing.org', form: 'A' },
      apiKey: 42,
    });
    // Without a name, the account is named by its service's host.
    file.accounts.push({ connection: { baseUrl: 'https://dns.school.example', form: 'A' }, apiKey: 7 });
    const parsed = parseBackup(JSON.stringify(file));
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.accounts).toHaveLength(1);
    expect(parsed.refused.map((line) => line.label)).toEqual([
      'Account “Broken”',
      'Account “Bad key”',
      'Account “dns.school.example”',
    ]);
    expect(JSON.stringify(parsed.refused)).not.toContain('secret-x');
  });

  it('an account name is checked as a typed one: control and direction characters refuse the account', async () => {
    await twoAccounts();
    const file = JSON.parse(backupText(await collectBackup({ includeKey: false })));
    file.accounts = [
      {
        name: 'Home\u202E\u0007\nmoc.knab',
        connection: { baseUrl: 'https://my.cleanbrowsing.org', form: 'B' },
      },
      { name: 'Bank\u202Emoc.knab', connection: { baseUrl: 'https://my.cleanbrowsing.org', form: 'B' } },
      { name: '  Parents  ', connection: { baseUrl: 'https://my.cleanbrowsing.org', form: 'B' } },
    ];
    const { outcome } = await importText(JSON.stringify(file));
    if (outcome.cancelled) throw new Error('cancelled');

    expect(outcome.refused.map((line) => line.detail)).toEqual([
      'An account name has at most 64 characters and no control characters.',
      'An account name cannot contain invisible characters that change the direction of the text.',
    ]);
    expect((await summary()).map((account) => account.name)).toEqual([
      'my.cleanbrowsing.org',
      'Office',
      'Parents',
    ]);
  });

  it('a typed name is refused for the same characters', async () => {
    const { api } = await twoAccounts();
    await expect(
      api.add({ name: 'Bank\u202Emoc.knab', key: 'key-bank', baseUrl: 'my.cleanbrowsing.org', form: 'B' }),
    ).rejects.toThrow(
      'An account name cannot contain invisible characters that change the direction of the text.',
    );
    await expect(
      api.add({ name: 'Home\u0085', key: 'key-bank', baseUrl: 'my.cleanbrowsing.org', form: 'B' }),
    ).rejects.toThrow('An account name has at most 64 characters and no control characters.');
  });
});
