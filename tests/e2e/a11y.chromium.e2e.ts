/**
 * Accessibility of the popup and the options page in Chromium, against the emulator:
 *
 * - axe (`@axe-core/playwright`, WCAG 2.0/2.1 A and AA rules) finds no serious or critical
 *   violation on the popup (no key; ready with verdict, profile picker and buttons) and on the
 *   options page with every section shown and a day's charts drawn, in light and dark mode, and
 *   with the Appearance theme set to Dark while the system is light;
 * - the options page's Setup works by keyboard alone, with a visible focus indicator at each step;
 * - the popup's Whitelist button works by keyboard and its outcome lands in a live status region.
 *
 * Playwright cannot click the toolbar button, so the popup is opened as `popup.html?tabId=<id>`
 * of the page-diagnosis test build, which holds host access from install and may therefore read
 * any tab's address (lib/diagnosis/manifest.ts). That build is made once at the start of this file.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type BrowserContext, chromium, type Page, type Worker } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { EmulatorHandle } from '../../emulator/index.ts';
import { QUIET_CHROMIUM_ARGS } from './harness/chromium.ts';
import { describe, expect, type SiteServer, test } from './harness/index.ts';
import { CHROMIUM_EXECUTABLE, E2E_BUILD_SNAPSHOTS_DIR } from './harness/paths.ts';
import { buildDiagnosisTestBuild } from './harness/test-builds.ts';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const SITE_HOST = 'news.example';

/** This file's private copy of the test build (another file's rebuild cannot disturb it). */
let extensionDir = '';

/** Built once per run of this file, then copied like the global setup copies the shipped builds. */
beforeAll(() => {
  const TEST_BUILD_DIR = buildDiagnosisTestBuild();
  mkdirSync(E2E_BUILD_SNAPSHOTS_DIR, { recursive: true });
  const copyDir = mkdtempSync(join(E2E_BUILD_SNAPSHOTS_DIR, 'a11y-'));
  extensionDir = join(copyDir, 'test-diagnosis-chrome-mv3');
  cpSync(TEST_BUILD_DIR, extensionDir, { recursive: true });
  if (!existsSync(join(extensionDir, 'manifest.json'))) {
    throw new Error(`${TEST_BUILD_DIR} changed while it was copied (a build running at the same time?)`);
  }
}, 120_000);
afterAll(() => {
  if (extensionDir) rmSync(join(extensionDir, '..'), { recursive: true, force: true });
});

interface Session {
  context: BrowserContext;
  worker: Worker;
  extensionUrl(path: string): string;
}

