/**
 * Lists that remember why, in Firefox, through the popup a real click on the toolbar opens
 * (harness/firefox-popup.ts): an entry whitelisted from the popup is recorded with the page it
 * was added on; the options page shows that and takes a note; the popup's verdict line then names
 * the note, keeps it through a removal that is undone, and loses it with a removal that is not.
 */
import { clickInPopup, popupStatus } from './harness/firefox-popup-roles.ts';
import { configureExtension, expect, type FirefoxSession, openSection, test } from './harness/index.ts';
import { PAGE_HOST, SITE, siteHasRecord, writeNoteInOptions } from './notes-steps.ts';

/** Three popups, each opened by two clicks in a fresh Firefox: slow on a busy two-core machine. */
const SLOW = { timeout: 150_000 };

async function popupOnSite(firefox: FirefoxSession) {
  return firefox.openPopup(await firefox.openSiteTab(PAGE_HOST, '/page'));
}

test(
  'a note written in the options page shows in the popup’s verdict line (Firefox)',
  SLOW,
  async ({ firefox, emulator }) => {
    const options = firefox.optionsPage;
    await configureExtension(options, { baseUrl: emulator.url, key: emulator.key, form: 'A' });

    // Whitelisted from the popup, on a page of the site.
    const firstPopup = await popupOnSite(firefox);
    await popupStatus(firstPopup, { startsWith: 'Not blocked' }, 'Verdict');
    await clickInPopup(firstPopup, 'button', 'Whitelist');
    await popupStatus(firstPopup, { contains: 'was added to the whitelist' }, 'Change outcome');
    // The popup's own verdict says at once where the entry came from.
    expect(await popupStatus(firstPopup, { startsWith: 'Allowed' }, 'Verdict')).toMatch(
      /Since .+, from the popup\.$/,
    );
    expect(emulator.admin.state().profiles.default?.whitelist).toContain(SITE);
    await firstPopup.close();

    // The options page lists it with where it came from, and takes a note.
    await options.bringToFront();
    await openSection(options, 'Whitelist');
    await writeNoteInOptions(options, 'school portal');

    // The popup's verdict names the note of the entry that decides it.
    const popup = await popupOnSite(firefox);
    expect(await popupStatus(popup, { contains: 'school portal' }, 'Verdict')).toMatch(
      /^Allowed ?: .* Since .+, from the popup: “school portal”$/,
    );

    // Removed and put back with Undo, the entry keeps its record and note.
    await clickInPopup(popup, 'button', 'Remove from whitelist');
    await popupStatus(popup, { contains: 'was removed from the whitelist' }, 'Change outcome');
    expect(emulator.admin.state().profiles.default?.whitelist).not.toContain(SITE);
    await clickInPopup(popup, 'button', 'Undo');
    expect(await popupStatus(popup, { contains: 'school portal' }, 'Verdict')).toMatch(
      /^Allowed ?: .* Since .+, from the popup: “school portal”$/,
    );
    expect(emulator.admin.state().profiles.default?.whitelist).toContain(SITE);
    expect(await siteHasRecord(options)).toBe(true);

    // Removed for good, the entry takes its record and note with it.
    await clickInPopup(popup, 'button', 'Remove from whitelist');
    await popupStatus(popup, { contains: 'was removed from the whitelist' }, 'Change outcome');
    await expect.poll(() => siteHasRecord(options)).toBe(false);
  },
);
