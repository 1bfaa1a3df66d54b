/**
 * What the page-diagnosis end-to-end tests share (diagnosis and unbreak, in Chromium and
 * Firefox): the diagnosis test build, whose optional permissions are granted at install (a
 * headless browser cannot accept a permission prompt) and which offers a 10-second temporary
 * allow; a browser with that build; "Diagnose pages" turned on; and the popup's lists.
 *
 * Host names that must fail to resolve: Chromium maps them to ~NOTFOUND before the harness's
 * catch-all rule; Firefox resolves only the names the harness adds to `network.dns.localDomains`
 * (openSiteTab), so any other name fails as a blocked name does.
 */
import type { Page } from 'puppeteer-core';
import { beforeAll } from 'vitest';
import { launchFirefox } from './harness/firefox.ts';
import type { FirefoxPopup } from './harness/firefox-popup.ts';
import { popupTextOf, popupTexts } from './harness/firefox-popup-roles.ts';
import {
  allByRole,
  test as base,
  byRole,
  configureExtension,
  launchChromium,
  openSection,
  readVisibleText,
  saveFailureArtifacts,
  type TextMatch,
  waitForStatus,
} from './harness/index.ts';
import {
  buildDiagnosisTestBuild,
  DIAGNOSIS_FIREFOX_TEST_BUILD_DIR,
  DIAGNOSIS_TEST_BUILD_DIR,
} from './harness/test-builds.ts';

/** The choice of the test build's temporary allows that ends within a test. */
export const TEN_SECONDS = 10_000;

/**
 * `test` with `diagnosisChromium`: a fresh Chromium with the diagnosis test build (built once for
 * the file), where the `unresolvable` host names do not resolve.
 */
export function testWithDiagnosisChromium(unresolvable: readonly string[]) {
  beforeAll(() => {
    buildDiagnosisTestBuild();
  }, 120_000);
  const rules = [...unresolvable.map((host) => `MAP ${host} ~NOTFOUND`), 'MAP * 127.0.0.1'];
  return base.extend('diagnosisChromium', async ({ site, task }, { onCleanup }) => {
    const session = await launchChromium({
      site,
      extensionDir: DIAGNOSIS_TEST_BUILD_DIR,
      args: [`--host-resolver-rules=${rules.join(', ')}`],
    });
    onCleanup(async () => {
      if (task.result?.state === 'fail') await saveFailureArtifacts(task, session);
      await session.close();
    });
    return session;
  });
}

/** `test` with `diagnosisFirefox`: a fresh Firefox ESR with the diagnosis test build. */
export function testWithDiagnosisFirefox() {
  beforeAll(() => {
    buildDiagnosisTestBuild('firefox');
  }, 120_000);
  return base.extend('diagnosisFirefox', async ({ site, task }, { onCleanup }) => {
    const session = await launchFirefox({ site, extensionDir: DIAGNOSIS_FIREFOX_TEST_BUILD_DIR });
    onCleanup(async () => {
      if (task.result?.state === 'fail') await saveFailureArtifacts(task, session);
      await session.close();
    });
    return session;
  });
}

/** Saves the emulator's key (Form A) in the options page and turns page diagnosis on. */
export async function setUpDiagnosis(options: Page, emulator: { url: string; key: string }): Promise<Page> {
  await configureExtension(options, { baseUrl: emulator.url, key: emulator.key, form: 'A' });
  await openSection(options, 'Page diagnosis');
  await byRole(options, 'checkbox', 'Diagnose pages').click();
  await byRole(options, 'button', 'Save page diagnosis').click();
  await waitForStatus(options, { startsWith: 'Page diagnosis is on' }, { name: 'Page diagnosis' });
  return options;
}

/** The visible texts of the items of the popup's list whose name starts with `name`, once shown. */
export async function popupListItems(popup: Page, name: string): Promise<string[]> {
  await byRole(popup, 'list', { startsWith: name }).wait();
  const items = await allByRole(popup, 'listitem', undefined, {
    within: { role: 'list', name: { startsWith: name } },
  });
  return Promise.all(items.map((item) => item.evaluate(readVisibleText)));
}

/** The same in Firefox's popup (read through the extension, harness/firefox-popup-roles.ts). */
export async function firefoxPopupListItems(popup: FirefoxPopup, name: string): Promise<string[]> {
  const list: TextMatch = { startsWith: name };
  await popupTextOf(popup, 'list', list);
  return popupTexts(popup, 'listitem', undefined, { within: { role: 'list', name: list } });
}

/** The worker's alarm that ends temporary allows, read from an extension page: when it fires, or null. */
export async function expiryAlarm(page: Page): Promise<number | null> {
  type ChromeApi = { alarms: { get(name: string): Promise<{ scheduledTime: number } | undefined> } };
  return page.evaluate(async () => {
    const api = (globalThis as unknown as { chrome: ChromeApi }).chrome;
    return (await api.alarms.get('temporary-allow-expiry'))?.scheduledTime ?? null;
  });
}
