import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { backupFileName, backupText, collectBackup } from '@/lib/backup/export';
import { BACKUP_FORMAT, backupFileSchema, MAX_BACKUP_BYTES } from '@/lib/backup/format';
import { applyBackup, permissionsNeeded } from '@/lib/backup/import';
import { parseBackup } from '@/lib/backup/parse';
import {
  addedTldsItem,
  apiKeyItem,
  chosenProfileItem,
  connectionItem,
  contextMenuSettingsItem,
  defaultBlockItem,
  diagnosisSettingsItem,
  dynamicIpSettingsItem,
  outboxItem,
  registeredAddressesItem,
  themeItem,
} from '@/lib/settings/storage';

const KEY = 'sk-live-0123456789abcdef';

const CUSTOM = {
  connection: { baseUrl: 'https://dns.example.net', form: 'B' as const },
  dynamicIp: {
    enabled: true,
    intervalMinutes: 30,
    label: 'Office',
    profile: 'kids1',
    lookupUrls: ['https://ip.example.org/'],
    removePrevious: false,
  },
  contextMenu: { enabled: false },
  diagnosis: { enabled: true },
  theme: 'dark' as const,
  chosenProfile: 'kids1',
  addedTlds: { 'A:kids1': ['.xyz', '.zip'] },
  defaultBlock: { 'A:kids1': { enabled: true, at: 1_700_000_000_000 } },
};

async function storeCustomSettings() {
  await apiKeyItem.setValue(KEY);
  await connectionItem.setValue(CUSTOM.connection);
  await dynamicIpSettingsItem.setValue(CUSTOM.dynamicIp);
  await contextMenuSettingsItem.setValue(CUSTOM.contextMenu);
  await diagnosisSettingsItem.setValue(CUSTOM.diagnosis);
  await themeItem.setValue(CUSTOM.theme);
  await chosenProfileItem.setValue(CUSTOM.chosenProfile);
  await addedTldsItem.setValue(CUSTOM.addedTlds);
  await defaultBlockItem.setValue(CUSTOM.defaultBlock);
}

async function storedSettings() {
  return {
    apiKey: await apiKeyItem.getValue(),
    connection: await connectionItem.getValue(),
    dynamicIp: await dynamicIpSettingsItem.getValue(),
    contextMenu: await contextMenuSettingsItem.getValue(),
    diagnosis: await diagnosisSettingsItem.getValue(),
    theme: await themeItem.getValue(),
    chosenProfile: await chosenProfileItem.getValue(),
    addedTlds: await addedTldsItem.getValue(),
    defaultBlock: await defaultBlockItem.getValue(),
  };
}

/**
 * Parses and applies as the options page does, the user confirming any change of destination;
 * fails the test when the file is refused.
 */
async function importText(text: string) {
  const parsed = parseBackup(text);
  if (!parsed.ok) throw new Error(`refused: ${parsed.message}`);
  const outcome = await applyBackup(parsed, { confirmDestinations: async () => true });
  if (outcome.cancelled) throw new Error('cancelled');
  return outcome;
}

function fileWith(settings: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    format: BACKUP_FORMAT,
    version: 1,
    exportedAt: '2025-01-31T10:00:00.000Z',
    settings,
    ...extra,
  });
}

beforeEach(() => fakeBrowser.reset());

