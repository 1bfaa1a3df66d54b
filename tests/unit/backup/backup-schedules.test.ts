/**
 * Every account's schedules in the settings backup (lib/schedules/backup.ts): exported and
 * restored in a fresh browser, each on its account, checked on import, and a file whose rules
 * collide is refused, naming the account and both rules.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { createAccounts, listAccounts } from '@/lib/accounts';
import { readAccounts } from '@/lib/accounts/store';
import { backupText, collectBackup } from '@/lib/backup/export';
import { BACKUP_FORMAT } from '@/lib/backup/format';
import { applyBackup } from '@/lib/backup/import';
import { parseBackup } from '@/lib/backup/parse';
import { schedulesItem } from '@/lib/schedules/store';
import { apiKeyItem, connectionItem } from '@/lib/settings/storage';
import { rule } from '../schedules/fixtures';

beforeEach(() => fakeBrowser.reset());

async function setUpAccount() {
  await apiKeyItem.setValue('sk-live-0123456789abcdef');
  await connectionItem.setValue({ baseUrl: 'https://my.cleanbrowsing.org', form: 'A' });
  return (await readAccounts()).activeId;
}

async function importText(text: string, before?: () => Promise<unknown>) {
  await before?.();
  const parsed = parseBackup(text);
  if (!parsed.ok) throw new Error(`refused: ${parsed.message}`);
  const outcome = await applyBackup(parsed, { confirmDestinations: async () => true });
  if (outcome.cancelled) throw new Error('cancelled');
  return outcome;
}

describe('schedules in the backup', () => {
  it('are exported with the lead, and restored in a fresh browser (without the overrides of this one)', async () => {
    const id = await setUpAccount();
    await schedulesItem.setValue({
      [id]: {
        leadMinutes: 30,
        rules: [rule({ profile: 'kids' })],
        overrides: [{ rule: 'homework', kind: 'release', from: 1, until: 2 }],
      },
    });
    const text = backupText(await collectBackup({ includeKey: false }));
    expect(text).not.toContain('release');

    fakeBrowser.reset();
    const freshId = await setUpAccount();
    const report = await importText(text);
    expect(report.imported.map((line) => line.name)).toContain('schedules');
    expect((await schedulesItem.getValue())[freshId]).toMatchObject({
      leadMinutes: 30,
      rules: [rule({ profile: 'kids' })],
      overrides: [],
    });
  });

  it('refuses a file whose rules own one thing at the same time, naming both, and keeps what is here', async () => {
    const id = await setUpAccount();
    await schedulesItem.setValue({ [id]: { leadMinutes: 45, rules: [rule()], overrides: [] } });
    const clash = rule({ id: 'evening', name: 'Evening', windows: [{ start: '19:00', end: '21:00' }] });
    const report = await importText(
      JSON.stringify({
        format: BACKUP_FORMAT,
        version: 2,
        exportedAt: '2026-01-31T10:00:00.000Z',
        settings: { schedules: { leadMinutes: 10, rules: [rule(), clash] } },
      }),
    );
    expect(report.refused.map((line) => [line.name, line.detail])).toEqual([
      ['schedules', expect.stringMatching(/Evening.*Homework time|Homework time.*Evening/)],
    ]);
    expect((await schedulesItem.getValue())[id]?.rules).toEqual([rule()]);
  });

  it('refuses rules that collide with the ones here, naming both, and keeps what is here', async () => {
    const id = await setUpAccount();
    const mine = rule({ id: 'mine', name: 'Mine', windows: [{ start: '08:00', end: '09:00' }] });
    await schedulesItem.setValue({ [id]: { leadMinutes: 45, rules: [mine], overrides: [] } });
    const early = rule({ id: 'early', name: 'Early', windows: [{ start: '08:30', end: '10:00' }] });
    const report = await importText(
      JSON.stringify({
        format: BACKUP_FORMAT,
        version: 2,
        exportedAt: '2026-01-31T10:00:00.000Z',
        settings: { schedules: { leadMinutes: 10, rules: [early] } },
      }),
    );
    expect(report.refused.map((line) => [line.name, line.detail])).toEqual([
      ['schedules', expect.stringMatching(/“Early”.*“Mine”|“Mine”.*“Early”/)],
    ]);
    expect((await schedulesItem.getValue())[id]).toEqual({ leadMinutes: 45, rules: [mine], overrides: [] });
  });

  it('refuses a window that is not a time, without writing anything', async () => {
    const id = await setUpAccount();
    const report = await importText(
      JSON.stringify({
        format: BACKUP_FORMAT,
        version: 2,
        exportedAt: '2026-01-31T10:00:00.000Z',
        settings: {
          schedules: { leadMinutes: 10, rules: [rule({ windows: [{ start: '25:00', end: '20:00' }] })] },
        },
      }),
    );
    expect(report.refused.map((line) => line.name)).toEqual(['schedules']);
    expect((await schedulesItem.getValue())[id]).toBeUndefined();
  });
});

/** This browser's first account and a second one, "Office" (Form B: its rules own the whole account). */
async function twoAccounts() {
  const homeId = await setUpAccount();
  const api = createAccounts({
    confirm: async () => true,
    permissions: { request: async () => true, remove: async () => true },
    removeInWorker: async () => ({ removed: true, discarded: 0 }),
  });
  await api.add({ name: 'Office', key: 'key-office', baseUrl: 'https://dns.office.example', form: 'B' });
  const officeId = (await readAccounts()).accounts.find((account) => account.name === 'Office')!.id;
  return { homeId, officeId };
}

const officeRule = rule({ id: 'lunch', name: 'Lunch break', windows: [{ start: '12:00', end: '13:00' }] });

