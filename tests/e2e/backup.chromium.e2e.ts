/**
 * Settings backup through the real options page: export in one browser profile, import in a
 * fresh one. Downloads land in a temporary folder (DevTools protocol Browser.setDownloadBehavior),
 * and the import goes through the browser's file chooser, as a person would do it.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { allowDownloads } from './harness/downloads.ts';
import {
  byRole,
  type ChromiumSession,
  chooseOption,
  configureExtension,
  expect,
  launchChromium,
  openSection,
  pressAndWaitForOutcome,
  saveFailureArtifacts,
  showSection,
  test,
  testConnection,
  waitForStatus,
} from './harness/index.ts';

const BACKUP = { role: 'region', name: 'Backup' };
const MENU_SWITCH = { contains: 'right-click menu' };

/**
 * Sends the browser's downloads to `folder`; the returned function waits for the next download
 * to complete and gives its path (from the download events, not by watching the folder, where
 * the browser's temporary files come and go).
 */
async function downloadInto(browser: Browser, folder: string): Promise<() => Promise<string>> {
  const session = await allowDownloads(browser, folder);
  const completed: string[] = [];
  const waiting: Array<(path: string) => void> = [];
  session.on('Browser.downloadProgress', (event) => {
    if (event.state !== 'completed' || !event.filePath) return;
    const next = waiting.shift();
    if (next) next(event.filePath);
    else completed.push(event.filePath);
  });
  return () => {
    const done = completed.shift();
    if (done) return Promise.resolve(done);
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`No download completed in ${folder}`)), 15_000);
      waiting.push((path) => {
        clearTimeout(timer);
        resolve(path);
      });
    });
  };
}

/** Imports `file`; `confirmDestinations`: the file moves the service, so the page asks first. */
async function importFile(page: Page, file: string, confirmDestinations = false): Promise<string> {
  await showSection(page, 'Backup');
  const [chooser] = await Promise.all([
    page.waitForFileChooser(),
    byRole(page, 'button', 'Import settings', { within: BACKUP }).click(),
  ]);
  await chooser.accept([file]);
  if (confirmDestinations) {
    await byRole(page, 'button', 'Import', {
      within: { role: 'dialog', name: 'Use the addresses in this file?' },
    }).click();
  }
  return waitForStatus(page, { startsWith: 'Imported' }, { name: 'Backup' });
}

const fieldValue = (page: Page, role: string, name: string) =>
  byRole(page, role, name)
    .map((element) => (element as HTMLInputElement).value)
    .wait();

/** The section of the right-click menu switch. */
const MENU_SECTION = 'Right-click menu and shortcuts';

const menuChecked = (page: Page) =>
  byRole(page, 'checkbox', MENU_SWITCH)
    .map((element) => (element as HTMLInputElement).checked)
    .wait();

test('settings exported in one profile are restored in a fresh one; the key only when ticked (Chromium)', async ({
  chromium,
  emulator,
  site,
  task,
}) => {
  const folder = await mkdtemp(join(tmpdir(), 'dnsfc-backup-'));
  let fresh: ChromiumSession | undefined;
  try {
    // --- The first browser: set up, change a few settings, export twice.
    const nextDownload = await downloadInto(chromium.browser, folder);
    const options = await chromium.openOptions();
    await configureExtension(options, { baseUrl: emulator.url, key: emulator.key, form: 'B' });
    await openSection(options, 'Appearance');
    await chooseOption(options, 'Theme', 'Dark');
    expect(await pressAndWaitForOutcome(options, 'Save appearance')).toBe('Saved.');
    await openSection(options, MENU_SECTION);
    await byRole(options, 'checkbox', MENU_SWITCH).click();
    await expect.poll(() => menuChecked(options)).toBe(false);
    expect(await pressAndWaitForOutcome(options, 'Save menu setting')).toBe('Saved.');
    await openSection(options, 'Backup');

    const exported = await pressAndWaitForOutcome(options, 'Export settings');
    expect(exported).toMatch(/^Exported to dns-filter-companion-settings-.*\.json, without the API key\.$/);
    const withoutKey = await nextDownload();
    const withoutKeyText = await readFile(withoutKey, 'utf8');
    expect(withoutKeyText).not.toContain(emulator.key);
    expect(JSON.parse(withoutKeyText).settings).toMatchObject({
      connection: { baseUrl: emulator.url, form: 'B' },
      theme: 'dark',
      contextMenu: { enabled: false },
    });

    await byRole(options, 'checkbox', 'Include the API key').click();
    expect(await options.evaluate(() => document.body.textContent)).toContain(
      'Whoever has the file can change your filtering account',
    );
    expect(await pressAndWaitForOutcome(options, 'Export settings')).toMatch(
      /with the API key: keep the file private/,
    );
    const withKey = await nextDownload();
    expect(await readFile(withKey, 'utf8')).toContain(emulator.key);
    await chromium.close();

    // --- A fresh profile: nothing set up until the files are imported.
    fresh = await launchChromium({ site });
    const restored = await fresh.openOptions();
    // No key yet: the page opens on Setup, the welcome.
    expect(await fieldValue(restored, 'textbox', 'Base URL')).not.toBe(emulator.url);

    // A fresh profile uses the default service: the file's service address is confirmed first.
    const report = await importFile(restored, withoutKey, true);
    expect(report).toMatch(/^Imported \d+ settings\. Details below\.$/);
    await openSection(restored, 'Setup');
    await expect.poll(() => fieldValue(restored, 'textbox', 'Base URL')).toBe(emulator.url);
    const formShown = await byRole(restored, 'combobox', 'API form')
      .map((select) => (select as HTMLSelectElement).selectedOptions[0]?.textContent ?? '')
      .wait();
    expect(formShown).toContain('/api/v1/');
    await openSection(restored, 'Appearance');
    expect(await fieldValue(restored, 'combobox', 'Theme')).toBe('dark');
    expect(await restored.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await openSection(restored, MENU_SECTION);
    expect(await menuChecked(restored)).toBe(false);
    // The key was not in the file: none is set, and the report says the stored one stays.
    await openSection(restored, 'Setup');
    expect(await fieldValue(restored, 'textbox', 'API key')).toBe('');
    expect(await restored.evaluate(() => document.body.textContent)).toMatch(/API key: not in the file/);

    await importFile(restored, withKey);
    await openSection(restored, 'Setup');
    await expect.poll(() => fieldValue(restored, 'textbox', 'API key')).toBe(emulator.key);
    expect(await testConnection(restored)).toMatch(/^Connected/);
    // The popup opens dark at once in the restored profile too (the theme's synchronous copy).
    const popupPage = await fresh.browser.newPage();
    await popupPage.goto(fresh.extensionUrl('popup.html'), { waitUntil: 'load' });
    expect(await popupPage.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await popupPage.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe(
      'dark',
    );
  } catch (error) {
    if (fresh) await saveFailureArtifacts(task, fresh).catch(() => undefined);
    throw error;
  } finally {
    await fresh?.close();
    await rm(folder, { recursive: true, force: true });
  }
});