describe('export then import', () => {
  it('restores every setting in a fresh browser, and keeps the key out of the file by default', async () => {
    await storeCustomSettings();
    const text = backupText(await collectBackup({ includeKey: false }));
    expect(text).not.toContain(KEY);
    expect(backupFileSchema.safeParse(JSON.parse(text)).success).toBe(true);

    fakeBrowser.reset();
    const report = await importText(text);

    expect(await storedSettings()).toEqual({ ...CUSTOM, apiKey: '' });
    expect(report.refused).toEqual([]);
    expect(report.imported.map((line) => line.name)).not.toContain('apiKey');
    expect(report.notInFile).toEqual([
      expect.objectContaining({
        name: 'apiKey',
        detail: expect.stringMatching(/key saved in this browser stays/),
      }),
    ]);
  });

  it('puts the key in the file only when asked, and restores it', async () => {
    await storeCustomSettings();
    const text = backupText(await collectBackup({ includeKey: true }));
    expect(text).toContain(KEY);

    fakeBrowser.reset();
    const report = await importText(text);

    expect(await storedSettings()).toEqual({ ...CUSTOM, apiKey: KEY });
    const keyLine = report.imported.find((line) => line.name === 'apiKey');
    expect(keyLine?.detail).toBeDefined();
    // The report is shown on screen: it never repeats the key.
    expect(JSON.stringify(report)).not.toContain(KEY);
  });

  it('writes no key when asked to include one that is not set', async () => {
    const backup = await collectBackup({ includeKey: true });
    expect(backup.settings.apiKey).toBeUndefined();
  });

  it('leaves caches, queues and what this browser registered out of the file', async () => {
    await storeCustomSettings();
    await outboxItem.setValue([
      {
        id: 'c1',
        change: { op: 'add', list: 'whitelist', domain: 'example.com', source: 'popup' },
        account: 'A https://dns.example.net 0123456789abcdef',
        createdAt: 1,
        attempts: 0,
        nextAttemptAt: 1,
      },
    ]);
    await registeredAddressesItem.setValue({
      current: { ip: '203.0.113.9', account: 'A https://dns.example.net 0123456789abcdef', at: 1 },
      stale: [],
    });
    const text = backupText(await collectBackup({ includeKey: false }));
    expect(Object.keys(JSON.parse(text).settings).sort()).toEqual(
      [
        'addedTlds',
        'chosenProfile',
        'connection',
        'contextMenu',
        'defaultBlock',
        'diagnosis',
        'dynamicIp',
        // Where list entries came from and their notes (lib/notes): empty here.
        'listNotes',
        // Saved profile groups (lib/profile-groups): none here.
        'profileGroups',
        // The active account's schedules (lib/schedules): none here.
        'schedules',
        'theme',
      ].sort(),
    );
    expect(text).not.toContain('203.0.113.9');
    expect(text).not.toContain('example.com');
  });

  it('names the file after the local date', () => {
    expect(backupFileName(new Date(2025, 0, 31, 23, 59))).toBe(
      'dns-filter-companion-settings-2025-01-31.json',
    );
  });
});

describe('files that are not a usable backup change nothing', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['not JSON', 'hello', /not a settings backup.*not JSON/],
    ['an empty file', '', /not JSON/],
    ['JSON of something else', JSON.stringify({ name: 'other extension' }), /not a settings backup/],
    ['a JSON array', '[1,2,3]', /not a settings backup/],
    [
      'a damaged backup (settings not an object)',
      JSON.stringify({ format: BACKUP_FORMAT, version: 1, settings: 'oops' }),
      /damaged/,
    ],
    ['a backup of a newer version', fileWith({ theme: 'dark' }, { version: 3 }), /newer version.*Update/],
    ['a file far too large', ' '.repeat(MAX_BACKUP_BYTES + 1), /too large/],
  ];
  it.each(cases)('%s', async (_name, text, message) => {
    await storeCustomSettings();
    const before = await storedSettings();
    const parsed = parseBackup(text);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.message).toMatch(message);
    expect(parsed.message).toMatch(/Nothing was changed/);
    expect(await storedSettings()).toEqual(before);
  });
});

