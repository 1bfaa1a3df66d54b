// @vitest-environment node
/**
 * The background worker's entry, driven through fakeBrowser events against the emulator (real
 * HTTP on loopback, real API client): listener registration, message validation, the menu, a
 * shortcut, alarms and the badge.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { type EmulatorHandle, startEmulator } from '@/emulator';
import background from '@/entrypoints/background';
import { readAccounts, saveActiveConnection } from '@/lib/accounts/store';
import type { MenuItem } from '@/lib/menus';
import { registrationAlarmOf } from '@/lib/network';
import { notes } from '@/lib/notes';
import { schedulesItem } from '@/lib/schedules/store';
import {
  accountsItem,
  apiKeyItem,
  chosenProfileItem,
  connectionItem,
  contextMenuSettingsItem,
  dynamicIpSettingsItem,
  outboxItem,
  profilesCacheItem,
  registrationOutcomeItem,
} from '@/lib/settings/storage';
import { accountIdFor } from '../account-ids';
import { ENGLISH_CLOCK } from '../schedules/fixtures';

let emulator: EmulatorHandle;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, seed: 'demo' });
});
afterAll(() => emulator.close());

const OWN_PAGE = { id: 'test-extension-id', url: 'chrome-extension://test-extension-id/popup.html' };
const menus = new Map<string, MenuItem>();
const notifications: { title: string; message: string }[] = [];

beforeEach(async () => {
  fakeBrowser.reset();
  emulator.admin.reset();
  menus.clear();
  notifications.length = 0;
  // fakeBrowser has no context menus, commands or options page: the smallest stand-ins.
  Object.assign(fakeBrowser, {
    contextMenus: {
      removeAll: async () => menus.clear(),
      create: (item: MenuItem, callback?: () => void) => {
        if (menus.has(item.id)) throw new Error(`duplicate id ${item.id}`);
        menus.set(item.id, item);
        callback?.();
      },
      onClicked: fakeEvent(),
    },
    commands: { onCommand: fakeEvent() },
  });
  fakeBrowser.runtime.openOptionsPage = vi.fn(async () => {});
  Object.assign(fakeBrowser.notifications, {
    create: async (id: string, options: { title: string; message: string }) => {
      notifications.push({ title: options.title, message: options.message });
      return id;
    },
  });
  await apiKeyItem.setValue(emulator.key);
  await connectionItem.setValue({ baseUrl: emulator.url, form: 'A' });
  background.main();
});

/**
 * Resolves once the worker has left storage and the service alone for `quietMs`. The jobs an event
 * starts (a setup lists the profiles, a change puts the administrator's account back) outlive the
 * assertion that waited for one of their effects; a later write of theirs would land in the next
 * test's fresh storage, or overwrite what a test wrote to the cache itself.
 */
async function untilQuiet(quietMs = 500, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  const state = async () =>
    `${emulator.admin.calls().length} ${JSON.stringify(await fakeBrowser.storage.local.get(null))}`;
  let last = await state();
  let since = Date.now();
  while (Date.now() - since < quietMs) {
    if (Date.now() - started > timeoutMs) throw new Error('the worker was still busy');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = await state();
    if (now !== last) {
      last = now;
      since = Date.now();
    }
  }
}
afterEach(() => untilQuiet());

function fakeEvent() {
  const listeners: ((...args: unknown[]) => unknown)[] = [];
  return {
    addListener: (listener: (...args: unknown[]) => unknown) => listeners.push(listener),
    hasListener: (listener: (...args: unknown[]) => unknown) => listeners.includes(listener),
    hasListeners: () => listeners.length > 0,
    trigger: (...args: unknown[]) => Promise.all(listeners.map((listener) => listener(...args))),
  };
}
type FakeEvent = ReturnType<typeof fakeEvent>;
const listening = (event: unknown) => (event as { hasListeners(): boolean }).hasListeners();
const installed = (reason: string) =>
  fakeBrowser.runtime.onInstalled.trigger({ reason } as Parameters<
    typeof fakeBrowser.runtime.onInstalled.trigger
  >[0]);
const contextMenusEvent = () =>
  (fakeBrowser as unknown as { contextMenus: { onClicked: FakeEvent } }).contextMenus.onClicked;
