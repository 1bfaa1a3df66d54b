// @vitest-environment node
/**
 * Page diagnosis and temporary allow in the background worker, driven through fakeBrowser events
 * against the emulator: listeners of the optional permissions, per-tab records and badges, the
 * temporary-allow message and its end across a browser restart.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { type EmulatorHandle, startEmulator } from '@/emulator';
import background from '@/entrypoints/background';
import { readAccounts } from '@/lib/accounts/store';
import { TEMPORARY_ALLOW_ALARM } from '@/lib/diagnosis/temporary-allow';
import {
  apiKeyItem,
  connectionItem,
  diagnosisSettingsItem,
  dynamicIpSettingsItem,
  failedHostsOfTabItem,
  failedHostsTabsItem,
  registrationOutcomeItem,
  temporaryAllowsItem,
  unbreakSessionsItem,
} from '@/lib/settings/storage';

let emulator: EmulatorHandle;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, seed: 'demo' });
});
afterAll(() => emulator.close());

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

/** A change request from a page showing the active account: every one names it (lib/messaging/protocol.ts). */
const fromActiveAccount = async (message: object) => ({
  ...message,
  accountId: (await readAccounts()).activeId,
});

const OWN_PAGE = { id: 'test-extension-id', url: 'chrome-extension://test-extension-id/popup.html' };
const GRANT = { permissions: ['webRequest', 'webNavigation'], origins: ['<all_urls>'] };

let granted: boolean;
let permissions: { onAdded: FakeEvent; onRemoved: FakeEvent };
let webRequest: { onErrorOccurred: FakeEvent; onCompleted: FakeEvent };
let webNavigation: { onCommitted: FakeEvent; onErrorOccurred: FakeEvent };

/** What MV3 Chrome does: an optional permission's API exists only once it is granted. */
function setGranted(value: boolean) {
  granted = value;
  Object.assign(fakeBrowser, {
    webRequest: value ? webRequest : undefined,
    webNavigation: value ? webNavigation : undefined,
  });
}

