/**
 * Saved profile groups (lib/profile-groups/groups.ts): saving, replacing and removing a group,
 * the profiles of a group the account no longer has, and the stored item's guard.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import {
  type ProfileGroup,
  profileGroupsItem,
  profilesOfGroup,
  removeGroup,
  saveGroup,
} from '@/lib/profile-groups/groups';
import { MAX_GROUPS } from '@/lib/profile-groups/limits';

beforeEach(() => fakeBrowser.reset());

let ids = 0;
const newId = () => `group-id-${++ids}`;

describe('saved profile groups', () => {
  it('saves a group, replaces one saved again under the same name, and removes one', () => {
    const first = saveGroup([], 'All children', ['kids1', 'kids2', 'kids1'], newId);
    if (!first.ok) throw new Error(first.message);
    expect(first.groups).toEqual([
      { id: expect.any(String), name: 'All children', profiles: ['kids1', 'kids2'] },
    ]);
    const again = saveGroup(first.groups, ' all children ', ['kids1', 'kids2', 'kids3'], newId);
    if (!again.ok) throw new Error(again.message);
    expect(again.groups).toHaveLength(1);
    expect(again.groups[0]).toMatchObject({ id: first.groups[0]?.id, profiles: ['kids1', 'kids2', 'kids3'] });
    expect(removeGroup(again.groups, first.groups[0]?.id ?? '')).toEqual([]);
  });

  it('refuses a group without a name, without profiles, or past the bound, saying why', () => {
    expect(saveGroup([], '  ', ['kids1'], newId)).toEqual({ ok: false, message: 'Give the group a name.' });
    expect(saveGroup([], 'Kids', [], newId)).toEqual({ ok: false, message: 'Tick at least one profile.' });
    const full: ProfileGroup[] = Array.from({ length: MAX_GROUPS }, (_, index) => ({
      id: `group-id-full-${index}`,
      name: `Group ${index}`,
      profiles: ['default'],
    }));
    expect(saveGroup(full, 'One more', ['default'], newId)).toMatchObject({ ok: false });
  });

  it('leaves out the profiles the account no longer has, and names them', () => {
    const group = { id: 'group-id-x', name: 'Kids', profiles: ['kids1', 'gone1', 'kids2'] };
    expect(profilesOfGroup(group, ['default', 'kids1', 'kids2'])).toEqual({
      present: ['kids1', 'kids2'],
      missing: ['gone1'],
    });
    expect(profilesOfGroup(group, null).present).toEqual(['kids1', 'gone1', 'kids2']);
  });

  it('stores only valid groups, and a damaged stored value reads as none', async () => {
    await profileGroupsItem.setValue([{ id: 'group-id-1', name: 'Kids', profiles: ['kids1'] }]);
    expect(await profileGroupsItem.getValue()).toHaveLength(1);
    await expect(profileGroupsItem.setValue([{ id: 'x', name: '', profiles: [] }])).rejects.toThrow();
    await fakeBrowser.storage.local.set({ profileGroups: [{ name: 3 }] });
    expect(await profileGroupsItem.getValue()).toEqual([]);
  });
});
