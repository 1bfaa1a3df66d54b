import { describe, expect, it } from 'vitest';
import {
  buildMenuItems,
  type ContextMenusApi,
  domainForUrl,
  type MenuItem,
  parseMenuItemId,
  rebuildMenus,
} from '@/lib/menus';

const shape = (items: MenuItem[]) =>
  items.map((item) => `${item.parentId ? '  ' : ''}${item.title} [${item.contexts.join()}]`);

describe('buildMenuItems', () => {
  it.each([
    {
      name: 'Form B: four plain items',
      input: { enabled: true, form: 'B' as const, profiles: ['default', 'kids'], fallbackProfile: 'default' },
      expected: [
        'Whitelist this site [page]',
        'Blocklist this site [page]',
        "Whitelist link's domain [link]",
        "Blocklist link's domain [link]",
      ],
    },
    {
      name: 'Form A with profiles: a submenu per action, one item per profile',
      input: { enabled: true, form: 'A' as const, profiles: ['default', 'kids'], fallbackProfile: 'default' },
      expected: [
        'Whitelist this site [page]',
        '  default [page]',
        '  kids [page]',
        'Blocklist this site [page]',
        '  default [page]',
        '  kids [page]',
        "Whitelist link's domain [link]",
        '  default [link]',
        '  kids [link]',
        "Blocklist link's domain [link]",
        '  default [link]',
        '  kids [link]',
      ],
    },
    {
      name: 'Form A, profiles not known yet: plain items acting on the last chosen profile',
      input: { enabled: true, form: 'A' as const, profiles: [], fallbackProfile: 'kids' },
      expected: [
        'Whitelist this site [page]',
        'Blocklist this site [page]',
        "Whitelist link's domain [link]",
        "Blocklist link's domain [link]",
      ],
    },
    {
      name: 'several accounts: the titles name the active one, the profiles stay as they are',
      input: {
        enabled: true,
        form: 'A' as const,
        profiles: ['kids'],
        fallbackProfile: 'default',
        accountName: 'Parents',
      },
      expected: [
        'Parents: Whitelist this site [page]',
        '  kids [page]',
        'Parents: Blocklist this site [page]',
        '  kids [page]',
        "Parents: Whitelist link's domain [link]",
        '  kids [link]',
        "Parents: Blocklist link's domain [link]",
        '  kids [link]',
      ],
    },
    {
      name: 'turned off: no menu',
      input: { enabled: false, form: 'A' as const, profiles: ['default'], fallbackProfile: 'default' },
      expected: [],
    },
  ])('$name', ({ input, expected }) => {
    expect(shape(buildMenuItems(input))).toEqual(expected);
  });

  it('gives every item a distinct id, even with a repeated profile', () => {
    const items = buildMenuItems({
      enabled: true,
      form: 'A',
      profiles: ['default', 'kids', 'kids'],
      fallbackProfile: 'x',
    });
    expect(new Set(items.map((item) => item.id)).size).toBe(items.length);
  });

  it('each clickable item reads back as the action it shows; parents do nothing', () => {
    const items = buildMenuItems({
      enabled: true,
      form: 'A',
      profiles: ['default', 'a:b'],
      fallbackProfile: 'x',
    });
    const actions = items.map((item) => [item.title, parseMenuItemId(item.id)]);
    expect(actions.slice(0, 3)).toEqual([
      ['Whitelist this site', null],
      ['default', { list: 'whitelist', target: 'page', profile: 'default' }],
      ['a:b', { list: 'whitelist', target: 'page', profile: 'a:b' }],
    ]);
    const fallback = buildMenuItems({ enabled: true, form: 'A', profiles: [], fallbackProfile: 'kids' });
    expect(parseMenuItemId(fallback[3]!.id)).toEqual({ list: 'blocklist', target: 'link', profile: 'kids' });
    const formB = buildMenuItems({ enabled: true, form: 'B', profiles: [], fallbackProfile: 'kids' });
    expect(parseMenuItemId(formB[0]!.id)).toEqual({ list: 'whitelist', target: 'page' });
  });

  it.each([['other-extension-item'], [42], ['dnsfc:greylist:page']])('ignores the foreign id %j', (id) => {
    expect(parseMenuItemId(id)).toBeNull();
  });
});

describe('domainForUrl', () => {
  it.each([
    ['https://news.bbc.co.uk/world', 'bbc.co.uk'],
    ['https://www.example.com/', 'example.com'],
    ['https://alice.github.io/page', 'alice.github.io'],
    ['chrome://settings/', null],
    ['http://192.168.1.1/', null],
    ['file:///home/me/a.html', null],
    [undefined, null],
  ])('%s → %s', (url, expected) => {
    expect(domainForUrl(url)).toBe(expected);
  });
});

describe('rebuildMenus', () => {
  function fakeMenus() {
    const created = new Map<string, MenuItem>();
    const errors: string[] = [];
    const api: ContextMenusApi = {
      removeAll: async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        created.clear();
      },
      create: (item, callback) => {
        if (created.has(item.id)) errors.push(`duplicate id ${item.id}`);
        created.set(item.id, item);
        setTimeout(() => callback?.(), 0);
      },
    };
    return { api, created, errors };
  }

  const menuOf = (form: 'A' | 'B', profiles: string[]) =>
    buildMenuItems({ enabled: true, form, profiles, fallbackProfile: 'x' });

  it('overlapping rebuilds never create an id twice and leave the latest menu', async () => {
    const { api, created, errors } = fakeMenus();
    const formA = menuOf('A', ['default', 'kids']);
    const formB = menuOf('B', []);
    const items = (menu: MenuItem[]) => async () => menu;
    await Promise.all([
      rebuildMenus(api, items(formA)),
      rebuildMenus(api, items(formA)),
      rebuildMenus(api, items(formB)),
    ]);
    expect(errors).toEqual([]);
    expect([...created.values()].map((item) => item.title)).toEqual(formB.map((item) => item.title));
  });

  it('each rebuild reads its menu when its turn comes, so the last one builds from the newest input', async () => {
    const { api, created } = fakeMenus();
    const withProfiles = menuOf('A', ['default', 'kids']);
    let input = menuOf('A', []);
    const first = rebuildMenus(api, async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return input;
    });
    // Asked for while the first one reads; the profiles arrive before its turn.
    const second = rebuildMenus(api, async () => input);
    input = withProfiles;
    await Promise.all([first, second]);
    expect([...created.values()].map((item) => item.title)).toEqual(withProfiles.map((item) => item.title));
  });
});
