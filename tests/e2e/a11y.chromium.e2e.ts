/**
 * Accessibility of the popup and the options page in Chromium, against the emulator:
 *
 * - axe (`@axe-core/playwright`, its whole default rule set: WCAG 2.x A/AA and best practices)
 *   finds no violation of any impact, in light and dark mode (one browser each), on
 *   - every view of the options page, reached through its navigation as a person would: at first
 *     run (the welcome and the views listed without a key) and with the key saved (each view
 *     once, loaded: the Logs view with charts and the raw log table, Setup with an outcome, the
 *     Top-level domains confirmation dialog);
 *   - the popup without a key and in each verdict state: Blocked, Allowed, Not blocked (Details
 *     open), allowed for a while, after a change (outcome and Undo), with a change waiting while
 *     the service fails (one line, Send now);
 *   - and, with the Appearance theme set to Dark while the system is light, the views and popup;
 * - the options page's Setup works by keyboard alone, with a visible focus indicator at each step;
 * - the popup's Whitelist button works by keyboard and its outcome lands in a live status region.
 *
 * Playwright cannot click the toolbar button, so the popup is opened as `popup.html?tabId=<id>`
 * of the page-diagnosis test build, which holds host access from install and may therefore read
 * any tab's address (lib/diagnosis/manifest.ts). That build is made once at the start of this file.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type BrowserContext, chromium, type Page, type Worker } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { EmulatorHandle } from '../../emulator/index.ts';
import { SECTIONS, type SectionRoute, sectionById, type ViewId } from '../../lib/options/routes.ts';
import { QUIET_CHROMIUM_ARGS } from './harness/chromium.ts';
import { describe, expect, type SiteServer, test } from './harness/index.ts';
import { CHROMIUM_EXECUTABLE, E2E_BUILD_SNAPSHOTS_DIR, E2E_RESULTS_DIR } from './harness/paths.ts';
import { buildDiagnosisTestBuild } from './harness/test-builds.ts';

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
    await closeInstallPage(context, extensionId);
    return { context, worker, extensionUrl: (path) => `chrome-extension://${extensionId}/${path}` };
  } catch (error) {
    await context.close();
    throw error;
  }
}

/**
 * On install the worker opens the options page itself; closed before the test opens its own, as
 * Chromium would otherwise load it again into the test's options tab (a navigation mid-test).
 * Closed only once loaded: closed while loading, it left about one browser in eight whose
 * extension pages had no messages (`i18n.getMessage` answered "", every name its key).
 */
async function closeInstallPage(context: BrowserContext, extensionId: string): Promise<void> {
  const isOptions = (page: Page) => page.url().startsWith(`chrome-extension://${extensionId}/options.html`);
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
    const opened = context.pages().find(isOptions);
    if (opened) {
      await opened.waitForLoadState('load');
      return opened.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
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
  } catch (error) {
    await saveScreenshots(session, colorScheme);
    throw error;
  } finally {
    await session.context.close();
  }
}

/**
 * A failed test leaves a screenshot and the address of each open page under test-results/e2e/
 * (as the harness does for its own sessions), so a failure on CI can be read afterwards.
 */
