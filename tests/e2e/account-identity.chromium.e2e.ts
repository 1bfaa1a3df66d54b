/**
 * Queued changes belong to the account they were made for (lib/identity/identity.ts), in Chromium
 * against two emulators on two ports: two accounts. A change queued while the first is down is
 * never sent to the second once Setup points there; the options page shows it as waiting for the
 * other account, and "Send to that account when it is back" delivers it there after switching back.
 */
import type { Page } from 'puppeteer-core';
import { type EmulatorHandle, startEmulator } from '../../emulator/index.ts';
import { activeAccountId, storedValue } from './harness/extension-storage.ts';
import {
  byRole,
  configureExtension,
  describe,
  expect,
  openSection,
  pressAndWaitForOutcome,
  test,
} from './harness/index.ts';

const DOMAIN = 'queued-for-first.example';
const REGION = 'Changes waiting for another account';

type ExtensionGlobal = { chrome: { runtime: { sendMessage(message: unknown): Promise<unknown> } } };

const queuedDomains = async (page: Page) => {
  const stored = await storedValue(page, 'outbox');
  return Array.isArray(stored)
    ? stored.map((entry: { change: { domain: string } }) => entry.change.domain)
    : [];
};

const touched = (service: EmulatorHandle) =>
  service.admin.calls().filter((call) => call.params.domain_name === DOMAIN || call.params.domain === DOMAIN);

const whitelisted = (service: EmulatorHandle) =>
  service.admin.state().profiles.default?.whitelist.includes(DOMAIN) ?? false;

describe('Queued changes stay with their account (Chromium)', () => {
  test('a change queued for one account is never sent to another, and goes to its own once it is back', async ({
    chromium,
  }) => {
    const first = await startEmulator({ port: 0, key: 'first-account-key' });
    const second = await startEmulator({ port: 0, key: 'second-account-key' });
    let firstBack: EmulatorHandle | undefined;
    try {
      const options = await chromium.openOptions();
      expect(await configureExtension(options, { baseUrl: first.url, key: first.key, form: 'A' })).toMatch(
        /^Saved/,
      );

      // The first account's service goes down; a one-click change is queued for it.
      await first.close();
      const outcome = await options.evaluate(
        (domain, accountId) =>
          (globalThis as unknown as ExtensionGlobal).chrome.runtime.sendMessage({
            type: 'submit-change',
            change: { op: 'add', list: 'whitelist', domain, profile: 'default', source: 'popup' },
            accountId,
          }),
        DOMAIN,
        await activeAccountId(options),
      );
      expect(outcome).toMatchObject({ state: 'pending' });

      // Setup now points at the second account (another origin, another key), and the first is back.
      expect(await configureExtension(options, { baseUrl: second.url, key: second.key, form: 'A' })).toMatch(
        /^Saved/,
      );
      firstBack = await startEmulator({ port: first.port, key: first.key });
      await openSection(options, REGION);
      const region = await byRole(options, 'region', REGION).waitHandle();
      expect(await region.evaluate((element) => element.textContent ?? '')).toContain(
        `Waiting to add ${DOMAIN} to the whitelist of profile default.`,
      );
      // Saving a new key sends what waits at once: give it time to (wrongly) go anywhere.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect(touched(second)).toEqual([]);
      expect(whitelisted(second)).toBe(false);
      expect(touched(firstBack)).toEqual([]);
      expect(await queuedDomains(options)).toEqual([DOMAIN]);
      // A change for the second account goes through meanwhile: the first account's holds nothing.
      await options.evaluate(
        (accountId) =>
          (globalThis as unknown as ExtensionGlobal).chrome.runtime.sendMessage({
            type: 'submit-change',
            change: {
              op: 'add',
              list: 'whitelist',
              domain: 'second.example',
              profile: 'default',
              source: 'popup',
            },
            accountId,
          }),
        await activeAccountId(options),
      );
      expect(second.admin.state().profiles.default?.whitelist).toContain('second.example');

      expect(await pressAndWaitForOutcome(options, 'Send to that account when it is back')).toBe(
        '1 change is kept for that account.',
      );
      expect(touched(second)).toEqual([]);

      // Back to the first account: the kept change is delivered there, and only there.
      expect(await configureExtension(options, { baseUrl: first.url, key: first.key, form: 'A' })).toMatch(
        /^Saved/,
      );
      const service = firstBack;
      await expect.poll(() => whitelisted(service), { timeout: 30_000, interval: 500 }).toBe(true);
      await expect.poll(() => queuedDomains(options), { timeout: 5000 }).toEqual([]);
      expect(touched(second)).toEqual([]);
    } finally {
      await firstBack?.close();
      await second.close();
      await first.close().catch(() => {});
    }
  }, 120_000);
});
