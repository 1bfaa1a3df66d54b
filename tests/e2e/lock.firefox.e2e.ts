/**
 * The passphrase lock in real Firefox (docs/lock.md): turned on in the options page; locked, a
 * popup on a blocked site still shows its verdict; Whitelist asks for the passphrase in the
 * popup, a wrong one is refused, the right one unlocks and the whitelisting reaches the service;
 * Show key asks for it too.
 */
import type { FirefoxPopup } from './harness/firefox-popup.ts';
import { clickInPopup, popupStatus } from './harness/firefox-popup-roles.ts';
import { allByRole, byRole, configureExtension, expect, test } from './harness/index.ts';

const PASSPHRASE = 'correct horse battery staple';

/** Types into the popup's Passphrase field as a person would (an input event per change). */
function typePassphrase(popup: FirefoxPopup, value: string): Promise<unknown> {
  return popup.run(`
    const field = view.document.querySelector('input[type=password]');
    field.focus();
    field.value = ${JSON.stringify(value)};
    field.dispatchEvent(new view.Event('input', { bubbles: true }));
    return true;`);
}

test('locked: the verdict shows, Whitelist and Show key ask for the passphrase (Firefox)', {
  timeout: 150_000,
}, async ({ firefox, emulator }) => {
  const options = firefox.optionsPage;
  await configureExtension(options, { baseUrl: emulator.url, key: emulator.key, form: 'A' });
  await byRole(options, 'link', 'Lock').click();
  await byRole(options, 'textbox', 'Passphrase').fill(PASSPHRASE);
  await byRole(options, 'textbox', 'Repeat passphrase').fill(PASSPHRASE);
  await byRole(options, 'button', 'Turn on lock').click();
  await byRole(options, 'button', 'Lock now').wait();

  // Opened once unlocked, the popup keeps the site's lists: locked, it has no key to fetch them.
  const tab = await firefox.openSiteTab('blocked-demo.example', '/page');
  const first = await firefox.openPopup(tab);
  await popupStatus(first, { startsWith: 'Blocked' }, 'Verdict');
  // The fetched lists are stored as the fresh verdict shows: closed before, there would be none.
  await first.waitFor("view.performance.getEntriesByName('verdict-fresh').length > 0");
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  await first.close();
  await options.bringToFront();
  await byRole(options, 'button', 'Lock now').click();
  await byRole(options, 'button', 'Unlock').wait();

  const popup = await firefox.openPopup(tab);
  expect(await popupStatus(popup, { startsWith: 'Blocked' }, 'Verdict')).toMatch(/^Blocked/);
  await clickInPopup(popup, 'button', 'Whitelist');
  await typePassphrase(popup, 'not the passphrase');
  await clickInPopup(popup, 'button', 'Unlock');
  await popup.waitFor("document.querySelector('[role=alert]')?.textContent === 'Wrong passphrase.'");
  expect(emulator.admin.state().profiles.default?.whitelist).not.toContain('blocked-demo.example');

  await typePassphrase(popup, PASSPHRASE);
  await clickInPopup(popup, 'button', 'Unlock');
  await popupStatus(popup, /^blocked-demo\.example was added to the whitelist/, 'Change outcome');
  expect(emulator.admin.state().profiles.default?.whitelist).toContain('blocked-demo.example');

  // Locked again, the options page hides the key behind the passphrase.
  await clickInPopup(popup, 'button', 'Lock now');
  await popup.waitFor("[...document.querySelectorAll('button')].some((b) => b.textContent === 'Unlock')");
  // The open options page follows the lock: it turns into the passphrase field by itself.
  await options.bringToFront();
  await byRole(options, 'button', 'Unlock').wait();
  expect(await allByRole(options, 'button', 'Show key')).toHaveLength(0);
  await byRole(options, 'textbox', 'Passphrase').fill(PASSPHRASE);
  await byRole(options, 'button', 'Unlock').click();
  await byRole(options, 'link', 'Setup').click();
  await byRole(options, 'button', 'Show key').wait();
});
