/**
 * Page diagnosis and temporary allow in Chromium, through the real toolbar action, against the
 * emulator. A headless browser cannot accept a permission prompt, so these tests load the test
 * build (DIAGNOSIS_PERMISSIONS_AT_INSTALL=1, .output/test-diagnosis-chrome-mv3), which holds the
 * optional permissions from install and offers a 10-second temporary allow. Host names that must
 * fail to resolve are mapped to ~NOTFOUND before the harness's catch-all rule.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, WebWorker } from 'puppeteer-core';
import { popupListItems, setUpDiagnosis, testWithDiagnosisChromium } from './diagnosis-harness.ts';
import {
  builtExtensionDirs,
  byRole,
  type ChromiumSession,
  describe,
  expect,
  textOf,
  waitForStatus,
} from './harness/index.ts';
import { DIAGNOSIS_TEST_BUILD_DIR } from './harness/test-builds.ts';

const test = testWithDiagnosisChromium(['broken-cdn.example', 'blocked-site.example']);

const PAGE_WITH_BROKEN_CDN = (port: number) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>News</title><script src="http://broken-cdn.example:${port}/app.js"></script></head>
<body><h1>News</h1><img alt="chart" src="http://broken-cdn.example:${port}/chart.png"></body></html>`;

async function brokenPage(chromium: ChromiumSession): Promise<Page> {
  chromium.site.setPage('/story', PAGE_WITH_BROKEN_CDN(chromium.site.port));
  return chromium.openSiteTab('news.example', '/story');
}

/** The badge the worker set for a tab (the toolbar button's own text is not in the page's DOM). */
async function badgeOf(worker: WebWorker, tabUrl: string): Promise<string> {
  type ChromeApi = {
    tabs: { query(query: { url: string }): Promise<{ id?: number }[]> };
    action: { getBadgeText(details: { tabId: number }): Promise<string> };
  };
  return worker.evaluate(async (url) => {
    const api = (globalThis as unknown as { chrome: ChromeApi }).chrome;
    const [tab] = await api.tabs.query({ url });
    return tab?.id === undefined ? '(no tab)' : api.action.getBadgeText({ tabId: tab.id });
  }, tabUrl);
}

const failedHosts = (popup: Page) => popupListItems(popup, 'Failed hosts');

describe('page diagnosis (Chromium)', () => {
  test('the shipped build asks for the diagnosis permissions only as optional ones', () => {
    const shipped = JSON.parse(readFileSync(join(builtExtensionDirs().chrome, 'manifest.json'), 'utf8'));
    expect(shipped.permissions).not.toContain('webRequest');
    expect(shipped.permissions).not.toContain('webNavigation');
    expect(shipped.host_permissions).not.toContain('<all_urls>');
    expect(shipped.optional_permissions).toEqual(expect.arrayContaining(['webRequest', 'webNavigation']));
    expect(shipped.optional_host_permissions).toContain('<all_urls>');
    const testBuild = JSON.parse(readFileSync(join(DIAGNOSIS_TEST_BUILD_DIR, 'manifest.json'), 'utf8'));
    expect(testBuild.permissions).toEqual(expect.arrayContaining(['webRequest', 'webNavigation']));
  });

  test('a sub-resource host that does not resolve is listed in the popup and whitelisted in one click', async ({
    diagnosisChromium: chromium,
    emulator,
  }) => {
    await setUpDiagnosis(await chromium.openOptions(), emulator);
    const tab = await brokenPage(chromium);
    const worker = await chromium.worker();
    await expect.poll(() => badgeOf(worker, tab.url()), { timeout: 10_000 }).toBe('1');

    const popup = await chromium.openPopup(tab);
    await waitForStatus(popup, { startsWith: 'Not blocked' }, { name: 'Verdict' });
    const [row, ...others] = await failedHosts(popup);
    expect(others).toEqual([]);
    expect(row).toMatch(
      /^broken-cdn\.example name did not resolve \(net::ERR_NAME_NOT_RESOLVED(, \d requests)?\)/,
    );
    expect(row).toMatch(/Today's statistics show no blocked queries for it/);

    await byRole(popup, 'button', 'Whitelist broken-cdn.example').click();
    expect(
      await waitForStatus(popup, { startsWith: 'broken-cdn.example was added' }, { name: 'Change outcome' }),
    ).toMatch(/to the whitelist of profile default/);
    expect(emulator.admin.state().profiles.default?.whitelist).toContain('broken-cdn.example');
    await expect.poll(async () => (await failedHosts(popup))[0]).toMatch(/On the whitelist\./);

    // A new page in the tab starts over, and so does the badge.
    await tab.goto(chromium.site.url('news.example', '/'), { waitUntil: 'load' });
    await expect.poll(() => badgeOf(worker, tab.url()), { timeout: 10_000 }).toBe('');
  });

  test('a page whose own name does not resolve is "probably blocked by the filter"', async ({
    diagnosisChromium: chromium,
    emulator,
  }) => {
    await setUpDiagnosis(await chromium.openOptions(), emulator);
    const tab = await chromium.browser.newPage();
    await tab.goto(chromium.site.url('blocked-site.example', '/'), { waitUntil: 'load' }).catch(() => null);
    const popup = await chromium.openPopup(tab);
    expect(await waitForStatus(popup, { startsWith: 'Blocked' }, { name: 'Verdict' })).toBe(
      'Blocked: Probably a blocked category: the page did not load.',
    );
    // How it failed is one click away, in the verdict's details.
    await byRole(popup, 'button', 'Details').click();
    expect(await textOf(popup, 'main')).toMatch(
      /blocked-site\.example did not load \(net::ERR_NAME_NOT_RESOLVED/,
    );
    expect(await failedHosts(popup)).toEqual([
      expect.stringMatching(/^blocked-site\.example .*This page itself/),
    ]);
  });

  test('temporary allow: whitelisted now, the time left shown, and taken off again when it ends', async ({
    diagnosisChromium: chromium,
    emulator,
  }) => {
    await setUpDiagnosis(await chromium.openOptions(), emulator);
    const tab = await brokenPage(chromium);
    const popup = await chromium.openPopup(tab);
    await failedHosts(popup);
    await byRole(popup, 'button', 'Allow broken-cdn.example for 10 seconds').click();
    expect(
      await waitForStatus(
        popup,
        { contains: 'It goes off the whitelist at' },
        { name: 'Temporary allow of broken-cdn.example' },
      ),
    ).toMatch(/^broken-cdn\.example was added to the whitelist/);
    expect(emulator.admin.state().profiles.default?.whitelist).toContain('broken-cdn.example');
    expect((await failedHosts(popup))[0]).toMatch(/broken-cdn\.example is whitelisted for now: \d+ s left/);

    // The worker's alarm ends it (unpacked extensions may set alarms shorter than 30 s).
    await expect
      .poll(() => emulator.admin.state().profiles.default?.whitelist.includes('broken-cdn.example'), {
        timeout: 30_000,
        interval: 500,
      })
      .toBe(false);
    await expect.poll(async () => (await failedHosts(popup))[0]).toMatch(/Whitelist broken-cdn\.example/);
  });
});
