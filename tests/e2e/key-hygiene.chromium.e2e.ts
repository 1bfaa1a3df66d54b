/**
 * Key hygiene (docs/service-api.md, "API key storage"), in Chromium against the emulator with a
 * key of its own: after the user sets up the extension and uses every part of it that calls the
 * service (including failures, one of whose reasons quotes the key back), the key is in
 * `storage.local` under `apiKey` and nowhere else:
 *   - not in storage.sync, nor in any other stored value,
 *   - not in the console output of any extension page or the worker,
 *   - not in any text the pages show (the options page shows it only after "Show key"),
 *   - not in an exported file, its name, or its download URL (what the download history keeps).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll } from 'vitest';
import { type EmulatorHandle, startEmulator } from '../../emulator/index.ts';
import { allowDownloads } from './harness/downloads.ts';
import {
  allByRole,
  byRole,
  configureExtension,
  expect,
  hourlyChartOf,
  openSection,
  pressAndWaitForOutcome,
  readVisibleText,
  test,
  waitForStatus,
} from './harness/index.ts';

/** Distinctive, and different once URL-encoded, so an encoded copy is caught too. */
const KEY = 'kh-Secret+7d1e/9b40=c2';
const KEY_FORMS = [KEY, encodeURIComponent(KEY), new URLSearchParams({ k: KEY }).toString().slice(2)];

let emulator: EmulatorHandle;
beforeAll(async () => {
  emulator = await startEmulator({ key: KEY });
  emulator.admin.setDumpGuard(false);
});
afterAll(() => emulator.close());

const leaks = (text: string) => KEY_FORMS.some((form) => text.includes(form));

type ExtensionGlobal = {
  chrome: { storage: Record<'local' | 'sync', { get(keys: null): Promise<Record<string, unknown>> }> };
};

function storageArea(page: Page, area: 'local' | 'sync'): Promise<Record<string, unknown>> {
  return page.evaluate(
    (name) => (globalThis as unknown as ExtensionGlobal).chrome.storage[name].get(null),
    area,
  );
}

/** Every status region's text and the page's whole rendered text. */
async function shownTexts(page: Page): Promise<string> {
  const statuses = await Promise.all(
    (await allByRole(page, 'status')).map((h) => h.evaluate(readVisibleText)),
  );
  // An assertion, not a lookup: the key must be absent from everything the page shows.
  return `${statuses.join('\n')}\n${await page.$eval('body', readVisibleText)}`;
}

/** The names of the options page's navigation entries. */
async function sectionNames(page: Page): Promise<string[]> {
  const links = await allByRole(page, 'link', undefined, { within: { role: 'navigation' } });
  const names = await Promise.all(links.map((link) => link.evaluate(readVisibleText)));
  await Promise.all(links.map((link) => link.dispose()));
  return names;
}

const keyFieldType = (page: Page) =>
  byRole(page, 'textbox', 'API key')
    .map((input) => (input as HTMLInputElement).type)
    .wait();