async function saveScreenshots(session: Session, label: string): Promise<void> {
  const dir = join(E2E_RESULTS_DIR, `a11y-chromium-${label}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  const lines: string[] = [];
  for (const [index, page] of session.context.pages().entries()) {
    const file = `page-${index + 1}.png`;
    await page.bringToFront().catch(() => {});
    const shot = await page
      .screenshot({ path: join(dir, file), fullPage: true, timeout: 5_000 })
      .then(() => file)
      .catch((error: unknown) => `(no screenshot: ${String(error)})`);
    lines.push(`${shot}\t${page.url()}`);
  }
  writeFileSync(join(dir, 'pages.txt'), `${lines.join('\n')}\n`);
  console.error(`[e2e] screenshots of the failed a11y test in ${dir}`);
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

async function openSiteTab(
  session: Session,
  site: SiteServer,
  host = SITE_HOST,
): Promise<{ page: Page; tabId: number }> {
  const page = await session.context.newPage();
  const url = site.url(host, '/');
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

/** The popup once its verdict (from the service) is shown. */
async function waitForVerdict(popup: Page, start: RegExp): Promise<void> {
  await expect
    .poll(() => popup.getByRole('status', { name: 'Verdict' }).textContent(), { timeout: 15_000 })
    .toMatch(start);
}

async function waitForReadyPopup(popup: Page): Promise<void> {
  await waitForVerdict(popup, /^(Blocked|Allowed|Not blocked)/);
  await popup.getByRole('combobox', { name: 'Profile' }).waitFor();
  await popup.getByRole('button', { name: /^(Whitelist|Remove from whitelist)$/ }).waitFor();
}

/** Options page with the account saved: it opens on the Overview. */
async function openFullOptions(session: Session): Promise<Page> {
  const page = await session.context.newPage();
  await page.goto(session.extensionUrl('options.html'));
  await page.getByRole('heading', { name: 'Overview', exact: true }).waitFor({ timeout: 15_000 });
  return page;
}

/** Opens the verdict's Details disclosure when there is a closed one, so its content is audited too. */
async function openDetails(popup: Page): Promise<void> {
  const closed = popup.locator('details:not([open]) > summary', { hasText: 'Details' });
  if ((await closed.count()) > 0) {
    await closed.first().click();
    await expect.poll(() => popup.locator('details[open]').count()).toBeGreaterThan(0);
  }
}

/** Opens a section through the navigation: a link named as the section (ui-contract.md). */
async function openSection(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { name, exact: true }).first().waitFor({ timeout: 15_000 });
}

/** The navigation's entries as a person reads them: each link's name and the section it opens. */
async function navigationEntries(page: Page): Promise<{ name: string; section: SectionRoute }[]> {
  const links = page.getByRole('navigation', { name: 'Sections' }).getByRole('link');
  await links.first().waitFor({ timeout: 15_000 });
  const entries: { name: string; section: SectionRoute }[] = [];
  for (const link of await links.all()) {
    const name = ((await link.textContent()) ?? '').replace('•', '').trim();
    const id = ((await link.getAttribute('href')) ?? '').replace(/^#/, '');
    const section = sectionById(id);
    expect(section, `navigation entry "${name}" (#${id}) is in the routes table`).toBeDefined();
    if (section) entries.push({ name, section });
  }
  return entries;
}

/** What a view shows once its data is there, beyond the first paint (charts, tables, an outcome). */
const VIEW_EXTRAS: Partial<Record<ViewId, (page: Page, label: string) => Promise<void>>> = {
  logs: async (page) => {
    await page.getByRole('img', { name: /^Queries per hour/ }).waitFor({ timeout: 15_000 });
    await loadRawLog(page);
  },
  setup: async (page) => {
    // With an outcome (success colour) shown.
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => setupStatus(page).textContent(), { timeout: 15_000 }).toMatch(/^Connected/);
  },
  filtering: async (page, label) => {
    // The confirmation dialog (the one dialog every view shares) audited once, then dismissed.
    await page.getByRole('textbox', { name: 'Top-level domain', exact: true }).fill('xyz');
    await page.getByRole('button', { name: 'Block top-level domain', exact: true }).click();
    const dialog = page.getByRole('dialog').or(page.getByRole('alertdialog'));
    await dialog.waitFor({ timeout: 15_000 });
    await expectNoViolations(page, `the options page, Top-level domains confirmation (${label})`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden', timeout: 15_000 });
  },
};

/**
 * Every entry of the navigation chosen in turn, as a person would, and each view audited once
 * (sections of one view are shown together), loaded: lists and networks arrived, the Logs view
 * with the newest day's charts and the raw log table, Setup with an outcome. Returns the views seen.
 */
async function auditOptionsViews(page: Page, label: string, extras = true): Promise<Set<ViewId>> {
  const audited = new Set<ViewId>();
  for (const { name, section } of await navigationEntries(page)) {
    await openSection(page, name);
    await expect(page.evaluate(() => location.hash)).resolves.toBe(`#${section.id}`);
    if (audited.has(section.view)) continue;
    audited.add(section.view);
    // The account lists and networks arrive after their sections appear: wait until nothing loads.
    await expect
      .poll(() => page.getByText(/^Loading/).count(), { timeout: 15_000, message: `${name} still loading` })
      .toBe(0);
    await expectNoViolations(page, `the options page, ${name} (${label})`);
    const extra = VIEW_EXTRAS[section.view];
    if (extras && extra) {
      await extra(page, label);
      await expectNoViolations(page, `the options page, ${name} with its data shown (${label})`);
    }
  }
  return audited;
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

/** Runs axe's whole default rule set and fails on any violation, naming rule, impact and elements. */
async function expectNoViolations(page: Page, what: string): Promise<void> {
  // The page as it settles: a button that has just become the filled one (the verdict changed)
  // fades its colours for 0.12 s, and axe would measure the contrast of a frame in between.
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => !(animation instanceof CSSTransition)),
  );
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.passes.length, `axe checked something on ${what}`).toBeGreaterThan(0);
  const violations = results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help} -> ${violation.nodes
        .map((node) => `${node.target.join(' ')} [${node.failureSummary?.replace(/\s+/g, ' ') ?? ''}]`)
        .join(' | ')}`,
  );
  expect(violations, `axe violations on ${what}`).toEqual([]);
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

/** Sites of the demo account (emulator/seed.ts), one per verdict. */
const BLOCKED_HOST = 'blocked-demo.example';
const ALLOWED_HOST = 'allowed-demo.example';
const PENDING_HOST = 'shop.example';

/** The popup on a tab, its verdict shown and its Details open, audited. */
async function auditPopup(
  session: Session,
  tabId: number,
  verdict: RegExp,
  what: string,
  dark: boolean,
): Promise<Page> {
  const popup = await openPopup(session, tabId);
  await waitForVerdict(popup, verdict);
  await expectTheme(popup, dark);
  await openDetails(popup);
  await expectNoViolations(popup, what);
  return popup;
}

/**
 * In one browser: the options page at first run (the welcome and every view listed without a
 * key), the popup without a key; then with the key saved every view of the options page, and the
 * popup in each verdict state (blocked, allowed, not blocked, after a change with Undo, a change
 * waiting because the service fails).
 */
async function auditEverything(
  session: Session,
  emulator: EmulatorHandle,
  site: SiteServer,
  label: string,
  dark: boolean,
): Promise<void> {
  const tabs = {
    unlisted: (await openSiteTab(session, site, SITE_HOST)).tabId,
    blocked: (await openSiteTab(session, site, BLOCKED_HOST)).tabId,
    allowed: (await openSiteTab(session, site, ALLOWED_HOST)).tabId,
    pending: (await openSiteTab(session, site, PENDING_HOST)).tabId,
  };

  const firstRun = await session.context.newPage();
  await firstRun.goto(session.extensionUrl('options.html'));
  await firstRun.getByRole('heading', { name: 'Welcome', exact: true }).waitFor({ timeout: 15_000 });
  await expectTheme(firstRun, dark);
  await expectNoViolations(firstRun, `the options page at first run, the welcome (${label})`);
  const withoutKey = await auditOptionsViews(firstRun, `no key, ${label}`, false);
  expect([...withoutKey].sort(), 'views listed without a key').toEqual(
    [
      ...new Set(
        SECTIONS.filter((section) => !section.needsKey && !('onlyWhenNeeded' in section)).map((s) => s.view),
      ),
    ].sort(),
  );
  await firstRun.close();

  const noKey = await auditPopup(
    session,
    tabs.unlisted,
    /^No API key is set/,
    `the popup without a key (${label})`,
    dark,
  );
  await noKey.close();

  await storeSettings(session, emulator);
  const options = await openFullOptions(session);
  await expectTheme(options, dark);
  const withKey = await auditOptionsViews(options, label);
  // Every view of the routes table was reached through the navigation (the view listed only
  // while changes wait for another account has nothing to show here).
  expect([...withKey].sort(), 'views reached through the navigation').toEqual(
    [...new Set(SECTIONS.filter((section) => !('onlyWhenNeeded' in section)).map((s) => s.view))].sort(),
  );
  await options.close();

  const blocked = await auditPopup(session, tabs.blocked, /^Blocked/, `the popup, Blocked (${label})`, dark);
  // Allowed for a while: the time left and Keep on the whitelist.
  await blocked.getByRole('button', { name: `Allow ${BLOCKED_HOST} for 1 hour`, exact: true }).click();
  await blocked
    .getByRole('button', { name: `Keep ${BLOCKED_HOST} on the whitelist`, exact: true })
    .waitFor({ timeout: 15_000 });
  await waitForVerdict(blocked, /^Allowed/);
  await expectNoViolations(blocked, `the popup, allowed for a while (${label})`);
  await blocked.close();
  const allowed = await auditPopup(session, tabs.allowed, /^Allowed/, `the popup, Allowed (${label})`, dark);
  await allowed.close();

  const unlisted = await auditPopup(
    session,
    tabs.unlisted,
    /^Not blocked/,
    `the popup, Not blocked (${label})`,
    dark,
  );
  // After a change: its outcome, the reminder and Undo.
  await unlisted.getByRole('button', { name: 'Whitelist', exact: true }).click();
  await expect
    .poll(() => unlisted.getByRole('status', { name: 'Change outcome' }).textContent(), { timeout: 15_000 })
    .toMatch(/was added to the whitelist/);
  await unlisted.getByRole('button', { name: 'Undo', exact: true }).waitFor();
  await expectNoViolations(unlisted, `the popup after a change, with Undo (${label})`);
  await unlisted.close();

  // The service fails: the change waits, one line with Send now.
  const pending = await auditPopup(
    session,
    tabs.pending,
    /^Not blocked/,
    `the popup before a waiting change (${label})`,
    dark,
  );
  emulator.admin.injectFault({ kind: 'http-500', count: 50 });
  await pending.getByRole('button', { name: 'Blocklist', exact: true }).click();
  await expect
    .poll(() => pending.getByRole('status', { name: 'Change outcome' }).textContent(), { timeout: 15_000 })
    .toMatch(/^Waiting to add/);
  await pending.getByRole('button', { name: 'Send now', exact: true }).waitFor({ timeout: 15_000 });
  await openDetails(pending);
  await expectNoViolations(pending, `the popup with a change waiting (${label})`);
  await pending.close();
  emulator.admin.clearFaults();
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

/** One browser per colour scheme walks every view and state: a few minutes on a small machine. */
const AUDIT_TIMEOUT_MS = 300_000;

/** The Appearance theme set to Dark while the system is light: the same views, dark from storage. */
async function auditForcedDark(session: Session, site: SiteServer): Promise<void> {
  const options = await openFullOptions(session);
  await openSection(options, 'Appearance');
  await options.getByRole('combobox', { name: 'Theme' }).selectOption('dark');
  await options.getByRole('button', { name: 'Save appearance' }).click();
  await expect.poll(() => options.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  await expectTheme(options, true);
  await auditOptionsViews(options, 'Theme: Dark, system light', false);
  await options.close();

  // blocked-demo.example is allowed for a while by now; the seed blocklists this one too.
  const { tabId } = await openSiteTab(session, site, 'tracker.example.net');
  const popup = await auditPopup(
    session,
    tabId,
    /^Blocked/,
    'the popup, Blocked (Theme: Dark, system light)',
    true,
  );
  await popup.close();
}

describe('accessibility (Chromium, axe and keyboard)', () => {
  test(
    'light: every options view and every popup state without any axe violation, then the Dark theme on a light system',
    async ({ emulator, site }) => {
      await withSession('light', async (session) => {
        await auditEverything(session, emulator, site, 'light', false);
        await auditForcedDark(session, site);
      });
    },
    AUDIT_TIMEOUT_MS,
  );

  test(
    'dark: every options view and every popup state without any axe violation',
    async ({ emulator, site }) => {
      await withSession('dark', (session) => auditEverything(session, emulator, site, 'dark', true));
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
      // The chosen section's heading takes the keyboard, so reading and Tab go on from there.
      await expect.poll(async () => (await focusState(options)).name).toBe('Setup');
      await expectVisibleFocus(options, 'Setup');
      const status = setupStatus(options);
      await tabTo(options, 'Test connection');
      await options.keyboard.press('Space');
      await expect.poll(() => status.textContent(), { timeout: 15_000 }).toMatch(/^Connected/);
      await expectVisibleFocus(options, 'Test connection');
      expect(await status.getAttribute('aria-live')).toBe('polite');
      // The browser's Back follows the sections, the keyboard with it.
      await options.goBack();
      await expect.poll(async () => (await focusState(options)).name).toBe('Overview');

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
