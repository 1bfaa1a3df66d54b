/**
 * The popup's first script asks for a fixed list of stored values (lib/popup/start-keys.ts). This
 * holds the list against what the popup really reads before its first view, in both forms: every
 * value it reads was asked for early (no storage round trip after the modules load), and nothing
 * of the fixed list goes unread (but Form B's profiles, which it has none of).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import type { ApiForm } from '@/lib/api/types';
import { createViewCache } from '@/lib/cache/view-cache';
import { notes } from '@/lib/notes';
import { createPopupController } from '@/lib/popup/controller';
import { laterNames, START_NAMES } from '@/lib/popup/start-keys';
import { accountOf, cacheAt, configure, MINUTE, T0 } from './popup-harness';

beforeEach(() => fakeBrowser.reset());

const TODAY = '2026-05-01';
const URL = 'https://ads.example.net/page';

/** Every name `storage.local.get` is asked for from now on. */
function recordReads(): string[] {
  const names: string[] = [];
  const get = fakeBrowser.storage.local.get.bind(fakeBrowser.storage.local);
  fakeBrowser.storage.local.get = ((keys: string | string[] | null) => {
    if (Array.isArray(keys)) names.push(...keys);
    else if (typeof keys === 'string') names.push(keys);
    return get(keys as string[]);
  }) as typeof fakeBrowser.storage.local.get;
  return names;
}

describe.each(['A', 'B'] as ApiForm[])('a warm opening in Form %s', (form) => {
  it('reads before its first view exactly the names the first script asks for', async () => {
    await configure(form);
    const account = accountOf(form);
    const cache = cacheAt(T0 - 2 * MINUTE);
    const scope = form === 'A' ? 'A:default' : 'B:account';
    await cache.saveLists(scope, account, { whitelist: [], blocklist: ['ads.example.net'] });
    await cache.saveProfiles(account, ['default']);
    await cache.saveBlockedToday(account, TODAY, new Map());
    await notes.recordAdded(account, [
      { scope, list: 'blocklist', domain: 'ads.example.net', source: 'popup' },
    ]);
    const stored = await fakeBrowser.storage.local.get(null);

    const reads = recordReads();
    let readBeforeFirstView: string[] = [];
    // The controller alone: the popup renders its parts only once the first view is set.
    const controller = createPopupController({
      readTab: async () => ({ id: 1, url: URL }),
      cache: createViewCache({ now: () => T0 }),
      loadRemote: () => Promise.reject(new Error('a warm opening calls no service')),
      submitChange: () => Promise.reject(new Error('no change')),
      onFirstView: () => {
        readBeforeFirstView = [...reads];
      },
      now: () => T0,
    });
    await controller.start();

    expect(controller.getState().phase).toBe('ready');
    const early = laterNames(stored, URL);
    // Every name read was asked for early, and every fixed name is read.
    expect(
      readBeforeFirstView.filter(
        (name) => !(START_NAMES as readonly string[]).includes(name) && !early.includes(name),
      ),
    ).toEqual([]);
    const fixedUnread = START_NAMES.filter((name) => !readBeforeFirstView.includes(name));
    // Form B has no profiles to choose from.
    expect(fixedUnread).toEqual(form === 'A' ? [] : ['profilesCache']);
    // Of the later names, the lists' head, the site's filled bucket and the notes are read.
    expect(early.filter((name) => readBeforeFirstView.includes(name))).toHaveLength(3);
  });
});