async function accountIdNamed(name: string) {
  return (await listAccounts()).accounts.find((account) => account.name === name)?.id;
}

describe('schedules of every account in the backup', () => {
  it('the file holds each account’s rules, and a fresh browser gets them back, each on its account', async () => {
    const { homeId, officeId } = await twoAccounts();
    expect((await readAccounts()).activeId).toBe(homeId);
    await schedulesItem.setValue({
      [homeId]: { leadMinutes: 45, rules: [rule({ profile: 'kids' })], overrides: [] },
      [officeId]: { leadMinutes: 15, rules: [officeRule], overrides: [] },
    });
    const file = JSON.parse(backupText(await collectBackup({ includeKey: true })));
    expect(file.settings.schedules.rules).toEqual([rule({ profile: 'kids' })]);
    expect(file.accounts[0]).toMatchObject({
      name: 'Office',
      schedules: { leadMinutes: 15, rules: [officeRule] },
    });

    fakeBrowser.reset();
    const freshId = await setUpAccount();
    const report = await importText(JSON.stringify(file));
    expect(report.refused).toEqual([]);
    const newOfficeId = await accountIdNamed('Office');
    expect(newOfficeId).toBeDefined();
    const stored = await schedulesItem.getValue();
    expect(stored[freshId]?.rules).toEqual([rule({ profile: 'kids' })]);
    expect(stored[newOfficeId!]).toEqual({ leadMinutes: 15, rules: [officeRule], overrides: [] });
    expect(report.imported.map((line) => `${line.label}: ${line.detail}`)).toContain(
      'Account “Office”: its schedules: 1 schedule',
    );
  });

  it('a second account’s rules that collide are refused, naming the account and both rules; nothing else is lost', async () => {
    const clash = rule({ id: 'evening', name: 'Evening', windows: [{ start: '19:00', end: '21:00' }] });
    const report = await importText(
      JSON.stringify({
        format: BACKUP_FORMAT,
        version: 2,
        exportedAt: '2026-01-31T10:00:00.000Z',
        settings: { schedules: { leadMinutes: 10, rules: [rule()] } },
        accounts: [
          {
            name: 'Office',
            connection: { baseUrl: 'https://dns.office.example', form: 'B' },
            schedules: { leadMinutes: 10, rules: [rule(), clash] },
          },
        ],
      }),
      setUpAccount,
    );
    expect(report.refused.map((line) => `${line.label}: ${line.detail}`)).toEqual([
      expect.stringMatching(
        /^Account “Office”: its schedules were not imported .*(“Evening”.*“Homework time”|“Homework time”.*“Evening”)/,
      ),
    ]);
    const officeId = await accountIdNamed('Office');
    expect(officeId).toBeDefined();
    const stored = await schedulesItem.getValue();
    expect(stored[officeId!]).toBeUndefined();
    expect(stored[(await readAccounts()).activeId]?.rules).toEqual([rule()]);
  });

  it('a second account’s rule that is not a time is refused with the account’s name; the account is still added', async () => {
    const report = await importText(
      JSON.stringify({
        format: BACKUP_FORMAT,
        version: 2,
        exportedAt: '2026-01-31T10:00:00.000Z',
        settings: {},
        accounts: [
          {
            name: 'Office',
            connection: { baseUrl: 'https://dns.office.example', form: 'B' },
            schedules: { leadMinutes: 10, rules: [rule({ windows: [{ start: '25:00', end: '20:00' }] })] },
          },
        ],
      }),
      setUpAccount,
    );
    expect(report.refused.map((line) => line.label)).toEqual(['Account “Office”']);
    expect(report.refused[0]?.detail).toMatch(/its schedules were not imported/);
    expect(await accountIdNamed('Office')).toBeDefined();
    expect(await schedulesItem.getValue()).toEqual({});
  });

  it('an account already here keeps its own rules beside the file’s; a rule colliding with one here is refused', async () => {
    const { officeId } = await twoAccounts();
    const mine = rule({ id: 'mine', name: 'Mine', windows: [{ start: '08:00', end: '09:00' }] });
    await schedulesItem.setValue({ [officeId]: { leadMinutes: 45, rules: [mine], overrides: [] } });
    const file = (rules: unknown[]) =>
      JSON.stringify({
        format: BACKUP_FORMAT,
        version: 2,
        exportedAt: '2026-01-31T10:00:00.000Z',
        settings: {},
        accounts: [
          {
            name: 'Office',
            connection: { baseUrl: 'https://dns.office.example', form: 'B' },
            apiKey: 'key-office',
            schedules: { leadMinutes: 20, rules },
          },
        ],
      });
    expect((await importText(file([officeRule]))).refused).toEqual([]);
    expect((await schedulesItem.getValue())[officeId]?.rules).toEqual([mine, officeRule]);

    const overlapsMine = rule({ id: 'early', name: 'Early', windows: [{ start: '08:30', end: '10:00' }] });
    const report = await importText(file([overlapsMine]));
    expect(report.refused[0]?.detail).toMatch(/“Early”.*“Mine”|“Mine”.*“Early”/);
    expect((await schedulesItem.getValue())[officeId]?.rules).toEqual([mine, officeRule]);
  });

  it('a file made before accounts carried schedules still imports them', async () => {
    const report = await importText(
      JSON.stringify({
        format: BACKUP_FORMAT,
        version: 2,
        exportedAt: '2025-06-01T10:00:00.000Z',
        settings: {},
        accounts: [{ name: 'Office', connection: { baseUrl: 'https://dns.office.example', form: 'B' } }],
      }),
      setUpAccount,
    );
    expect(report.refused).toEqual([]);
    expect(await accountIdNamed('Office')).toBeDefined();
    expect(await schedulesItem.getValue()).toEqual({});
  });
});