async function until<T>(read: () => Promise<T> | T, ok: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function startWorker(grantedAtStart: boolean) {
  webRequest = { onErrorOccurred: fakeEvent(), onCompleted: fakeEvent() };
  webNavigation = { onCommitted: fakeEvent(), onErrorOccurred: fakeEvent() };
  permissions = { onAdded: fakeEvent(), onRemoved: fakeEvent() };
  Object.assign(fakeBrowser, {
    permissions: { ...permissions, contains: async () => granted },
    contextMenus: {
      removeAll: async () => {},
      create: (_item: unknown, done?: () => void) => done?.(),
      onClicked: fakeEvent(),
    },
    commands: { onCommand: fakeEvent() },
  });
  Object.assign(fakeBrowser.notifications, { create: async (id: string) => id });
  setGranted(grantedAtStart);
  background.main();
}

// fakeBrowser.reset() resets its own webNavigation: it must be in place by then.
const ORIGINAL_APIS = { webRequest: fakeBrowser.webRequest, webNavigation: fakeBrowser.webNavigation };
afterEach(() => {
  Object.assign(fakeBrowser, ORIGINAL_APIS);
});

beforeEach(async () => {
  fakeBrowser.reset();
  emulator.admin.reset();
  await apiKeyItem.setValue(emulator.key);
  await connectionItem.setValue({ baseUrl: emulator.url, form: 'A' });
});

const failedSubresource = (tabId: number, url: string) =>
  webRequest.onErrorOccurred.trigger({ tabId, url, type: 'script', error: 'net::ERR_NAME_NOT_RESOLVED' });
const badgeOf = (tabId: number) => fakeBrowser.action.getBadgeText({ tabId });

describe('listeners of the optional permissions', () => {
  it('are added at the start of the worker when the permissions are granted', () => {
    startWorker(true);
    expect(webRequest.onErrorOccurred.hasListeners()).toBe(true);
    expect(webRequest.onCompleted.hasListeners()).toBe(true);
    expect(webNavigation.onCommitted.hasListeners()).toBe(true);
    expect(webNavigation.onErrorOccurred.hasListeners()).toBe(true);
  });

  it('are added the moment the permissions are granted, once', async () => {
    startWorker(false);
    setGranted(true);
    expect(webRequest.onErrorOccurred.hasListeners()).toBe(false);
    await permissions.onAdded.trigger({ permissions: ['notifications'] });
    expect(webRequest.onErrorOccurred.hasListeners()).toBe(false);
    await permissions.onAdded.trigger(GRANT);
    await permissions.onAdded.trigger(GRANT);
    expect(webRequest.onErrorOccurred.hasListeners()).toBe(true);
    await diagnosisSettingsItem.setValue({ enabled: true });
    await failedSubresource(4, 'https://cdn.broken.example/a.js');
    await until(
      async () => (await failedHostsOfTabItem(4).getValue())?.hosts[0]?.count,
      (count) => count === 1,
    );
  });
});

describe('failed hosts and the badge', () => {
  beforeEach(async () => {
    startWorker(true);
    await diagnosisSettingsItem.setValue({ enabled: true });
  });

  it("counts a tab's failed hosts on that tab's badge, and a new page clears them", async () => {
    await webNavigation.onCommitted.trigger({ tabId: 4, frameId: 0, url: 'https://news.example/' });
    await failedSubresource(4, 'https://cdn.broken.example/a.js');
    await failedSubresource(4, 'https://ads.broken.example/b.js');
    await until(
      () => badgeOf(4),
      (text) => text === '2',
    );
    expect(await fakeBrowser.action.getTitle({ tabId: 4 })).toMatch(/2 hosts of this page failed to load/);
    expect(await fakeBrowser.action.getBadgeText({})).toBe('');

    await webNavigation.onCommitted.trigger({ tabId: 4, frameId: 0, url: 'https://news.example/next' });
    await until(
      () => badgeOf(4),
      (text) => text === '',
    );
  });

  it('the registration warning comes first, on every tab', async () => {
    await failedSubresource(4, 'https://cdn.broken.example/a.js');
    await until(
      () => badgeOf(4),
      (text) => text === '1',
    );
    await dynamicIpSettingsItem.setValue({ ...dynamicIpSettingsItem.fallback, enabled: true });
    await registrationOutcomeItem.setValue({
      at: 1,
      ok: false,
      reason: 'network',
      message: 'Not registered',
      consecutiveFailures: 2,
    });
    await until(
      () => badgeOf(4),
      (text) => text === '!',
    );
  });

  it('turning diagnosis off forgets the hosts and gives the tab the normal badge back', async () => {
    await failedSubresource(4, 'https://cdn.broken.example/a.js');
    await until(
      () => badgeOf(4),
      (text) => text === '1',
    );
    await diagnosisSettingsItem.setValue({ enabled: false });
    await until(
      () => badgeOf(4),
      (text) => text === '',
    );
    expect(await failedHostsTabsItem.getValue()).toEqual({ tabs: [] });
    expect(await failedHostsOfTabItem(4).getValue()).toBeNull();
    await failedSubresource(4, 'https://cdn.broken.example/a.js');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await failedHostsTabsItem.getValue()).toEqual({ tabs: [] });
    expect(await failedHostsOfTabItem(4).getValue()).toBeNull();
  });

  it('withdrawn permissions forget the hosts too', async () => {
    await failedSubresource(4, 'https://cdn.broken.example/a.js');
    await until(
      () => badgeOf(4),
      (text) => text === '1',
    );
    setGranted(false);
    await permissions.onRemoved.trigger(GRANT);
    await until(
      () => badgeOf(4),
      (text) => text === '',
    );
    expect(await failedHostsTabsItem.getValue()).toEqual({ tabs: [] });
    expect(await failedHostsOfTabItem(4).getValue()).toBeNull();
  });
});

describe('temporary allow', () => {
  const send = async (message: object) =>
    fakeBrowser.runtime.onMessage
      .trigger(await fromActiveAccount(message), OWN_PAGE)
      .then((answers) => answers.find((answer) => answer !== undefined));
  const whitelistOf = (profile: string) => emulator.admin.state().profiles[profile]?.whitelist ?? [];

  beforeEach(() => startWorker(false));

  it('whitelists through the outbox and sets the alarm for the end', async () => {
    const before = Date.now();
    const answer = (await send({
      type: 'temporary-allow',
      domain: 'broken-cdn.example',
      profile: 'default',
      durationMs: 60 * 60_000,
      before: 'none',
    })) as { state: string; expiresAt: number };
    expect(answer.state).toBe('delivered');
    expect(answer.expiresAt).toBeGreaterThanOrEqual(before + 60 * 60_000);
    expect(whitelistOf('default')).toContain('broken-cdn.example');
    expect((await fakeBrowser.alarms.get(TEMPORARY_ALLOW_ALARM))?.scheduledTime).toBe(answer.expiresAt);
  });

  it('ends that passed while the browser was closed are carried out when it starts', async () => {
    await send({
      type: 'temporary-allow',
      domain: 'broken-cdn.example',
      profile: 'default',
      durationMs: 60 * 60_000,
      before: 'none',
    });
    const [allow] = await temporaryAllowsItem.getValue();
    await temporaryAllowsItem.setValue([{ ...allow!, expiresAt: Date.now() - 1 }]);
    await fakeBrowser.runtime.onStartup.trigger();
    await until(
      () => whitelistOf('default'),
      (whitelist) => !whitelist.includes('broken-cdn.example'),
    );
    expect(await temporaryAllowsItem.getValue()).toEqual([]);
  });

  it('the alarm ends it', async () => {
    await send({
      type: 'temporary-allow',
      domain: 'broken-cdn.example',
      profile: 'default',
      durationMs: 1_000,
      before: 'none',
    });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await fakeBrowser.alarms.onAlarm.trigger({ name: TEMPORARY_ALLOW_ALARM, scheduledTime: Date.now() });
    await until(
      () => whitelistOf('default'),
      (whitelist) => !whitelist.includes('broken-cdn.example'),
    );
  });

  it('refuses a duration over 24 hours', async () => {
    expect(
      await send({
        type: 'temporary-allow',
        domain: 'broken-cdn.example',
        durationMs: 25 * 60 * 60_000,
        before: 'none',
      }),
    ).toBeUndefined();
  });
});

