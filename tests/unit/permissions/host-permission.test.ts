/**
 * The README's promise: turning a feature off gives its host permission back. A custom service
 * origin left for another, and IP lookup services once dynamic IP is off, are removed; an origin
 * still needed by the other feature is kept.
 */
import { describe, expect, it } from 'vitest';
import {
  changeSettingsKeepingHostPermissions,
  type HostPermissionSettings,
  originsNeeded,
} from '@/lib/permissions/host-permission';

function settings(baseUrl: string, enabled: boolean, lookupUrls: string[] = ['https://ip.example/']) {
  return { connection: { baseUrl }, dynamicIp: { enabled, lookupUrls } } satisfies HostPermissionSettings;
}

/** A fake `browser.permissions` holding granted origins, and the settings as a variable. */
function world(initial: HostPermissionSettings, granted: string[]) {
  const held = new Set(granted);
  const removed: string[][] = [];
  let current = initial;
  const deps = {
    read: async () => [current],
    permissions: {
      remove: async ({ origins }: { origins: string[] }) => {
        removed.push(origins);
        for (const origin of origins) held.delete(origin);
        return true;
      },
    },
  };
  const change = (next: HostPermissionSettings) =>
    changeSettingsKeepingHostPermissions(deps, async () => {
      current = next;
    });
  return { held, removed, change };
}

describe('originsNeeded', () => {
  it('the default service and loopback need nothing; a custom origin and lookups while on do', () => {
    expect(originsNeeded([settings('https://my.cleanbrowsing.org', false)])).toEqual([]);
    expect(originsNeeded([settings('http://127.0.0.1:8787', false)])).toEqual([]);
    expect(originsNeeded([settings('https://dns.example', true)]).sort()).toEqual([
      'https://dns.example/*',
      'https://ip.example/*',
    ]);
  });
});

describe('host permissions are given back', () => {
  it('when the service origin changes away from a custom origin', async () => {
    const w = world(settings('https://old.example', false), ['https://old.example/*']);
    await w.change(settings('https://my.cleanbrowsing.org', false));
    expect(w.removed).toEqual([['https://old.example/*']]);
    expect(w.held.size).toBe(0);
  });

  it('when dynamic IP is turned off', async () => {
    const w = world(settings('https://my.cleanbrowsing.org', true), ['https://ip.example/*']);
    await w.change(settings('https://my.cleanbrowsing.org', false));
    expect(w.removed).toEqual([['https://ip.example/*']]);
  });

  it('when a lookup URL is replaced, only the one left', async () => {
    const w = world(
      settings('https://my.cleanbrowsing.org', true, ['https://a.example/', 'https://b.example/x']),
      ['https://a.example/*', 'https://b.example/*'],
    );
    await w.change(settings('https://my.cleanbrowsing.org', true, ['https://b.example/y']));
    expect(w.removed).toEqual([['https://a.example/*']]);
  });

  it('never one still needed by the other feature', async () => {
    // The service runs its own lookup URL: turning dynamic IP off keeps the service's access.
    const w = world(settings('https://dns.example', true, ['https://dns.example/ip']), [
      'https://dns.example/*',
    ]);
    await w.change(settings('https://dns.example', false, ['https://dns.example/ip']));
    expect(w.removed).toEqual([]);
    // And leaving the service keeps the lookup services' access while dynamic IP is on.
    const v = world(settings('https://ip.example', true), ['https://ip.example/*']);
    await v.change(settings('https://my.cleanbrowsing.org', true));
    expect(v.removed).toEqual([]);
  });

  it('not while another account of this browser still uses that origin', async () => {
    const parked = settings('https://shared.example', false);
    let active = settings('https://shared.example', true);
    const removed: string[][] = [];
    await changeSettingsKeepingHostPermissions(
      {
        read: async () => [active, parked],
        permissions: {
          remove: async ({ origins }) => {
            removed.push(origins);
            return true;
          },
        },
      },
      async () => {
        active = settings('https://my.cleanbrowsing.org', false);
      },
    );
    expect(removed).toEqual([['https://ip.example/*']]);
  });

  it('nothing is removed when nothing that held a permission changed', async () => {
    const w = world(settings('https://dns.example', true), ['https://dns.example/*', 'https://ip.example/*']);
    await w.change(settings('https://dns.example', true));
    expect(w.removed).toEqual([]);
  });

  it('a browser that refuses to give back does not fail the change', async () => {
    let current = settings('https://old.example', false);
    await expect(
      changeSettingsKeepingHostPermissions(
        {
          read: async () => [current],
          permissions: {
            remove: () => {
              throw new Error('required permission');
            },
          },
        },
        async () => {
          current = settings('https://my.cleanbrowsing.org', false);
          return 'saved';
        },
      ),
    ).resolves.toBe('saved');
  });
});
