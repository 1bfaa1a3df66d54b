/**
 * The popup in each verdict state passes axe with no violation of any impact (minor and moderate
 * included, best practices too: one `h1`, landmarks), light and dark, with its details open:
 * no key, blocked, allowed, not blocked, a change waiting to be sent, a change delivered.
 *
 * Playwright cannot click the toolbar button, so the popup is opened as `popup.html?tabId=<id>`
 * of the page-diagnosis test build, which holds host access from install and may therefore read
 * any tab's address (lib/diagnosis/manifest.ts), as tests/e2e/a11y.chromium.e2e.ts does.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type BrowserContext, chromium, type Page, type Worker } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { EmulatorHandle } from '../../emulator/index.ts';
import { QUIET_CHROMIUM_ARGS } from './harness/chromium.ts';
import { describe, expect, type SiteServer, test } from './harness/index.ts';
import { CHROMIUM_EXECUTABLE, E2E_BUILD_SNAPSHOTS_DIR } from './harness/paths.ts';
import { buildDiagnosisTestBuild } from './harness/test-builds.ts';

let extensionDir = '';

beforeAll(() => {
  const built = buildDiagnosisTestBuild();
  mkdirSync(E2E_BUILD_SNAPSHOTS_DIR, { recursive: true });
  const copyDir = mkdtempSync(join(E2E_BUILD_SNAPSHOTS_DIR, 'popup-a11y-'));
  extensionDir = join(copyDir, 'test-diagnosis-chrome-mv3');
  cpSync(built, extensionDir, { recursive: true });
}, 120_000);
afterAll(() => {
  if (extensionDir) rmSync(join(extensionDir, '..'), { recursive: true, force: true });
});

interface Session {
  context: BrowserContext;
  worker: Worker;
  extensionUrl(path: string): string;
}

type ChromeGlobal = {
  chrome: {
    storage: { local: { set(items: Record<string, unknown>): Promise<void> } };
    tabs: { query(query: object): Promise<{ id?: number; url?: string }[]> };
  };
};

async function withSession(scheme: 'light' | 'dark', body: (session: Session) => Promise<void>) {
  const context = await chromium.launchPersistentContext('', {
    executablePath: CHROMIUM_EXECUTABLE,
    headless: true,
    colorScheme: scheme,
    viewport: { width: 360, height: 600 },
    args: [
      '--headless=new',
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
      ...QUIET_CHROMIUM_ARGS,
    ],
  });
  try {
    const worker =
      context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://')) ??
      (await context.waitForEvent('serviceworker', { timeout: 15_000 }));
    const extensionId = new URL(worker.url()).host;
    await body({ context, worker, extensionUrl: (path) => `chrome-extension://${extensionId}/${path}` });
  } finally {
    await context.close();
  }
}

async function configure(session: Session, emulator: EmulatorHandle): Promise<void> {
  await session.worker.evaluate(
    ({ key, baseUrl }) =>
      (globalThis as unknown as ChromeGlobal).chrome.storage.local.set({
        apiKey: key,
        connection: { baseUrl, form: 'A' },
      }),
    { key: emulator.key, baseUrl: emulator.url },
  );
}

/** The popup of a new tab on `host`, once its verdict (or what stands for it) starts with `verdict`. */
async function popupOn(session: Session, site: SiteServer, host: string, verdict: RegExp): Promise<Page> {
  const page = await session.context.newPage();
  const url = site.url(host, '/');
  await page.goto(url, { waitUntil: 'load' });
  const tabId = await session.worker.evaluate(
    async (tabUrl) =>
      (await (globalThis as unknown as ChromeGlobal).chrome.tabs.query({})).find((tab) => tab.url === tabUrl)
        ?.id ?? -1,
    url,
  );
  const popup = await session.context.newPage();
  await popup.goto(session.extensionUrl(`popup.html?tabId=${tabId}`));
  await expect
    .poll(() => popup.getByRole('status', { name: 'Verdict' }).textContent(), { timeout: 15_000 })
    .toMatch(verdict);
  return popup;
}

/** Every violation, whatever its impact, named with its rule and elements; details opened first. */
async function expectNoViolations(popup: Page, what: string): Promise<void> {
  for (const summary of await popup.locator('summary').all()) await summary.click();
  const results = await new AxeBuilder({ page: popup }).analyze();
  const violations = results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help} -> ${violation.nodes
        .map((node) => node.target.join(' '))
        .join(' | ')}`,
  );
  expect(violations, `axe violations on ${what}`).toEqual([]);
}

/** The popup's states, each checked in one scheme. */
async function auditStates(scheme: 'light' | 'dark', emulator: EmulatorHandle, site: SiteServer) {
  await withSession(scheme, async (session) => {
    const noKey = await popupOn(session, site, 'example.com', /^No API key is set/);
    await expectNoViolations(noKey, `the popup without a key (${scheme})`);

    await configure(session, emulator);
    const states: [string, string, RegExp][] = [
      ['blocked', 'news.blocked-demo.example', /^Blocked: /],
      ['allowed', 'allowed-demo.example', /^Allowed: /],
      ['not blocked', 'weather.example.com', /^Not blocked: /],
    ];
    for (const [state, host, verdict] of states) {
      const popup = await popupOn(session, site, host, verdict);
      await expectNoViolations(popup, `the ${state} popup (${scheme})`);
    }

    const delivered = await popupOn(session, site, 'shop.example', /^Not blocked: /);
    await delivered.getByRole('button', { name: 'Blocklist', exact: true }).click();
    await expect
      .poll(() => delivered.getByRole('status', { name: 'Change outcome' }).textContent(), {
        timeout: 15_000,
      })
      .toMatch(/was added to the blocklist/);
    await expectNoViolations(delivered, `the popup after a change (${scheme})`);

    emulator.admin.injectFault({ kind: 'http-500', count: 100 });
    const waiting = await popupOn(session, site, 'news.example', /^Not blocked: /);
    await waiting.getByRole('button', { name: 'Whitelist', exact: true }).click();
    await expect
      .poll(() => waiting.getByRole('status', { name: 'Change outcome' }).textContent(), { timeout: 30_000 })
      .toMatch(/^Waiting to add news\.example to the whitelist/);
    await expectNoViolations(waiting, `the popup with a change waiting (${scheme})`);
    emulator.admin.clearFaults();
  });
}

describe('the popup passes axe in every state (Chromium)', () => {
  test('light', { timeout: 120_000 }, async ({ emulator, site }) => {
    await auditStates('light', emulator, site);
  });

  test('dark', { timeout: 120_000 }, async ({ emulator, site }) => {
    await auditStates('dark', emulator, site);
  });
});