test('the key stays in storage.local and nowhere else, whatever the user does (Chromium)', async ({
  chromium,
}) => {
  const downloads = await mkdtemp(join(tmpdir(), 'key-hygiene-'));
  const downloadUrls: string[] = [];
  const downloadNames: string[] = [];
  try {
    const cdp = await allowDownloads(chromium.browser, downloads);
    let completed = 0;
    cdp.on('Browser.downloadWillBegin', (event) => {
      downloadUrls.push(event.url);
      downloadNames.push(event.suggestedFilename);
    });
    cdp.on('Browser.downloadProgress', (event) => {
      if (event.state === 'completed') completed++;
    });

    // Setup: typed into a masked field, saved, tested.
    const options = await chromium.openOptions();
    expect(await keyFieldType(options)).toBe('password');
    expect(await configureExtension(options, { baseUrl: emulator.url, key: KEY, form: 'A' })).toMatch(
      /^Saved/,
    );
    await openSection(options, 'Setup');
    expect(await pressAndWaitForOutcome(options, 'Test connection')).toMatch(/^Connected/);

    // Account sections, Register now, statistics and the raw log.
    await openSection(options, 'Whitelist');
    await byRole(options, 'button', 'Remove allowed-demo.example from the whitelist').wait();
    await openSection(options, 'Dynamic IP');
    await byRole(options, 'textbox', 'IP lookup URL').fill(`${emulator.url}/ip`);
    await byRole(options, 'textbox', 'More IP lookup URLs, tried in order (one per line)').fill(
      `${emulator.url}/ip.json`,
    );
    expect(await pressAndWaitForOutcome(options, 'Register now', 30_000)).toMatch(/^Registered /);
    const newest = emulator.admin.state().logs[0]?.date as string;
    await openSection(options, 'Logs');
    await byRole(options, 'img', hourlyChartOf(newest)).wait();

    // Once every section has loaded: failures, one of them quoting the key back in its reason.
    await openSection(options, 'Setup');
    emulator.admin.injectFault({ kind: 'odd-reason', reason: `API key ${KEY} is suspended`, count: 1 });
    const quoted = await pressAndWaitForOutcome(options, 'Test connection');
    expect(quoted).toContain('API key [key] is suspended');
    emulator.admin.injectFault({ kind: 'http-500', count: 1 });
    expect(await pressAndWaitForOutcome(options, 'Test connection')).toContain('HTTP 500');
    // Chromium retries a GET whose reused connection closed unanswered, once per idle connection
    // it holds to the server: every retry is dropped too.
    emulator.admin.injectFault({ kind: 'drop', count: 10 });
    expect(await pressAndWaitForOutcome(options, 'Test connection')).toContain('could not be reached');
    emulator.admin.clearFaults();

    // Save to file as in a browser without the File System Access API: a download.
    await options.evaluate(() => Object.defineProperty(window, 'showSaveFilePicker', { value: undefined }));
    await openSection(options, 'Logs');
    await byRole(options, 'button', 'Save to file').click();
    await waitForStatus(options, { startsWith: 'Saved' }, { name: 'Raw log', timeout: 30_000 });

    // Settings export, as offered (without the key).
    await openSection(options, 'Backup');
    expect(await pressAndWaitForOutcome(options, 'Export settings')).toMatch(/without the API key/);
    await expect.poll(() => completed, { timeout: 15_000 }).toBe(2);

    // The popup and a one-click change through the worker, once failing (the worker queues it).
    const tab = await chromium.openSiteTab('key-hygiene.example', '/page');
    const popup = await chromium.openPopup(tab);
    await waitForStatus(popup, { startsWith: 'Not blocked' }, { name: 'Verdict', timeout: 20_000 });
    emulator.admin.injectFault({ kind: 'http-500', count: 1 });
    await byRole(popup, 'button', 'Whitelist').click();
    await waitForStatus(popup, { startsWith: 'Waiting to add' }, { name: 'Change outcome', timeout: 30_000 });
    await byRole(popup, 'button', 'Send now').click();
    await waitForStatus(
      popup,
      { contains: 'was added to the whitelist' },
      { name: 'Change outcome', timeout: 30_000 },
    );

    // A popup closes when another tab comes to the front: read what it shows now.
    const popupTexts = await shownTexts(popup);

    // The options page shows the key only when asked, and hides it again.
    await options.bringToFront();
    await options.reload({ waitUntil: 'load' });
    // Every section, one at a time: none shows the key.
    for (const section of await sectionNames(options)) {
      await openSection(options, section);
      expect(leaks(await shownTexts(options)), section).toBe(false);
    }
    await openSection(options, 'Setup');
    await expect
      .poll(() =>
        byRole(options, 'textbox', 'API key')
          .map((input) => (input as HTMLInputElement).value)
          .wait(),
      )
      .toBe(KEY);
    expect(await keyFieldType(options)).toBe('password');
    expect(leaks(await shownTexts(options))).toBe(false);
    await byRole(options, 'button', 'Show key').click();
    expect(await keyFieldType(options)).toBe('text');
    await byRole(options, 'button', 'Hide key').click();
    expect(await keyFieldType(options)).toBe('password');

    // ---- Where the key must not be ----
    expect(await storageArea(options, 'sync')).toEqual({});
    const local = await storageArea(options, 'local');
    expect(local.apiKey).toBe(KEY);
    const elsewhere = Object.entries(local).filter(
      ([name, value]) => name !== 'apiKey' && leaks(JSON.stringify(value)),
    );
    expect(elsewhere.map(([name]) => name)).toEqual([]);

    expect(leaks(popupTexts)).toBe(false);
    expect(leaks(await shownTexts(options))).toBe(false);

    // The capture works: a line logged by an extension page arrives, and so does one logged by the
    // service worker, so "absent from the worker's console" cannot pass for want of capture.
    await options.evaluate(() => console.info('key-hygiene probe'));
    await expect
      .poll(() => chromium.output.consoleLines().some((line) => line.includes('key-hygiene probe')))
      .toBe(true);
    await (await chromium.worker()).evaluate(() => console.info('key-hygiene worker probe'));
    await expect
      .poll(() => chromium.output.consoleLines().some((line) => line.includes('key-hygiene worker probe')))
      .toBe(true);
    expect(chromium.output.consoleLines().filter(leaks)).toEqual([]);
    // Nor anything else the browser printed (its own network error lines included).
    expect(chromium.output.lines().filter(leaks)).toEqual([]);

    expect(downloadUrls).toHaveLength(2);
    for (const url of downloadUrls) {
      expect(url).toMatch(/^blob:chrome-extension:\/\//);
      expect(leaks(url)).toBe(false);
    }
    expect(downloadNames.filter(leaks)).toEqual([]);
    const files = await readdir(downloads);
    expect(files).toHaveLength(2);
    for (const file of files) expect(leaks(await readFile(join(downloads, file), 'utf8'))).toBe(false);
  } finally {
    await rm(downloads, { recursive: true, force: true });
  }
}, 180_000);