const commandsEvent = () =>
  (fakeBrowser as unknown as { commands: { onCommand: FakeEvent } }).commands.onCommand;

async function until<T>(read: () => Promise<T> | T, ok: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const whitelistOf = (profile: string) => emulator.admin.state().profiles[profile]?.whitelist ?? [];
const blocklistOf = (profile: string) => emulator.admin.state().profiles[profile]?.blocklist ?? [];
const send = (message: unknown, sender: object = OWN_PAGE) =>
  fakeBrowser.runtime.onMessage
    .trigger(message, sender)
    .then((answers) => answers.find((answer) => answer !== undefined));
/** A change request from a page showing the active account: every one names it (lib/messaging/protocol.ts). */
const fromActiveAccount = async (message: object) => ({
  ...message,
  accountId: (await readAccounts()).activeId,
});

describe('MV3 wiring', () => {
  it('registers every listener synchronously when the worker starts', () => {
    expect(listening(fakeBrowser.runtime.onInstalled)).toBe(true);
    expect(listening(fakeBrowser.runtime.onStartup)).toBe(true);
    expect(listening(fakeBrowser.runtime.onMessage)).toBe(true);
    expect(listening(fakeBrowser.alarms.onAlarm)).toBe(true);
    expect(listening(fakeBrowser.storage.onChanged)).toBe(true);
    expect(contextMenusEvent().hasListeners()).toBe(true);
    expect(commandsEvent().hasListeners()).toBe(true);
  });

  it('on install: opens setup, builds the menu with the profiles, and keeps alarms as set', async () => {
    await dynamicIpSettingsItem.setValue({
      ...dynamicIpSettingsItem.fallback,
      enabled: true,
      intervalMinutes: 30,
    });
    await installed('install');
    expect(fakeBrowser.runtime.openOptionsPage).toHaveBeenCalled();
    await until(
      () => menus.size,
      (size) => size > 4,
    );
    const profiles = Object.keys(emulator.admin.state().profiles);
    expect(
      [...menus.values()]
        .filter((item) => item.parentId?.endsWith('whitelist:page'))
        .map((item) => item.title),
    ).toEqual(profiles);
    // The single setup became the first account; its alarm is named by its stable id.
    const { active } = await accountsItem.getValue();
    expect((await fakeBrowser.alarms.get(registrationAlarmOf(active ?? '')))?.periodInMinutes).toBe(30);
  });

  it('the menu follows the setting and the profiles without duplicate ids', async () => {
    await installed('update');
    // Setting up lists the account's profiles in the background, more than once (each write of the
    // account asks again); the profiles written below must come after every listing, or one
    // overwrites them.
    await until(
      () => profilesCacheItem.getValue(),
      (cache) => cache?.profiles.includes('kids1') === true,
    );
    await untilQuiet();
    await contextMenuSettingsItem.setValue({ enabled: false });
    await until(
      () => menus.size,
      (size) => size === 0,
    );
    await contextMenuSettingsItem.setValue({ enabled: true });
    await profilesCacheItem.setValue({
      account: accountIdFor('A', emulator.url, emulator.key),
      profiles: ['default', 'work1'],
      at: 1,
    });
    await until(
      () => [...menus.values()].map((item) => item.title),
      (titles) => titles.includes('work1') && titles.length === 12,
    );
  });
});

describe('messages', () => {
  const change = {
    op: 'add',
    list: 'whitelist',
    domain: 'worker-test.example',
    profile: 'default',
    source: 'popup',
  };

  it.each([
    ['another extension', { id: 'other-extension', url: 'chrome-extension://other-extension/page.html' }],
    [
      'a web page (content script)',
      { id: 'test-extension-id', url: 'https://evil.example/', tab: { id: 1 } },
    ],
    ['no sender id', { url: 'chrome-extension://test-extension-id/popup.html' }],
  ])('ignores a message from %s', async (_name, sender) => {
    expect(await send(await fromActiveAccount({ type: 'submit-change', change }), sender)).toBeUndefined();
    expect(whitelistOf('default')).not.toContain('worker-test.example');
    expect(await outboxItem.getValue()).toEqual([]);
  });

  it.each([
    [{ type: 'submit-change' }],
    [{ type: 'submit-change', change: { ...change, op: 'replace' } }],
    [{ type: 'delete-everything' }],
    ['submit-change'],
  ])('ignores the malformed message %j', async (message) => {
    expect(await send(message)).toBeUndefined();
  });

  it('delivers a change from its own page and answers with the outcome', async () => {
    const outcome = await send(await fromActiveAccount({ type: 'submit-change', change }));
    expect(outcome).toMatchObject({ state: 'delivered' });
    expect(whitelistOf('default')).toContain('worker-test.example');
  });

  it('answers "failed" with the service reason when the service refuses', async () => {
    const outcome = await send(
      await fromActiveAccount({ type: 'submit-change', change: { ...change, profile: 'nosuchprofile' } }),
    );
    expect(outcome).toMatchObject({ state: 'failed' });
    expect((outcome as { message: string }).message).toMatch(/nosuchprofile/);
  });

  it('register-now registers the emulator’s public IP', async () => {
    emulator.admin.setPublicIp('198.51.100.77');
    await dynamicIpSettingsItem.setValue({
      ...dynamicIpSettingsItem.fallback,
      lookupUrls: [`${emulator.url}/ip`],
      label: 'Test',
    });
    const answer = await send({ type: 'register-now' });
    expect(answer).toMatchObject({
      ok: true,
      ip: '198.51.100.77',
      message: expect.stringMatching(/^Registered 198\.51\.100\.77/),
    });
    expect(emulator.admin.state().networks.map((network) => network.ip)).toContain('198.51.100.77');
  });

  it('answers the registrable domain of each host, for the popup, which does not load the list', async () => {
    const hosts = ['news.bbc.co.uk', 'alice.github.io', 'cdn.example.com.', 'localhost'];
    expect(await send({ type: 'registrable-domains', hosts })).toEqual({
      domains: ['bbc.co.uk', 'alice.github.io', 'example.com', 'localhost'],
    });
    expect(await send({ type: 'registrable-domains', hosts: [] })).toBeUndefined();
  });

  it('answers no registrable domain for a host that is itself a public suffix', async () => {
    const hosts = ['co.uk', 'cloudfront.net', 'blogspot.com', 'd111.cloudfront.net'];
    expect(await send({ type: 'registrable-domains', hosts })).toEqual({
      domains: [null, null, null, 'd111.cloudfront.net'],
    });
  });

  it('refuses to add a public suffix to a list unless the user typed it to confirm', async () => {
    const suffix = { ...change, domain: 'cloudfront.net' };
    const refused = await send(await fromActiveAccount({ type: 'submit-change', change: suffix }));
    expect(refused).toMatchObject({
      state: 'failed',
      message: expect.stringMatching(/^Not added: cloudfront\.net is a public suffix shared by many sites/),
    });
    expect(
      await send(
        await fromActiveAccount({ type: 'submit-change', change: { ...suffix, list: 'blocklist' } }),
      ),
    ).toMatchObject({
      state: 'failed',
    });
    expect(whitelistOf('default')).not.toContain('cloudfront.net');
    expect(blocklistOf('default')).not.toContain('cloudfront.net');
    expect(await outboxItem.getValue()).toEqual([]);

    expect(
      await send(
        await fromActiveAccount({ type: 'submit-change', change: suffix, publicSuffixConfirmed: true }),
      ),
    ).toMatchObject({
      state: 'delivered',
    });
    expect(whitelistOf('default')).toContain('cloudfront.net');
    // Taking one off a list needs no confirmation: it narrows what the list covers.
    expect(
      await send(await fromActiveAccount({ type: 'submit-change', change: { ...suffix, op: 'remove' } })),
    ).toMatchObject({
      state: 'delivered',
    });
  });

  it('never allows a public suffix for a while, alone or in an unbreak', async () => {
    expect(
      await send(
        await fromActiveAccount({
          type: 'temporary-allow',
          domain: 'co.uk',
          profile: 'default',
          durationMs: 3_600_000,
          before: 'none',
        }),
      ),
    ).toMatchObject({ state: 'failed', message: expect.stringMatching(/co\.uk/) });
    expect(
      await send(
        await fromActiveAccount({
          type: 'unbreak',
          pageHost: 'www.news.example',
          profile: 'default',
          durationMs: 3_600_000,
          domains: [
            { domain: 'cdn.example', before: 'none' },
            { domain: 'blogspot.com', before: 'none' },
          ],
        }),
      ),
    ).toMatchObject({ state: 'failed', allowed: [], message: expect.stringMatching(/blogspot\.com/) });
    expect(whitelistOf('default')).not.toContain('co.uk');
    expect(whitelistOf('default')).not.toContain('blogspot.com');
    expect(whitelistOf('default')).not.toContain('cdn.example');
  });
});

describe('accounts of the administrator’s policy', () => {
  it('are set up at install and put back when something else changes them', async () => {
    await fakeBrowser.storage.managed.set({
      accounts: [{ name: 'Office', baseUrl: emulator.url, form: 'A', key: emulator.key }],
    });
    await apiKeyItem.setValue('');
    await installed('install');
    await until(
      async () => (await readAccounts()).accounts.map((account) => account.name),
      (names) => names.includes('Office'),
      15_000,
    );
    // An imported file (lib/accounts/store.ts activeKeyItem) gives the managed account another key.
    await saveActiveConnection({ key: 'imported-key' });
    await until(
      () => apiKeyItem.getValue(),
      (key) => key === emulator.key,
      15_000,
    );
  });
});

describe('menu clicks and shortcuts', () => {
  it('closed by the administrator’s policy: the menu empties, and a menu click or a shortcut changes nothing', async () => {
    await installed('install');
    await until(
      () => menus.size,
      (size) => size > 4,
      15_000,
    );
    // The administrator's policy arrives (storage.onChanged for the managed area).
    await fakeBrowser.storage.managed.set({ menuChanges: false });
    await until(
      () => menus.size,
      (size) => size === 0,
      15_000,
    );
    await commandsEvent().trigger('blocklist-site', { id: 1, url: 'https://www.policy-test.example/' });
    await contextMenusEvent().trigger(
      { menuItemId: 'dnsfc:blocklist:page:default', pageUrl: 'https://www.policy-test.example/' },
      { id: 1, url: 'https://www.policy-test.example/' },
    );
    await until(
      () => notifications.length,
      (count) => count >= 2,
      15_000,
    );
    expect(notifications[0]).toEqual({
      title: 'Not done',
      message: 'Your organization does not allow changes from the right-click menu or the shortcuts.',
    });
    expect(blocklistOf('default')).not.toContain('policy-test.example');
    expect(await outboxItem.getValue()).toEqual([]);
  });

  it('"Blocklist this site" for a profile adds the registrable domain and notifies', async () => {
    await contextMenusEvent().trigger(
      { menuItemId: 'dnsfc:blocklist:page:default', pageUrl: 'https://news.menu-test.co.uk/story' },
      { id: 3, url: 'https://news.menu-test.co.uk/story' },
    );
    await until(
      () => notifications.length,
      (count) => count > 0,
    );
    expect(blocklistOf('default')).toContain('menu-test.co.uk');
    expect(notifications).toEqual([
      { title: 'Done', message: expect.stringMatching(/menu-test\.co\.uk was added to the blocklist/) },
    ]);
  });

  it('"Whitelist link\'s domain" acts on the link, not the page', async () => {
    await contextMenusEvent().trigger({
      menuItemId: 'dnsfc:whitelist:link:default',
      pageUrl: 'https://page.example/',
      linkUrl: 'https://cdn.link-test.example/file',
    });
    await until(
      () => notifications.length,
      (count) => count > 0,
    );
    expect(whitelistOf('default')).toContain('link-test.example');
    expect(whitelistOf('default')).not.toContain('page.example');
  });

  it('the menu and the shortcut record where the entry came from: the surface and the page’s host (lib/notes)', async () => {
    await contextMenusEvent().trigger({
      menuItemId: 'dnsfc:whitelist:link:default',
      pageUrl: 'https://news.page.example/story?id=7',
      linkUrl: 'https://cdn.notes-link.example/file',
    });
    await commandsEvent().trigger('blocklist-site', { id: 1, url: 'https://www.notes-key.example/a?b=c' });
    const account = accountIdFor('A', emulator.url, emulator.key);
    const entries = await until(
      async () => (await notes.read(account)).entries,
      (found) => found.length === 2,
    );
    expect(entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ domain: 'notes-link.example', source: 'menu', page: 'news.page.example' }),
        expect.objectContaining({
          domain: 'notes-key.example',
          source: 'shortcut',
          page: 'www.notes-key.example',
        }),
      ]),
    );
    // Both outcomes are notified before the next test starts counting its own.
    await until(
      () => notifications.length,
      (count) => count === 2,
    );
  });

  it('a change the storage cannot keep is reported, and nothing is sent', async () => {
    const area = fakeBrowser.storage.local;
    const write = area.set.bind(area);
    // Chrome's answer once the extension's 10 MB are used up, for the outbox's write.
    vi.spyOn(area, 'set').mockImplementation(async (items: Record<string, unknown>) => {
      if ('outbox' in items) throw new Error('QUOTA_BYTES quota exceeded');
      await write(items);
    });
    await contextMenusEvent().trigger({
      menuItemId: 'dnsfc:blocklist:page:default',
      pageUrl: 'https://quota-test.example/',
    });
    await until(
      () => notifications.length,
      (count) => count > 0,
    );
    expect(notifications).toEqual([
      {
        title: 'Not done',
        message: expect.stringMatching(/^Could not add quota-test\.example.*storage.*is full/),
      },
    ]);
    expect(blocklistOf('default')).not.toContain('quota-test.example');
  });

  it('a refusal is reported with the service reason', async () => {
    await contextMenusEvent().trigger({
      menuItemId: 'dnsfc:whitelist:page:nosuchprofile',
      pageUrl: 'https://a.example/',
    });
    await until(
      () => notifications.length,
      (count) => count > 0,
    );
    expect(notifications[0]).toMatchObject({
      title: 'Not done',
      message: expect.stringMatching(/nosuchprofile/),
    });
  });

  it('the shortcut acts on the current tab for the last chosen profile', async () => {
    const [profile] = Object.keys(emulator.admin.state().profiles).filter((name) => name !== 'default');
    await chosenProfileItem.setValue(profile!);
    await commandsEvent().trigger('whitelist-site', { id: 1, url: 'https://www.shortcut-test.example/a' });
    await until(
      () => notifications.length,
      (count) => count > 0,
    );
    expect(whitelistOf(profile!)).toContain('shortcut-test.example');
    expect(whitelistOf('default')).not.toContain('shortcut-test.example');
  });

  it.each([
    ['the page', { menuItemId: 'dnsfc:whitelist:page:default', pageUrl: 'https://co.uk/' }, 'co.uk'],
    [
      "a link's domain",
      {
        menuItemId: 'dnsfc:whitelist:link:default',
        pageUrl: 'https://page.example/',
        linkUrl: 'https://cloudfront.net/file',
      },
      'cloudfront.net',
    ],
  ])('"Whitelist" on %s that is a public suffix adds nothing, and says why', async (_what, info, suffix) => {
    await contextMenusEvent().trigger(info);
    await until(
      () => notifications.length,
      (count) => count > 0,
    );
    expect(notifications).toEqual([
      {
        title: 'Not done',
        message: expect.stringMatching(
          new RegExp(`^Not added: ${suffix.replace('.', '\\.')} is a public suffix`),
        ),
      },
    ]);
    expect(whitelistOf('default')).not.toContain(suffix);
    expect(await outboxItem.getValue()).toEqual([]);
  });

  /** "Games later" owns `domain` for `profile` from an hour from now, for an hour (lead 0). */
  async function scheduleLater(domain: string, profile: string) {
    const hhmm = (at: number) => {
      const date = new Date(at);
      return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
    };
    const accountId = (await readAccounts()).activeId;
    await schedulesItem.setValue({
      [accountId]: {
        leadMinutes: 0,
        rules: [
          {
            id: 'games',
            name: 'Games later',
            profile,
            days: [1, 2, 3, 4, 5, 6, 7],
            windows: [{ start: hhmm(Date.now() + 60 * 60_000), end: hhmm(Date.now() + 120 * 60_000) }],
            owns: [{ kind: 'domain', domain, inside: 'blocklist', outside: 'none' }],
          },
        ],
        overrides: [],
      },
    });
    return accountId;
  }

  it('a domain a schedule owns: the change is kept until the schedule’s next edge, and the notification names it', async () => {
    const accountId = await scheduleLater('owned-test.example', 'default');
    await contextMenusEvent().trigger(
      { menuItemId: 'dnsfc:whitelist:page:default', pageUrl: 'https://www.owned-test.example/' },
      { id: 3, url: 'https://www.owned-test.example/' },
    );
    await until(
      () => notifications.length,
      (count) => count > 0,
    );
    expect(whitelistOf('default')).toContain('owned-test.example');
    expect(notifications).toEqual([
      {
        title: 'Done',
        message: expect.stringMatching(
          new RegExp(
            `owned-test\\.example was added to the whitelist.* “Games later” sets this domain at set times: your change is kept until (\\S+\\s)?${ENGLISH_CLOCK.source}, and “Games later” resumes then\\.$`,
          ),
        ),
      },
    ]);
    const [override] = (await schedulesItem.getValue())[accountId]?.overrides ?? [];
    expect(override).toMatchObject({ rule: 'games', kind: 'release' });
    // Until the window's start, an hour from now at the latest.
    expect(override!.until).toBeGreaterThan(Date.now() + 58 * 60_000);
    expect(override!.until).toBeLessThanOrEqual(Date.now() + 60 * 60_000);
  });

  it('a refused change to a domain a schedule owns keeps nothing', async () => {
    const accountId = await scheduleLater('owned-test.example', 'nosuchprofile');
    await contextMenusEvent().trigger({
      menuItemId: 'dnsfc:whitelist:page:nosuchprofile',
      pageUrl: 'https://owned-test.example/',
    });
    await until(
      () => notifications.length,
      (count) => count > 0,
    );
    expect(notifications[0]).toMatchObject({ title: 'Not done' });
    expect(notifications[0]?.message).not.toMatch(/Games later/);
    expect((await schedulesItem.getValue())[accountId]?.overrides).toEqual([]);
  });

  it('a page without a domain is reported, and nothing is sent', async () => {
    await commandsEvent().trigger('blocklist-site', { id: 1, url: 'chrome://settings/' });
    await until(
      () => notifications.length,
      (count) => count > 0,
    );
    expect(notifications[0]?.message).toMatch(/no domain the filter can act on/);
    expect(await outboxItem.getValue()).toEqual([]);
  });
});

