import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { MAX_ACCOUNTS } from '@/lib/accounts';
import { backupText, collectBackup } from '@/lib/backup/export';
import { applyBackup } from '@/lib/backup/import';
import { parseBackup } from '@/lib/backup/parse';
import { notes, recordOf } from '@/lib/notes';
import { apiKeyItem } from '@/lib/settings/storage';
import { accountIdFor, testAccount } from '../account-ids';

const ACCOUNT = testAccount('A').id;
const OTHER = testAccount('B').id;
const school = { scope: 'A:default', list: 'whitelist', domain: 'school.example' } as const;

beforeEach(() => fakeBrowser.reset());

async function importText(text: string) {
  const parsed = parseBackup(text);
  if (!parsed.ok) throw new Error(`refused: ${parsed.message}`);
  const outcome = await applyBackup(parsed, { confirmDestinations: async () => true });
  if (outcome.cancelled) throw new Error('cancelled');
  return outcome;
}

describe('records and notes in the settings backup', () => {
  it('are exported for every account and come back on import, merged with this browser’s', async () => {
    await notes.recordAdded(ACCOUNT, [{ ...school, source: 'menu', page: 'portal.school.example' }]);
    await notes.setNote(ACCOUNT, school, 'school portal');
    await notes.recordAdded(OTHER, [
      { scope: 'B:account', list: 'blocklist', domain: 'ads.example', source: 'logs' },
    ]);
    const text = backupText(await collectBackup({ includeKey: false, includePages: true }));
    expect(JSON.parse(text).settings.listNotes).toEqual({
      [ACCOUNT]: [expect.objectContaining({ domain: 'school.example', note: 'school portal' })],
      [OTHER]: [expect.objectContaining({ domain: 'ads.example', source: 'logs' })],
    });

    fakeBrowser.reset();
    const mine = { scope: 'A:default', list: 'blocklist', domain: 'mine.example' } as const;
    await notes.recordAdded(ACCOUNT, [{ ...mine, source: 'popup' }]);
    const report = await importText(text);

    expect(report.imported.map((line) => line.label)).toContain(
      'Where list entries came from, and their notes',
    );
    const after = await notes.read(ACCOUNT);
    expect(recordOf(after, school)).toMatchObject({
      note: 'school portal',
      source: 'menu',
      page: 'portal.school.example',
    });
    expect(recordOf(after, mine)).toMatchObject({ source: 'popup' });
    expect((await notes.read(OTHER)).entries).toHaveLength(1);
  });

  it('leave out the pages entries were added on unless asked for; the rest of each record stays', async () => {
    await notes.recordAdded(ACCOUNT, [{ ...school, source: 'menu', page: 'portal.school.example' }]);
    await notes.setNote(ACCOUNT, school, 'school portal');

    const text = backupText(await collectBackup({ includeKey: false }));
    expect(text).not.toContain('portal.school.example');
    expect(JSON.parse(text).settings.listNotes[ACCOUNT]).toEqual([
      expect.objectContaining({ domain: 'school.example', source: 'menu', note: 'school portal' }),
    ]);
    // Imported back, this browser's record keeps its page.
    await importText(text);
    expect(recordOf(await notes.read(ACCOUNT), school)?.page).toBe('portal.school.example');

    const withPages = backupText(await collectBackup({ includeKey: false, includePages: true }));
    expect(withPages).toContain('portal.school.example');
  });

  it('nothing recorded: an empty set, which changes nothing on import', async () => {
    const backup = await collectBackup({ includeKey: false });
    expect(backup.settings.listNotes).toEqual({});
    await notes.recordAdded(ACCOUNT, [{ ...school, source: 'popup' }]);
    await importText(backupText(backup));
    expect((await notes.read(ACCOUNT)).entries).toHaveLength(1);
  });

  it('a record with a whole address as its page is refused, and nothing of it is written', async () => {
    const file = {
      format: 'dns-filter-companion-settings',
      version: 1,
      exportedAt: '2026-01-31T10:00:00.000Z',
      settings: {
        listNotes: {
          [ACCOUNT]: [{ ...school, source: 'popup', page: 'https://school.example/?token=1', at: 1 }],
        },
      },
    };
    const report = await importText(JSON.stringify(file));
    expect(report.refused.map((line) => line.label)).toEqual([
      'Where list entries came from, and their notes',
    ]);
    expect((await notes.read(ACCOUNT)).entries).toEqual([]);
  });

  it('notes of identities that are no account here never push out this browser’s own', async () => {
    await apiKeyItem.setValue('own-key');
    const own = accountIdFor('A', 'https://my.cleanbrowsing.org', 'own-key');
    await notes.recordAdded(own, [{ ...school, source: 'popup' }]);
    await notes.setNote(own, school, 'school portal');
    // The file's records are written after this browser's own.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const strangers = Array.from(
      { length: MAX_ACCOUNTS },
      (_, index) => testAccount('A', index.toString(16).padStart(16, '0')).id,
    );
    const file = {
      format: 'dns-filter-companion-settings',
      version: 2,
      exportedAt: '2026-01-31T10:00:00.000Z',
      settings: {
        listNotes: Object.fromEntries(
          strangers.map((id) => [id, [{ ...school, source: 'menu', note: `from ${id}`, at: 1 }]]),
        ),
      },
    };
    await importText(JSON.stringify(file));

    expect(recordOf(await notes.read(own), school)?.note).toBe('school portal');
    // Kept while there is room: all but one of the file's ten, the bound being ten in all.
    const kept = Object.keys(await notes.exportAll());
    expect(kept).toHaveLength(MAX_ACCOUNTS);
    expect(kept).toContain(own);
  });
});
