/**
 * The popup in Firefox, opened as a person opens it: a real click on the Extensions button, then
 * on the extension's item, with the site's tab in front (harness/firefox-popup.ts), which is what
 * grants activeTab. Against the emulator's demo account (emulator/seed.ts): default whitelists
 * allowed-demo.example and blocklists tracker.example.net; kids1 has lists of its own. The
 * right-click menu and the keyboard shortcut are driven in the same browser window
 * (harness/firefox-window.ts).
 */
import type { EmulatorHandle } from '../../emulator/index.ts';
import { hasActiveTabForSelectedTab } from './harness/firefox-popup.ts';
import {
  chooseInPopup,
  clickInPopup,
  popupSelectValue,
  popupStatus,
  popupTextOf,
  popupTexts,
} from './harness/firefox-popup-roles.ts';
import { chooseFromPageContextMenu, KEYS, pressKeys } from './harness/firefox-window.ts';
import { configureExtension, expect, type FirefoxSession, test } from './harness/index.ts';
import { fillIn, openAccount, press as optionsPress } from './options-helpers.ts';

type Popup = Awaited<ReturnType<typeof popupOn>>;

/** Several popups, each opened by two clicks in a fresh Firefox: slow on a busy two-core machine. */
const SLOW = { timeout: 150_000 };

async function popupOn(firefox: FirefoxSession, host: string) {
  const tab = await firefox.openSiteTab(host, '/page');
  return firefox.openPopup(tab);
}

/** The verdict once it is known (not the "Checking…" text shown before). */
const verdict = (popup: Popup, start: string) => popupStatus(popup, { startsWith: start }, 'Verdict');

/** Presses a one-click button and returns the outcome once the background has answered. */
async function press(popup: Popup, button: string): Promise<string> {
  await clickInPopup(popup, 'button', button);
  return popupStatus(popup, /^(?!.*…$).+/, 'Change outcome');
}

function listsOf(emulator: EmulatorHandle, profile: string) {
  const state = emulator.admin.state().profiles[profile];
  return { whitelist: state?.whitelist ?? [], blocklist: state?.blocklist ?? [] };
}

test(
  'each kind of verdict, in the popup a click on the toolbar opens (Firefox)',
  SLOW,
  async ({ firefox, emulator }) => {
    await configureExtension(firefox.optionsPage, { baseUrl: emulator.url, key: emulator.key, form: 'A' });

    const whitelisted = await popupOn(firefox, 'allowed-demo.example');
    expect(await hasActiveTabForSelectedTab(firefox.window, firefox.extensionId)).toBe(true);
    expect(await verdict(whitelisted, 'Allowed')).toBe('Allowed: On the whitelist of profile default.');
    // The site the verdict is about is the heading above it.
    expect(await popupTextOf(whitelisted, 'heading', 'allowed-demo.example')).toBe('allowed-demo.example');
    expect(
      await whitelisted.run("return view.performance.getEntriesByType('mark').map((mark) => mark.name)"),
    ).toContain('verdict');
    await whitelisted.close();

    const blocklisted = await popupOn(firefox, 'cdn.tracker.example.net');
    expect(await verdict(blocklisted, 'Blocked')).toBe(
      'Blocked: Covered by the blocklist entry tracker.example.net of profile default.',
    );
    expect(await popupTextOf(blocklisted, 'heading', 'cdn.tracker.example.net')).toBe(
      'cdn.tracker.example.net',
    );
    await blocklisted.close();

    const notBlocked = await popupOn(firefox, 'weather.example.com');
    expect(await verdict(notBlocked, 'Not blocked')).toBe(
      'Not blocked: On no list of profile default; no blocked queries today.',
    );
    expect(await popupTextOf(notBlocked, 'heading', 'weather.example.com')).toBe('weather.example.com');
    await notBlocked.close();
  },
);

