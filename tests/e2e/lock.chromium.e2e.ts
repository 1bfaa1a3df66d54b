/**
 * The passphrase lock in real Chromium (docs/lock.md): turned on in the options page, then a
 * popup on a blocked site still shows its verdict; Whitelist asks for the passphrase in the
 * popup, a wrong one is refused, the right one unlocks and the whitelisting reaches the service;
 * Show key asks for it too; after the idle time the page is locked again.
 */
import type { Page } from 'puppeteer-core';
import {
  allByRole,
  byRole,
  type ChromiumSession,
  configureExtension,
  expect,
  test,
  waitForStatus,
} from './harness/index.ts';

const PASSPHRASE = 'correct horse battery staple';

async function turnOnLock(chromium: ChromiumSession, emulator: { url: string; key: string }): Promise<Page> {
  const options = await chromium.openOptions();
  await configureExtension(options, { baseUrl: emulator.url, key: emulator.key, form: 'A' });
  await options.waitForFunction(() => !document.querySelector('[aria-busy="true"]'), { timeout: 20_000 });
  await byRole(options, 'link', 'Lock').click();
  await byRole(options, 'heading', 'Lock').wait();
  await byRole(options, 'textbox', 'Passphrase').fill(PASSPHRASE);
  await byRole(options, 'textbox', 'Repeat passphrase').fill(PASSPHRASE);
  await byRole(options, 'button', 'Turn on lock').click();
  await byRole(options, 'button', 'Lock now').wait();
  return options;
}

/** Every value the extension keeps in storage.local and storage.sync, as text. */
async function persistentStorage(page: Page): Promise<string> {
  return page.evaluate(async () => {
    type Area = { get(keys: null): Promise<object> };
    const { storage } = (globalThis as unknown as { chrome: { storage: { local: Area; sync: Area } } })
      .chrome;
    return JSON.stringify([await storage.local.get(null), await storage.sync.get(null)]);
  });
}

test('locked: the verdict shows, Whitelist and Show key ask for the passphrase (Chromium)', async ({
  chromium,
  emulator,
}) => {
  const options = await turnOnLock(chromium, emulator);
  expect(await persistentStorage(options)).not.toContain(emulator.key);
  // Opened once unlocked, the popup keeps the site's lists: locked, it has no key to fetch them.
  const tab = await chromium.openSiteTab('blocked-demo.example', '/page');
  const first = await chromium.openPopup(tab);
  await waitForStatus(first, { startsWith: 'Blocked' }, { name: 'Verdict' });
  // The fetched lists are stored as the fresh verdict shows: closed before, there would be none.
  await first.waitForFunction(() => performance.getEntriesByName('verdict-fresh').length > 0);
  await first.close();
  await options.bringToFront();
  await byRole(options, 'button', 'Lock now').click();
  await byRole(options, 'button', 'Unlock').wait();

  await tab.bringToFront();
  const popup = await chromium.openPopup(tab);
  expect(await waitForStatus(popup, { startsWith: 'Blocked' }, { name: 'Verdict' })).toMatch(/^Blocked/);

  await byRole(popup, 'button', 'Whitelist').click();
  await byRole(popup, 'textbox', 'Passphrase').fill('not the passphrase');
  await byRole(popup, 'button', 'Unlock').click();
  await byRole(popup, 'alert', undefined, { text: 'Wrong passphrase.' }).wait();
  expect(emulator.admin.state().profiles.default?.whitelist).not.toContain('blocked-demo.example');

  await byRole(popup, 'textbox', 'Passphrase').fill(PASSPHRASE);
  await byRole(popup, 'button', 'Unlock').click();
  await waitForStatus(popup, /^blocked-demo\.example was added to the whitelist/, { name: 'Change outcome' });
  expect(emulator.admin.state().profiles.default?.whitelist).toContain('blocked-demo.example');

  // Locked again, the options page hides the key behind the passphrase.
  await byRole(popup, 'button', 'Lock now').click();
  await byRole(popup, 'button', 'Unlock').wait();
  await options.bringToFront();
  await options.reload();
  await byRole(options, 'button', 'Unlock').wait();
  expect(await allByRole(options, 'button', 'Show key')).toHaveLength(0);
  await byRole(options, 'textbox', 'Passphrase').fill(PASSPHRASE);
  await byRole(options, 'button', 'Unlock').click();
  await byRole(options, 'link', 'Setup').click();
  await byRole(options, 'button', 'Show key').wait();
});