describe('unbreak this page', () => {
  const send = async (message: object) =>
    fakeBrowser.runtime.onMessage
      .trigger(await fromActiveAccount(message), OWN_PAGE)
      .then((answers) => answers.find((answer) => answer !== undefined));
  const whitelistOf = (profile: string) => emulator.admin.state().profiles[profile]?.whitelist ?? [];
  let notifications: string[];

  beforeEach(async () => {
    startWorker(true);
    await diagnosisSettingsItem.setValue({ enabled: true });
    notifications = [];
    Object.assign(fakeBrowser.notifications, {
      create: async (id: string, options: { title: string; message: string }) => {
        notifications.push(`${options.title}: ${options.message}`);
        return id;
      },
    });
  });

  it('allows the domains, notes what the site loads, and after the end keeps only that on one click', async () => {
    const answer = (await send({
      type: 'unbreak',
      pageHost: 'news.example',
      profile: 'default',
      durationMs: 1_000,
      domains: [
        { domain: 'broken-cdn.example', before: 'none' },
        { domain: 'never-used.example', before: 'none' },
      ],
    })) as { state: string; allowed: string[]; message: string };
    expect(answer).toMatchObject({
      state: 'delivered',
      allowed: ['broken-cdn.example', 'never-used.example'],
    });
    expect(answer.message).toMatch(/30 to 45 minutes/);
    expect(whitelistOf('default')).toEqual(
      expect.arrayContaining(['broken-cdn.example', 'never-used.example']),
    );

    // A later visit to the site loads from the allowed CDN; another site's load does not count.
    await webRequest.onCompleted.trigger({
      tabId: 4,
      url: 'https://img.broken-cdn.example/chart.png',
      type: 'image',
      statusCode: 200,
      initiator: 'https://www.news.example',
      timeStamp: Date.now(),
    });
    await webRequest.onCompleted.trigger({
      tabId: 5,
      url: 'https://never-used.example/x.js',
      type: 'script',
      statusCode: 200,
      initiator: 'https://elsewhere.example',
      timeStamp: Date.now(),
    });
    await until(
      async () => (await unbreakSessionsItem.getValue())[0]?.domains.map((entry) => entry.loads),
      (loads) => JSON.stringify(loads) === '[1,0]',
    );

    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await fakeBrowser.alarms.onAlarm.trigger({ name: TEMPORARY_ALLOW_ALARM, scheduledTime: Date.now() });
    await until(
      () => whitelistOf('default'),
      (whitelist) => !whitelist.includes('broken-cdn.example') && !whitelist.includes('never-used.example'),
    );
    await until(
      () => notifications,
      (shown) => shown.length > 0,
    );
    expect(notifications).toEqual([
      'Unbreak of news.example ended: This page used broken-cdn.example; never-used.example was never needed. Open the popup on news.example to keep what it needed.',
    ]);

    const [session] = await unbreakSessionsItem.getValue();
    expect(await send({ type: 'unbreak-review', id: session!.id, keep: true })).toMatchObject({
      state: 'delivered',
      message: 'Kept on the whitelist for good: broken-cdn.example. never-used.example lapses.',
    });
    expect(whitelistOf('default')).toContain('broken-cdn.example');
    expect(whitelistOf('default')).not.toContain('never-used.example');
    expect(await unbreakSessionsItem.getValue()).toEqual([]);
  });
});
