/**
 * The background worker in Chromium against the emulator: dynamic IP registration from the
 * options page, its alarm, and reliable delivery of one-click changes when the worker is stopped
 * mid-request or the service is down.
 */
import type { Page, WebWorker } from 'puppeteer-core';
import { type EmulatorHandle, startEmulator } from '../../emulator/index.ts';
import { activeAccountId } from './harness/extension-storage.ts';
import {
  byRole,
  type ChromiumSession,
  configureExtension,
  describe,
  expect,
  openSection,
  pressAndWaitForOutcome,
  test,
} from './harness/index.ts';

const MORE_URLS = 'More IP lookup URLs, tried in order (one per line)';

/** The extension API inside the extension's own pages and worker. */
type ExtensionGlobal = {
  chrome: {
    runtime: { sendMessage(message: unknown): Promise<unknown> };
    storage: { local: { get(key: string): Promise<Record<string, unknown>> } };
    alarms: { get(name: string): Promise<{ periodInMinutes?: number; scheduledTime: number } | undefined> };
  };
};

/** Waits until the worker's own calls (profiles for the menu after Save) are over. */
async function untilQuiet(emulator: EmulatorHandle, quietMs = 800): Promise<void> {
  let count = -1;
  for (;;) {
    const now = emulator.admin.calls().length;
    if (now === count) return;
    count = now;
    await new Promise((resolve) => setTimeout(resolve, quietMs));
  }
}

async function setUp(chromium: ChromiumSession, emulator: EmulatorHandle): Promise<Page> {
  const options = await chromium.openOptions();
  expect(await configureExtension(options, { baseUrl: emulator.url, key: emulator.key, form: 'A' })).toMatch(
    /^Saved/,
  );
  await untilQuiet(emulator);
  return options;
}

/** Points the Dynamic IP section at the emulator's IP lookup stand-ins only. */
async function fillDynamicIp(options: Page, emulator: EmulatorHandle, label: string): Promise<void> {
  await openSection(options, 'Dynamic IP');
  await byRole(options, 'textbox', 'IP lookup URL').fill(`${emulator.url}/ip`);
  // Replaces the default second URL (a public service, which would need a permission prompt).
  await byRole(options, 'textbox', MORE_URLS).fill(`${emulator.url}/ip.json`);
  await byRole(options, 'textbox', 'Network label').fill(label);
}

const registered = (emulator: EmulatorHandle) =>
  emulator.admin
    .state()
    .networks.map((network) => `${network.ip} ${network.profile}${network.label ? ` ${network.label}` : ''}`);

/** Sends a one-click change from an extension page, as the popup does, without waiting for the answer. */
async function submitFrom(page: Page, domain: string): Promise<void> {
  const accountId = await activeAccountId(page);
  return page.evaluate(
    (domain, accountId) => {
      const { chrome } = globalThis as unknown as ExtensionGlobal;
      void chrome.runtime
        .sendMessage({
          type: 'submit-change',
          change: { op: 'add', list: 'whitelist', domain, profile: 'default', source: 'popup' },
          accountId,
        })
        // The answer is lost when the worker is stopped; the outbox keeps the change.
        .catch(() => {});
    },
    domain,
    accountId,
  );
}

const outboxOf = (page: Page) =>
  page.evaluate(async () => {
    const { chrome } = globalThis as unknown as ExtensionGlobal;
    const stored = (await chrome.storage.local.get('outbox')).outbox;
    return Array.isArray(stored)
      ? stored.map((entry: { change: { domain: string } }) => entry.change.domain)
      : [];
  });