test(
  'Blocklist, Whitelist, Undo and Remove for a chosen profile (Firefox)',
  SLOW,
  async ({ firefox, emulator }) => {
    await configureExtension(firefox.optionsPage, { baseUrl: emulator.url, key: emulator.key, form: 'A' });

    const popup = await popupOn(firefox, 'www.shop.example');
    await verdict(popup, 'Not blocked');
    expect(await press(popup, 'Blocklist')).toMatch(
      /^shop\.example was added to the blocklist of profile default/,
    );
    expect(await verdict(popup, 'Blocked')).toMatch(
      /^Blocked: Covered by the blocklist entry shop\.example of profile default\. Since .+, from the popup\.$/,
    );
    expect(listsOf(emulator, 'default').blocklist).toContain('shop.example');

    expect(await press(popup, 'Whitelist')).toMatch(
      /^shop\.example was added to the whitelist of profile default and removed from the blocklist\./,
    );
    await verdict(popup, 'Allowed');
    expect(listsOf(emulator, 'default').whitelist).toContain('shop.example');
    expect(listsOf(emulator, 'default').blocklist).not.toContain('shop.example');

    await press(popup, 'Undo');
    await verdict(popup, 'Blocked');
    expect(listsOf(emulator, 'default').blocklist).toContain('shop.example');
    expect(listsOf(emulator, 'default').whitelist).not.toContain('shop.example');

    await press(popup, 'Remove from blocklist');
    await verdict(popup, 'Not blocked');
    expect(listsOf(emulator, 'default').blocklist).not.toContain('shop.example');

    await chooseInPopup(popup, 'Profile', 'kids1');
    await verdict(popup, 'Not blocked: On no list of profile kids1');
    expect(await press(popup, 'Whitelist')).toMatch(
      /^shop\.example was added to the whitelist of profile kids1/,
    );
    expect(listsOf(emulator, 'kids1').whitelist).toContain('shop.example');
    expect(listsOf(emulator, 'default').whitelist).not.toContain('shop.example');
    await popup.close();

    // The chosen profile is remembered by the next popup.
    const reopened = await popupOn(firefox, 'shop.example');
    expect(await verdict(reopened, 'Allowed')).toMatch(
      /^Allowed: On the whitelist of profile kids1\. Since .+, from the popup\.$/,
    );
    expect(await popupSelectValue(reopened, 'Profile')).toBe('kids1');
    await press(reopened, 'Remove from whitelist');
    await verdict(reopened, 'Not blocked');
    expect(listsOf(emulator, 'kids1').whitelist).not.toContain('shop.example');
  },
);

test('no key: what to do, and Open settings brings the options page to the front (Firefox)', async ({
  firefox,
}) => {
  const popup = await popupOn(firefox, 'example.com');
  expect(await verdict(popup, 'No API key is set')).toMatch(/settings/);
  expect(await popupTexts(popup, 'button', 'Whitelist')).toEqual([]);
  await clickInPopup(popup, 'button', 'Open settings');
  const selectedUrl = () => firefox.window.evaluate<string>('gBrowser.selectedBrowser.currentURI.spec');
  // The options page the extension opened on install, moved to its Setup section: not a second one.
  await expect.poll(selectedUrl, { timeout: 10_000 }).toBe(`${firefox.extensionOrigin}/options.html#setup`);
  expect(
    await firefox.window.evaluate<number>(
      `gBrowser.tabs.filter((tab) => tab.linkedBrowser.currentURI.spec.startsWith('${firefox.extensionOrigin}/options.html')).length`,
    ),
  ).toBe(1);
});

test(
  'the right-click menu and the keyboard shortcut act on the site (Firefox)',
  SLOW,
  async ({ firefox, emulator }) => {
    await configureExtension(firefox.optionsPage, { baseUrl: emulator.url, key: emulator.key, form: 'A' });
    const tab = await firefox.openSiteTab('www.shop.example', '/page');
    await tab.bringToFront();

    await chooseFromPageContextMenu(firefox.window, ['DNS Filter Companion', 'Blocklist this site', 'kids1']);
    await expect
      .poll(() => listsOf(emulator, 'kids1').blocklist, { timeout: 15_000 })
      .toContain('shop.example');
    expect(listsOf(emulator, 'default').blocklist).not.toContain('shop.example');

    // Alt+Shift+W: whitelist the site for the last chosen profile (default, none was chosen).
    await pressKeys(firefox.window, [KEYS.Alt, KEYS.Shift, KEYS.letter('w')]);
    await expect
      .poll(() => listsOf(emulator, 'default').whitelist, { timeout: 15_000 })
      .toContain('shop.example');
  },
);

test(
  'the popup shows a change made on the options page at its next opening (Firefox)',
  SLOW,
  async ({ firefox, emulator }) => {
    const page = await openAccount(firefox.optionsPage, {
      baseUrl: emulator.url,
      key: emulator.key,
      form: 'B',
    });
    for (let opening = 0; opening < 2; opening++) {
      const popup = await popupOn(firefox, 'news.example.org');
      await verdict(popup, 'Not blocked');
      await popup.close();
    }
    await fillIn(page, 'Blocklist', 'textbox', 'Domains to add to the blocklist', 'news.example.org');
    expect(await optionsPress(page, 'Add to blocklist')).toContain('Added 1 of 1 domain');
    const after = await popupOn(firefox, 'news.example.org');
    expect(await verdict(after, 'Blocked')).toMatch(/^Blocked: On the blocklist/);
    await after.close();
  },
);
