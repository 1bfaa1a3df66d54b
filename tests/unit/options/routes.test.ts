import { describe, expect, it } from 'vitest';
import { createSectionRouter, type RouterWindow } from '@/lib/options/router';
import {
  hashFor,
  homeSection,
  navigation,
  SECTIONS,
  sectionForHash,
  sectionsInView,
} from '@/lib/options/routes';

const withKey = { hasKey: true, otherAccountChanges: false };
const noKey = { hasKey: false, otherAccountChanges: false };

describe('the options routes table', () => {
  it('has a section for every name of the UI contract, each with its own stable address', () => {
    const ids = SECTIONS.map((section) => section.id);
    expect(new Set(ids).size).toBe(ids.length);
    // The addresses the popup and bookmarks use: renaming one breaks them.
    expect(ids).toEqual(
      expect.arrayContaining([
        'overview',
        'setup',
        'profiles',
        'categories',
        'whitelist',
        'blocklist',
        'tlds',
        'default-block',
        'networks',
        'dynamic-ip',
        'logs',
        'appearance',
        'menu',
        'diagnosis',
        'backup',
        'other-accounts',
      ]),
    );
    for (const id of ids) expect(id).toMatch(/^[a-z][a-z-]*$/);
  });

  it('opens a section named by the address, in any spelling a person may type', () => {
    expect(sectionForHash('#logs', withKey).id).toBe('logs');
    expect(sectionForHash('#/Logs', withKey).id).toBe('logs');
    expect(sectionForHash('#dynamic-ip', withKey).id).toBe('dynamic-ip');
    expect(hashFor({ id: 'logs' })).toBe('#logs');
  });

  it('opens the Overview with a key and the welcome (Setup) without one', () => {
    expect(homeSection(withKey).id).toBe('overview');
    expect(homeSection(noKey).id).toBe('setup');
    expect(sectionForHash('', withKey).id).toBe('overview');
    expect(sectionForHash('#no-such-section', withKey).id).toBe('overview');
  });

  it('shows no section that needs a key before one is saved', () => {
    expect(sectionForHash('#logs', noKey).id).toBe('setup');
    const listed = navigation(noKey).flatMap((group) => group.sections.map((section) => section.id));
    expect(listed).toEqual(['setup', 'accounts', 'appearance', 'menu', 'diagnosis', 'backup']);
  });

  it('lists changes waiting for another account only while there are some', () => {
    const listed = (context: typeof withKey) =>
      navigation(context).flatMap((group) => group.sections.map((section) => section.id));
    expect(listed(withKey)).not.toContain('other-accounts');
    expect(listed({ ...withKey, otherAccountChanges: true })).toContain('other-accounts');
    expect(sectionForHash('#other-accounts', withKey).id).toBe('overview');
  });

  it('groups the navigation under headings and shows sections of one view together', () => {
    const groups = navigation(withKey);
    expect(groups.map((group) => group.id)).toEqual([
      'start',
      'filtering',
      'account',
      'activity',
      'settings',
    ]);
    expect(groups[1]?.sections.map((section) => section.id)).toEqual([
      'categories',
      'whitelist',
      'blocklist',
      'tlds',
      'default-block',
      'schedules',
    ]);
    expect(sectionsInView('networks').map((section) => section.id)).toEqual(['networks', 'dynamic-ip']);
  });
});

/** A window whose address and history a test can read and move. */
function fakeWindow(hash = '') {
  const listeners = new Map<string, Set<() => void>>();
  const entries = [hash];
  let index = 0;
  const win: RouterWindow & { back(): void; entries: string[] } = {
    location: {
      get hash() {
        return entries[index] ?? '';
      },
    },
    history: {
      pushState: (_data, _unused, url) => {
        entries.splice(index + 1, Infinity, String(url));
        index = entries.length - 1;
      },
      replaceState: (_data, _unused, url) => {
        entries[index] = String(url);
      },
    },
    addEventListener: (type, listener) => {
      listeners.set(type, (listeners.get(type) ?? new Set()).add(listener));
    },
    removeEventListener: (type, listener) => {
      listeners.get(type)?.delete(listener);
    },
    back() {
      index = Math.max(0, index - 1);
      for (const listener of listeners.get('popstate') ?? []) listener();
    },
    entries,
  };
  return win;
}

describe('the section router', () => {
  it('corrects an address naming a section that cannot be shown', () => {
    const win = fakeWindow('#logs');
    const router = createSectionRouter(win);
    router.settle(router.current(noKey));
    expect(win.entries).toEqual(['#setup']);
  });

  it('makes a history entry per section chosen, and follows back', () => {
    const win = fakeWindow();
    const router = createSectionRouter(win);
    router.settle(router.current(withKey));
    // A plain options.html stays plain.
    expect(win.entries).toEqual(['']);
    let changes = 0;
    const stop = router.follow(() => changes++);
    router.go({ id: 'logs' });
    router.go({ id: 'logs' });
    expect(win.entries).toEqual(['', '#logs']);
    expect(router.current(withKey).id).toBe('logs');
    win.back();
    expect(changes).toBe(1);
    expect(router.current(withKey).id).toBe('overview');
    stop();
    win.back();
    expect(changes).toBe(1);
  });
});
