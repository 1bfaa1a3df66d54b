/**
 * A settings file must not send the stored key to an origin in the file: an import that changes
 * the service origin or the IP lookup URLs stores nothing until the user confirmed the old and new
 * values. The worker and the options page call the service as soon as the connection is stored
 * (a storage watcher), so "nothing stored" is "nothing sent": the watchers here stand for them.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { BACKUP_FORMAT } from '@/lib/backup/format';
import { applyBackup, type DestinationChange, destinationChanges } from '@/lib/backup/import';
import { parseBackup } from '@/lib/backup/parse';
import {
  apiKeyItem,
  connectionItem,
  DEFAULT_BASE_URL,
  dynamicIpSettingsItem,
  themeItem,
} from '@/lib/settings/storage';

const STORED_KEY = 'stored-key-0123456789';
const ATTACKER = { connection: { baseUrl: 'https://attacker.example', form: 'A' } };

const envelope = (settings: Record<string, unknown>) =>
  JSON.stringify({ format: BACKUP_FORMAT, version: 1, settings });

function parsed(text: string) {
  const result = parseBackup(text);
  if (!result.ok) throw new Error(result.message);
  return result;
}

/** Every storage write the worker's and the options page's watchers would see. */
function watchWrites() {
  const writes: string[] = [];
  const unwatch = [
    connectionItem.watch(() => writes.push('connection')),
    apiKeyItem.watch(() => writes.push('apiKey')),
    dynamicIpSettingsItem.watch(() => writes.push('dynamicIp')),
    themeItem.watch(() => writes.push('theme')),
  ];
  return {
    writes,
    stop: () => {
      for (const off of unwatch) off();
    },
  };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 20));

beforeEach(async () => {
  fakeBrowser.reset();
  await apiKeyItem.setValue(STORED_KEY);
});

describe('an import that moves the service origin', () => {
  it('the literal file of the report, without the backup envelope, is refused outright', () => {
    expect(parseBackup(JSON.stringify({ settings: ATTACKER })).ok).toBe(false);
  });

  it.each([
    ['without a key in the file', {}],
    ['with a key in the file', { apiKey: 'key-from-the-file-9999' }],
  ])('%s: nothing is stored while the question is open, nor after a No', async (_, extra) => {
    const watch = watchWrites();
    let answer: (yes: boolean) => void = () => {};
    const asked: DestinationChange[][] = [];
    const outcome = applyBackup(parsed(envelope({ ...ATTACKER, ...extra, theme: 'dark' })), {
      confirmDestinations: (changes) => {
        asked.push(changes);
        return new Promise((resolve) => {
          answer = resolve;
        });
      },
    });
    await flush();
    // The question shows the old and the new origin.
    expect(asked).toEqual([
      [
        expect.objectContaining({
          name: 'connection',
          before: DEFAULT_BASE_URL,
          after: 'https://attacker.example',
        }),
      ],
    ]);
    expect(watch.writes).toEqual([]);
    answer(false);
    expect(await outcome).toMatchObject({ cancelled: true });
    await flush();
    expect(watch.writes).toEqual([]);
    expect(await connectionItem.getValue()).toEqual({ baseUrl: DEFAULT_BASE_URL, form: 'A' });
    expect(await apiKeyItem.getValue()).toBe(STORED_KEY);
    expect(await themeItem.getValue()).toBe('system');
    watch.stop();
  });

  it('after a Yes, the file is applied', async () => {
    const outcome = await applyBackup(parsed(envelope(ATTACKER)), { confirmDestinations: async () => true });
    expect(outcome.cancelled).toBe(false);
    expect((await connectionItem.getValue()).baseUrl).toBe('https://attacker.example');
  });

  it('gives back the host permission of the custom origin it replaces', async () => {
    await connectionItem.setValue({ baseUrl: 'https://old-custom.example', form: 'A' });
    const removed: string[][] = [];
    await applyBackup(parsed(envelope({ connection: { baseUrl: DEFAULT_BASE_URL, form: 'B' } })), {
      confirmDestinations: async () => true,
      permissions: {
        remove: async ({ origins }) => {
          removed.push(origins);
          return true;
        },
      },
    });
    expect(removed).toEqual([['https://old-custom.example/*']]);
  });
});

describe('destinationChanges', () => {
  const current = {
    connection: { baseUrl: 'https://dns.example' },
    dynamicIp: { lookupUrls: ['https://ip.example/', 'https://ip2.example/'] },
  };

  it('no question for the same origin, another form, or lookup URLs already in use', () => {
    expect(
      destinationChanges(
        {
          connection: { baseUrl: 'https://dns.example', form: 'B' },
          dynamicIp: {
            enabled: true,
            intervalMinutes: 30,
            label: 'Home',
            profile: 'default',
            lookupUrls: ['https://ip2.example/'],
            removePrevious: true,
          },
        },
        current,
      ),
    ).toEqual([]);
  });

  it('a lookup URL not in use is a change, shown with the old and new lists', () => {
    const changes = destinationChanges(
      {
        dynamicIp: {
          enabled: false,
          intervalMinutes: 30,
          label: 'Home',
          profile: 'default',
          lookupUrls: ['https://ip.example/', 'https://liar.example/'],
          removePrevious: true,
        },
      },
      current,
    );
    expect(changes).toEqual([
      expect.objectContaining({
        name: 'dynamicIp',
        before: 'https://ip.example/, https://ip2.example/',
        after: 'https://ip.example/, https://liar.example/',
      }),
    ]);
  });

  it('an import that changes only the lookup URLs stores nothing before the Yes either', async () => {
    const watch = watchWrites();
    const outcome = await applyBackup(
      parsed(
        envelope({
          dynamicIp: {
            enabled: true,
            intervalMinutes: 30,
            label: 'Home',
            profile: 'default',
            lookupUrls: ['https://liar.example/'],
            removePrevious: true,
          },
        }),
      ),
      { confirmDestinations: async () => false },
    );
    await flush();
    expect(outcome.cancelled).toBe(true);
    expect(watch.writes).toEqual([]);
    watch.stop();
  });
});