describe('badge', () => {
  it('warns while registration has been failing, and clears when it works again', async () => {
    await dynamicIpSettingsItem.setValue({ ...dynamicIpSettingsItem.fallback, enabled: true });
    await registrationOutcomeItem.setValue({
      at: 1,
      ok: false,
      reason: 'network',
      message: 'Not registered: the service could not be reached.',
      consecutiveFailures: 2,
    });
    await until(
      () => fakeBrowser.action.getBadgeText({}),
      (text) => text === '!',
    );
    expect(await fakeBrowser.action.getTitle({})).toMatch(/registration is failing/);
    await registrationOutcomeItem.setValue({
      at: 2,
      ok: true,
      ip: '1.2.3.4',
      message: 'Registered',
      consecutiveFailures: 0,
    });
    await until(
      () => fakeBrowser.action.getBadgeText({}),
      (text) => text === '',
    );
  });

  it('is restored from storage when the browser starts', async () => {
    await dynamicIpSettingsItem.setValue({ ...dynamicIpSettingsItem.fallback, enabled: true });
    await registrationOutcomeItem.setValue({
      at: 1,
      ok: false,
      reason: 'service',
      message: 'x',
      consecutiveFailures: 1,
    });
    await until(
      () => fakeBrowser.action.getBadgeText({}),
      (text) => text === '!',
    );
    // The browser starts with a blank badge; nothing in storage changes.
    await fakeBrowser.action.setBadgeText({ text: '' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await fakeBrowser.action.getBadgeText({})).toBe('');
    await fakeBrowser.runtime.onStartup.trigger();
    await until(
      () => fakeBrowser.action.getBadgeText({}),
      (text) => text === '!',
    );
  });
});