async function launch(colorScheme: 'light' | 'dark'): Promise<Session> {
  const context = await chromium.launchPersistentContext('', {
    executablePath: CHROMIUM_EXECUTABLE,
    headless: true,
    colorScheme,
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
    // Node's URL gives chrome-extension:// URLs no origin; the host is the extension id.
    const extensionId = new URL(worker.url()).host;
    return { context, worker, extensionUrl: (path) => `chrome-extension://${extensionId}/${path}` };
  } catch (error) {
    await context.close();
    throw error;
  }
}

/** Each test gets a fresh browser (fresh extension storage), closed afterwards. */
async function withSession(
  colorScheme: 'light' | 'dark',
  body: (session: Session) => Promise<void>,
): Promise<void> {
  const session = await launch(colorScheme);
  try {
    await body(session);
  } finally {
    await session.context.close();
  }
}

/** The settings the options page's Save stores (lib/settings/storage.ts: apiKeyItem, connectionItem). */
async function storeSettings(session: Session, emulator: EmulatorHandle): Promise<void> {
  await session.worker.evaluate(
    async ({ key, baseUrl }) => {
      const api = (
        globalThis as unknown as {
          chrome: { storage: { local: { set(items: Record<string, unknown>): Promise<void> } } };
        }
      ).chrome;
      await api.storage.local.set({ apiKey: key, connection: { baseUrl, form: 'A' } });
    },
    { key: emulator.key, baseUrl: emulator.url },
  );
}

async function openSiteTab(session: Session, site: SiteServer): Promise<{ page: Page; tabId: number }> {
  const page = await session.context.newPage();
  const url = site.url(SITE_HOST, '/');
  await page.goto(url, { waitUntil: 'load' });
  const tabId = await session.worker.evaluate(async (tabUrl) => {
    const api = (
      globalThis as unknown as {
        chrome: { tabs: { query(q: object): Promise<{ id?: number; url?: string }[]> } };
      }
    ).chrome;
    return (await api.tabs.query({})).find((tab) => tab.url === tabUrl)?.id ?? -1;
  }, url);
  expect(tabId, 'the site tab is known to the extension').toBeGreaterThanOrEqual(0);
  return { page, tabId };
}

async function openPopup(session: Session, tabId: number): Promise<Page> {
  const popup = await session.context.newPage();
  await popup.goto(session.extensionUrl(`popup.html?tabId=${tabId}`));
  return popup;
}

async function waitForReadyPopup(popup: Page): Promise<void> {
  await expect
    .poll(() => popup.getByRole('status', { name: 'Verdict' }).textContent(), { timeout: 15_000 })
    .toMatch(/^(Blocked|Allowed|Not blocked)/);
  await popup.getByRole('combobox', { name: 'Profile' }).waitFor();
  await popup.getByRole('button', { name: 'Whitelist', exact: true }).waitFor();
}

const OPTIONS_SECTIONS = [
  'Overview',
  'Setup',
  'Profiles',
  'Categories',
  'Whitelist',
  'Blocklist',
  'Top-level domains',
  'Default block',
  'Networks',
  'Dynamic IP',
  'Logs',
  // The "Diagnose pages" switch's section.
  'Page diagnosis',
  'Appearance',
  'Right-click menu and shortcuts',
  'Backup',
];

/** Each options view is audited on its own: ten axe runs take longer than one. */
const AUDIT_TIMEOUT_MS = 240_000;

/** One section of each view: the page shows one view at a time, each audited on its own. */
const AUDITED_VIEWS = new Set([
  'Overview',
  'Setup',
  'Profiles',
  'Categories',
  'Networks',
  'Logs',
  'Page diagnosis',
  'Appearance',
  'Right-click menu and shortcuts',
  'Backup',
]);

/** Opens a section through the navigation: a link named as the section (ui-contract.md). */
async function openSection(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { name, exact: true }).first().waitFor({ timeout: 15_000 });
}

/** Options page with the account saved: it opens on the Overview. */
async function openFullOptions(session: Session): Promise<Page> {
  const page = await session.context.newPage();
  await page.goto(session.extensionUrl('options.html'));
  await page.getByRole('heading', { name: 'Overview', exact: true }).waitFor({ timeout: 15_000 });
  return page;
}

/**
 * Every section reached through the navigation, and each view audited once loaded: the Logs
 * view with the newest day's charts and the raw log table, Setup with an outcome (success colour).
 */
async function auditOptionsViews(page: Page, label: string): Promise<void> {
  for (const name of OPTIONS_SECTIONS) {
    await openSection(page, name);
    if (!AUDITED_VIEWS.has(name)) continue;
    if (name === 'Logs') {
      await page.getByRole('img', { name: /^Queries per hour/ }).waitFor({ timeout: 15_000 });
      await loadRawLog(page);
    }
    if (name === 'Setup') {
      await page.getByRole('button', { name: 'Test connection' }).click();
      await expect.poll(() => setupStatus(page).textContent(), { timeout: 15_000 }).toMatch(/^Connected/);
    }
    // The account lists and networks arrive after their sections appear: wait until nothing loads.
    await expect
      .poll(() => page.getByText(/^Loading/).count(), { timeout: 15_000, message: `${name} still loading` })
      .toBe(0);
    await expectNoSeriousViolations(page, `the options page, ${name} (${label})`);
  }
}

/** The newest day's raw log loaded into the Logs section's table (the emulator allows one an hour). */
async function loadRawLog(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Load raw log', exact: true }).click();
  await page
    .getByRole('table', { name: /^Raw log lines of/ })
    .getByRole('cell')
    .first()
    .waitFor({ timeout: 15_000 });
}