describe('Dynamic IP registration (Chromium)', () => {
  test('Register now registers the public IPv4 with the label and shows it', async ({
    chromium,
    emulator,
  }) => {
    const options = await setUp(chromium, emulator);
    await fillDynamicIp(options, emulator, 'E2E laptop');

    const outcome = await pressAndWaitForOutcome(options, 'Register now');

    expect(outcome).toMatch(/^Registered 203\.0\.113\.7\b/);
    expect(registered(emulator)).toContain('203.0.113.7 default E2E laptop');
    expect(emulator.admin.lookups()).toBeGreaterThan(0);
  });

  test('after an address change, the new address is added and the old one removed', async ({
    chromium,
    emulator,
  }) => {
    const options = await setUp(chromium, emulator);
    emulator.admin.setPublicIp('203.0.113.101');
    await fillDynamicIp(options, emulator, 'E2E laptop');
    expect(await pressAndWaitForOutcome(options, 'Register now')).toMatch(/^Registered 203\.0\.113\.101\b/);

    emulator.admin.setPublicIp('203.0.113.102');
    const outcome = await pressAndWaitForOutcome(options, 'Register now');

    expect(outcome).toMatch(/^Registered 203\.0\.113\.102\b.*removed the previous address 203\.0\.113\.101/);
    const networks = registered(emulator);
    expect(networks).toContain('203.0.113.102 default E2E laptop');
    expect(networks.some((entry) => entry.startsWith('203.0.113.101 '))).toBe(false);
    // Addresses this browser never registered stay.
    expect(networks).toContain('203.0.113.50 default Home Network');
    const calls = emulator.admin.calls().map((call) => call.action);
    expect(calls.lastIndexOf('network/delete')).toBeGreaterThan(calls.lastIndexOf('network/add'));
  });

  test('an IPv6 answer registers nothing and says why', async ({ chromium, emulator }) => {
    const options = await setUp(chromium, emulator);
    emulator.admin.setPublicIp('2001:db8::5');
    await fillDynamicIp(options, emulator, 'E2E laptop');
    const before = registered(emulator);

    const outcome = await pressAndWaitForOutcome(options, 'Register now');

    expect(outcome).toMatch(/^Not registered: .*IPv6/);
    expect(registered(emulator)).toEqual(before);
  });

  test('a private address from the lookup registers nothing, deletes nothing and says why', async ({
    chromium,
    emulator,
  }) => {
    const options = await setUp(chromium, emulator);
    emulator.admin.setPublicIp('203.0.113.101');
    await fillDynamicIp(options, emulator, 'E2E laptop');
    expect(await pressAndWaitForOutcome(options, 'Register now')).toMatch(/^Registered 203\.0\.113\.101\b/);
    const before = registered(emulator);
    const callsBefore = emulator.admin.calls().length;

    // A captive portal or a VPN answering with its own side of the network.
    emulator.admin.setPublicIp('192.168.1.20');
    const outcome = await pressAndWaitForOutcome(options, 'Register now');

    expect(outcome).toMatch(/^Not registered: .*192\.168\.1\.20.*reserved range 192\.168\.0\.0\/16/);
    expect(registered(emulator)).toEqual(before);
    expect(
      emulator.admin
        .calls()
        .slice(callsBefore)
        .map((call) => call.action),
    ).not.toContain('network/delete');
  });

  test('turning it on creates the alarm with the configured period', async ({ chromium, emulator }) => {
    const options = await setUp(chromium, emulator);
    await fillDynamicIp(options, emulator, 'E2E laptop');
    await byRole(options, 'checkbox', 'Keep this network registered automatically').click();
    await byRole(options, 'spinbutton', 'Check every (minutes)').fill('30');

    expect(await pressAndWaitForOutcome(options, 'Save dynamic IP settings')).toMatch(
      /^Saved\. Registered 203\.0\.113\.7/,
    );

    const worker = await chromium.worker();
    // Each account has its own alarm, named by its stable id (lib/network `registrationAlarmOf`).
    const alarm = await worker.evaluate(async () => {
      const { chrome } = globalThis as unknown as ExtensionGlobal;
      const { accounts } = await chrome.storage.local.get('accounts');
      return chrome.alarms.get(`dynamic-ip:${(accounts as { active: string }).active}`);
    });
    expect(alarm?.periodInMinutes).toBe(30);
    expect(alarm!.scheduledTime).toBeGreaterThan(Date.now() + 25 * 60_000);
  });
});

describe('Reliable delivery of one-click changes (Chromium)', () => {
  test('a worker stopped mid-delivery still delivers the change after it restarts', async ({
    chromium,
    emulator,
  }) => {
    const options = await setUp(chromium, emulator);
    const worker: WebWorker = await chromium.worker();
    // The first call of the change (removing it from the blocklist) hangs long enough to stop the worker.
    emulator.admin.injectFault({ kind: 'slow', delayMs: 8000 });
    await submitFrom(options, 'restart-test.example');
    await expect
      .poll(() => emulator.admin.calls().some((call) => call.params.domain_name === 'restart-test.example'))
      .toBe(true);

    await worker.close();

    expect(await outboxOf(options)).toEqual(['restart-test.example']);
    expect(emulator.admin.calls().some((call) => call.action === 'whitelist/add')).toBe(false);
    await expect
      .poll(() => emulator.admin.state().profiles.default?.whitelist.includes('restart-test.example'), {
        timeout: 75_000,
        interval: 500,
      })
      .toBe(true);
    await expect.poll(() => outboxOf(options), { timeout: 5000 }).toEqual([]);
    // The interrupted request reached the service, and the restarted worker sent the change again
    // from the start (removal from the other list first): the stopped worker did not go on.
    const removals = emulator.admin
      .calls()
      .filter(
        (call) => call.action === 'blocklist/delete' && call.params.domain_name === 'restart-test.example',
      );
    expect(removals).toHaveLength(2);
  }, 120_000);

  test('a change made while the service is down is delivered once it is back', async ({ chromium }) => {
    const first = await startEmulator({ port: 0 });
    let back: EmulatorHandle | undefined;
    try {
      const options = await setUp(chromium, first);
      await first.close();

      const outcome = await options.evaluate(
        (accountId) =>
          (globalThis as unknown as ExtensionGlobal).chrome.runtime.sendMessage({
            type: 'submit-change',
            change: {
              op: 'add',
              list: 'whitelist',
              domain: 'offline-test.example',
              profile: 'default',
              source: 'popup',
            },
            accountId,
          }),
        await activeAccountId(options),
      );
      expect(outcome).toMatchObject({ state: 'pending' });
      expect(await outboxOf(options)).toEqual(['offline-test.example']);

      back = await startEmulator({ port: first.port, key: first.key });
      const service = back;
      await expect
        .poll(() => service.admin.state().profiles.default?.whitelist.includes('offline-test.example'), {
          timeout: 75_000,
          interval: 500,
        })
        .toBe(true);
      await expect.poll(() => outboxOf(options), { timeout: 5000 }).toEqual([]);
    } finally {
      await back?.close();
      await first.close().catch(() => {});
    }
  }, 120_000);
});
