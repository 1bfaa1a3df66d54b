/**
 * The right-click menu offers each saved profile group after the profiles (Form A), and a group's
 * item reads back as an action on that group (lib/menus/menu-items.ts).
 */
import { describe, expect, it } from 'vitest';
import { buildMenuItems, parseMenuItemId } from '@/lib/menus';

const groups = [{ id: 'group-id-kids', name: 'All children' }];

describe('saved groups in the right-click menu', () => {
  it('follow the profiles under each action, and read back as the group', () => {
    const items = buildMenuItems({
      enabled: true,
      form: 'A',
      profiles: ['default', 'kids1'],
      fallbackProfile: 'default',
      groups,
    });
    const whitelistSite = items.slice(0, 4).map((item) => [item.title, parseMenuItemId(item.id)]);
    expect(whitelistSite).toEqual([
      ['Whitelist this site', null],
      ['default', { list: 'whitelist', target: 'page', profile: 'default' }],
      ['kids1', { list: 'whitelist', target: 'page', profile: 'kids1' }],
      ['Group: All children', { list: 'whitelist', target: 'page', group: 'group-id-kids' }],
    ]);
    expect(new Set(items.map((item) => item.id)).size).toBe(items.length);
  });

  it('are not offered in Form B, which has no profiles', () => {
    const items = buildMenuItems({
      enabled: true,
      form: 'B',
      profiles: [],
      fallbackProfile: 'default',
      groups,
    });
    expect(items.some((item) => item.title.startsWith('Group:'))).toBe(false);
  });
});