describe('settings checked one by one', () => {
  it('refuses the bad ones with a reason, keeps their current values and imports the rest', async () => {
    await storeCustomSettings();
    const report = await importText(
      fileWith({
        // Plain http to another computer would send the key unencrypted.
        connection: { baseUrl: 'http://dns.example.com', form: 'A' },
        dynamicIp: { ...CUSTOM.dynamicIp, intervalMinutes: 2 },
        theme: 'light',
        chosenProfile: 'line\nbreak',
        contextMenu: { enabled: 'yes' },
        futureThing: { x: 1 },
      }),
    );
    expect(report.imported.map((line) => line.name)).toEqual(['theme']);
    expect(Object.fromEntries(report.refused.map((line) => [line.name, line.detail]))).toEqual({
      connection: expect.stringMatching(/https/),
      dynamicIp: expect.stringMatching(/intervalMinutes: less than 5/),
      chosenProfile: expect.any(String),
      contextMenu: expect.stringMatching(/enabled: expected boolean/),
    });
    expect(report.ignored).toEqual(['“futureThing”']);
    expect(await storedSettings()).toEqual({ ...CUSTOM, apiKey: KEY, theme: 'light' });
  });

  it.each([
    ['a number', 12345],
    ['text with spaces', 'sk live with spaces'],
    ['an empty text', ''],
  ])('refuses an API key that is %s without showing it', async (_name, key) => {
    await apiKeyItem.setValue(KEY);
    const report = await importText(fileWith({ apiKey: key }));
    expect(report.refused.map((line) => line.name)).toEqual(['apiKey']);
    if (typeof key === 'string' && key !== '') expect(report.refused[0]?.detail).not.toContain(key);
    expect(await apiKeyItem.getValue()).toBe(KEY);
  });

  it('normalises a service address the way Setup does', async () => {
    await importText(fileWith({ connection: { baseUrl: 'https://DNS.example.net/api/v1/', form: 'B' } }));
    expect(await connectionItem.getValue()).toEqual({ baseUrl: 'https://dns.example.net', form: 'B' });
  });

  it('adds the imported TLD records to the ones this browser has; the newer default block record wins', async () => {
    await addedTldsItem.setValue({ 'A:kids1': ['.xyz'], 'B:account': ['.top'] });
    await defaultBlockItem.setValue({
      'A:kids1': { enabled: false, at: 2_000 },
      'A:teens1': { enabled: true, at: 2_000 },
    });
    await importText(
      fileWith({
        addedTlds: { 'A:kids1': ['.zip', '.xyz'], 'A:default': ['.bad'] },
        defaultBlock: { 'A:kids1': { enabled: true, at: 3_000 }, 'A:teens1': { enabled: false, at: 1_000 } },
      }),
    );
    expect(await addedTldsItem.getValue()).toEqual({
      'A:kids1': ['.xyz', '.zip'],
      'B:account': ['.top'],
      'A:default': ['.bad'],
    });
    expect(await defaultBlockItem.getValue()).toEqual({
      'A:kids1': { enabled: true, at: 3_000 },
      'A:teens1': { enabled: true, at: 2_000 },
    });
  });

  it('refuses records under a name that is not a profile', async () => {
    const report = await importText(
      fileWith({ addedTlds: { 'not a scope': ['.xyz'], 'A:kids1': ['.zip'] } }),
    );
    expect(report.refused.map((line) => line.name)).toEqual(['addedTlds']);
    expect(await addedTldsItem.getValue()).toEqual({});
  });

  it('reports a file without settings as importing nothing', async () => {
    const report = await importText(fileWith({}));
    expect(report.imported).toEqual([]);
    expect(report.refused).toEqual([]);
  });
});

describe('permissions the imported settings need', () => {
  const base = { connection: { baseUrl: 'https://my.cleanbrowsing.org', form: 'A' as const } };
  it.each([
    ['the default service', base, { origins: [], permissions: [] }],
    [
      'another service',
      { connection: { baseUrl: 'https://dns.example.net', form: 'A' as const } },
      { origins: ['https://dns.example.net/*'], permissions: [] },
    ],
    [
      'a service on this computer',
      { connection: { baseUrl: 'http://127.0.0.1:8787', form: 'A' as const } },
      { origins: [], permissions: [] },
    ],
    [
      'dynamic IP on',
      { ...base, dynamicIp: CUSTOM.dynamicIp },
      { origins: ['https://ip.example.org/*'], permissions: [] },
    ],
    [
      'dynamic IP off',
      { ...base, dynamicIp: { ...CUSTOM.dynamicIp, enabled: false } },
      { origins: [], permissions: [] },
    ],
    [
      'page diagnosis on',
      { ...base, diagnosis: { enabled: true } },
      { origins: ['<all_urls>'], permissions: ['webRequest', 'webNavigation'] },
    ],
  ])('%s', (_name, settings, expected) => {
    expect(permissionsNeeded(settings)).toEqual(expected);
  });
});
