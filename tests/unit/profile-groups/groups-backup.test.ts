/**
 * Saved profile groups go into the settings backup and come back from it, merged by name with
 * the groups of this browser (lib/backup, lib/profile-groups/groups.ts `mergeGroups`).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { backupText, collectBackup } from '@/lib/backup/export';
import { applyBackup } from '@/lib/backup/import';
import { parseBackup } from '@/lib/backup/parse';
import { profileGroupsItem } from '@/lib/profile-groups/groups';

beforeEach(() => fakeBrowser.reset());

describe('saved profile groups in the backup', () => {
  it('are exported and, imported elsewhere, merged by name with the groups there', async () => {
    await profileGroupsItem.setValue([
      { id: 'group-id-kids', name: 'All children', profiles: ['kids1', 'kids2'] },
    ]);
    const text = backupText(await collectBackup({ includeKey: false }));
    expect(JSON.parse(text).settings.profileGroups).toEqual([
      { id: 'group-id-kids', name: 'All children', profiles: ['kids1', 'kids2'] },
    ]);

    fakeBrowser.reset();
    await profileGroupsItem.setValue([
      { id: 'group-id-old1', name: 'all children', profiles: ['kids1'] },
      { id: 'group-id-work', name: 'Work', profiles: ['office'] },
    ]);
    const parsed = parseBackup(text);
    if (!parsed.ok) throw new Error(parsed.message);
    await applyBackup(parsed, { confirmDestinations: async () => true });
    expect((await profileGroupsItem.getValue()).map(({ name, profiles }) => [name, profiles])).toEqual([
      ['All children', ['kids1', 'kids2']],
      ['Work', ['office']],
    ]);
  });
});
