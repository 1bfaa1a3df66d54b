/**
 * The active account's schedules in the settings backup (lib/schedules/backup.ts): exported and
 * restored in a fresh browser, checked on import, and a file whose rules collide is refused,
 * naming both.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
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

async function importText(text: string) {
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