/** Runs axe and fails on serious or critical violations, naming each rule, impact and element. */
async function expectNoSeriousViolations(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} -> ${violation.nodes
          .map((node) => node.target.join(' '))
          .join(' | ')}`,
    );
  expect(serious, `axe violations on ${what}`).toEqual([]);
}

/** The page shows the scheme asked for (the theme can follow storage a moment after the page opens). */
async function expectTheme(page: Page, dark: boolean): Promise<void> {
  const isDark = () =>
    page.evaluate(() => {
      const background = getComputedStyle(document.documentElement).backgroundColor;
      const [r = 0, g = 0, b = 0] = (background.match(/\d+(\.\d+)?/g) ?? []).map(Number);
      return r + g + b < 3 * 128;
    });
  await expect.poll(isDark, { message: `the page is ${dark ? 'dark' : 'light'}` }).toBe(dark);
}

async function auditEverything(
  session: Session,
  emulator: EmulatorHandle,
  site: SiteServer,
  label: string,
  dark: boolean,
): Promise<void> {
  const { tabId } = await openSiteTab(session, site);

  const noKey = await openPopup(session, tabId);
  await expect
    .poll(() => noKey.getByRole('status', { name: 'Verdict' }).textContent(), { timeout: 15_000 })
    .toMatch(/^No API key is set/);
  await expectTheme(noKey, dark);
  await expectNoSeriousViolations(noKey, `the popup without a key (${label})`);
  await noKey.close();

  await storeSettings(session, emulator);
  const options = await openFullOptions(session);
  await expectTheme(options, dark);
  await auditOptionsViews(options, label);
  await options.close();

  const popup = await openPopup(session, tabId);
  await waitForReadyPopup(popup);
  await expectTheme(popup, dark);
  await expectNoSeriousViolations(popup, `the ready popup (${label})`);
  // After a change: its outcome, the reminder and Undo.
  await popup.getByRole('button', { name: 'Whitelist', exact: true }).click();
  await expect
    .poll(() => popup.getByRole('status', { name: 'Change outcome' }).textContent(), { timeout: 15_000 })
    .toMatch(/was added to the whitelist/);
  await expectNoSeriousViolations(popup, `the popup after a change (${label})`);
}

/** The Setup section's status region (outcomes of Save and Test connection). */
function setupStatus(page: Page) {
  return page.getByRole('region', { name: 'Setup', exact: true }).getByRole('status');
}

/** What the focused element is, and whether it shows a focus indicator. */
async function focusState(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { name: '', tag: 'body', visible: false, style: '' };
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0;
    const shadow = style.boxShadow !== 'none' && style.boxShadow !== '';
    const labels = (element as HTMLInputElement).labels;
    const name =
      element.getAttribute('aria-label') ??
      (labels && labels.length > 0 ? (labels[0]?.textContent ?? '') : (element.textContent ?? ''));
    return {
      name: name.trim(),
      tag: element.tagName.toLowerCase(),
      visible: outline || shadow,
      style: `outline: ${style.outlineStyle} ${style.outlineWidth}; box-shadow: ${style.boxShadow}`,
    };
  });
}

async function expectVisibleFocus(page: Page, name: string): Promise<void> {
  const focus = await focusState(page);
  expect(focus.name.toLowerCase(), 'focus stays on the control just used').toBe(name.toLowerCase());
  expect(focus.visible, `focus indicator on ${focus.tag} "${focus.name}" (${focus.style})`).toBe(true);
}

/** Presses Tab (or Shift+Tab) until the element named `name` has focus, checking the focus ring at every stop. */
async function tabTo(page: Page, name: string, maxPresses = 40, backwards = false): Promise<void> {
  for (let press = 0; press < maxPresses; press++) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    const focus = await focusState(page);
    if (focus.tag !== 'body') {
      expect(focus.visible, `focus indicator on ${focus.tag} "${focus.name}" (${focus.style})`).toBe(true);
    }
    if (focus.name.toLowerCase() === name.toLowerCase()) return;
  }
  throw new Error(`"${name}" was not reached with ${maxPresses} presses of Tab`);
}

describe('accessibility (Chromium, axe and keyboard)', () => {
  test(
    'popup and options page, light mode: no serious or critical axe violation',
    async ({ emulator, site }) => {
      await withSession('light', (session) => auditEverything(session, emulator, site, 'light', false));
    },
    AUDIT_TIMEOUT_MS,
  );

  test(
    'popup and options page, dark mode: no serious or critical axe violation',
    async ({ emulator, site }) => {
      await withSession('dark', (session) => auditEverything(session, emulator, site, 'dark', true));
    },
    AUDIT_TIMEOUT_MS,
  );

  test(
    'Theme set to Dark on a light system: options page and popup pass axe',
    async ({ emulator, site }) => {
      await withSession('light', async (session) => {
        await storeSettings(session, emulator);
        const options = await openFullOptions(session);
        await openSection(options, 'Appearance');
        await options.getByRole('combobox', { name: 'Theme' }).selectOption('dark');
        await options.getByRole('button', { name: 'Save appearance' }).click();
        await expect.poll(() => options.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
        await expectTheme(options, true);
        await auditOptionsViews(options, 'Theme: Dark, system light');

        const { tabId } = await openSiteTab(session, site);
        const popup = await openPopup(session, tabId);
        await waitForReadyPopup(popup);
        await expectTheme(popup, true);
        await expectNoSeriousViolations(popup, 'the ready popup (Theme: Dark, system light)');
      });
    },
    AUDIT_TIMEOUT_MS,
  );

  test('keyboard alone: Setup saved and connected on the options page, Whitelist from the popup', async ({
    emulator,
    site,
  }) => {
    await withSession('light', async (session) => {
      const options = await session.context.newPage();
      await options.goto(session.extensionUrl('options.html'));
      await options.getByRole('textbox', { name: 'API key' }).waitFor();
      // The stored settings load right after the first render; typing before that is kept anyway.
      await expect.poll(() => options.getByRole('textbox', { name: 'Base URL' }).inputValue()).not.toBe('');

      await tabTo(options, 'API key');
      await options.keyboard.type(emulator.key);
      await tabTo(options, 'Base URL');
      await options.keyboard.press('ControlOrMeta+A');
      await options.keyboard.type(emulator.url);
      await tabTo(options, 'Save');
      await options.keyboard.press('Enter');
      // The first Save also tests the connection, then shows the Overview with the outcome,
      // the keyboard on its heading.
      const welcome = options
        .getByRole('region', { name: 'Overview', exact: true })
        .getByRole('status')
        .first();
      await expect.poll(() => welcome.textContent(), { timeout: 15_000 }).toMatch(/^Saved\. Connected/);
      await expectVisibleFocus(options, 'Overview');
      // Back to Setup through the navigation (before the Overview in the page), by keyboard.
      await tabTo(options, 'Setup', 40, true);
      await options.keyboard.press('Enter');
      await options.getByRole('button', { name: 'Test connection' }).waitFor();
      const status = setupStatus(options);
      await tabTo(options, 'Test connection');
      await options.keyboard.press('Space');
      await expect.poll(() => status.textContent(), { timeout: 15_000 }).toMatch(/^Connected/);
      await expectVisibleFocus(options, 'Test connection');
      expect(await status.getAttribute('aria-live')).toBe('polite');

      const { tabId } = await openSiteTab(session, site);
      const popup = await openPopup(session, tabId);
      await waitForReadyPopup(popup);
      await tabTo(popup, 'Whitelist');
      await popup.keyboard.press('Enter');
      const outcome = popup.getByRole('status', { name: 'Change outcome' });
      await expect
        .poll(() => outcome.textContent(), { timeout: 15_000 })
        .toMatch(`${SITE_HOST} was added to the whitelist`);
      // role=status is a polite live region by itself; an explicit aria-live must not silence it.
      expect(await outcome.getAttribute('aria-live')).not.toBe('off');
      expect(emulator.admin.state().profiles.default?.whitelist).toContain(SITE_HOST);
    });
  });
});
