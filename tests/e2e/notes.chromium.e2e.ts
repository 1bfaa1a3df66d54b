/**
 * Lists that remember why, in a real Chromium with the real toolbar popup: an entry whitelisted
 * from the popup is recorded with the page it was added on; the options page shows that under
 * the entry and takes a note in its "Note" textbox; the popup's verdict line then names the note.
 */

import {
  byRole,
  configureExtension,
  describe,
  expect,
  test,
  textOf,
  waitForStatus,
} from './harness/index.ts';
import { PAGE_HOST, SITE, siteHasRecord, writeNoteInOptions } from './notes-steps.ts';

describe('lists that remember why (Chromium)', () => {
  test('a note written in the options page shows in the popup’s verdict line', async ({
    chromium,
    emulator,
  }) => {
    const options = await chromium.openOptions();
    await configureExtension(options, { baseUrl: emulator.url, key: emulator.key, form: 'A' });

    // Whitelisted from the popup, on a page of the site.
    const firstPopup = await chromium.openPopup(await chromium.openSiteTab(PAGE_HOST, '/page'));
    await waitForStatus(firstPopup, { startsWith: 'Not blocked' }, { name: 'Verdict' });
    await byRole(firstPopup, 'button', 'Whitelist').click();
    await waitForStatus(firstPopup, { contains: 'was added to the whitelist' });
    // The popup's own verdict says at once where the entry came from.
    expect(await waitForStatus(firstPopup, { startsWith: 'Allowed' }, { name: 'Verdict' })).toMatch(
      /Since .+, from the popup\.$/,
    );
    expect(emulator.admin.state().profiles.default?.whitelist).toContain(SITE);
    await firstPopup.close();

    // The options page lists it with where it came from, and takes a note.
    // In front again: a page in a background tab gets no animation frames, which clicks wait for.
    await options.bringToFront();
    // The Whitelist section (a page showing one section at a time opens it from the address).
    await options.goto(`${options.url().replace(/#.*$/, '')}#whitelist`);
    await options.reload();
    await writeNoteInOptions(options, 'school portal');

    // The popup's verdict names the note of the entry that decides it.
    const popup = await chromium.openPopup(await chromium.openSiteTab(PAGE_HOST, '/page'));
    const verdict = await waitForStatus(popup, { contains: 'school portal' }, { name: 'Verdict' });
    expect(verdict).toMatch(/^Allowed ?: .* Since .+, from the popup: “school portal”$/);

    // Removed and put back with Undo, the entry keeps its record and note.
    await byRole(popup, 'button', 'Remove from whitelist').click();
    await waitForStatus(popup, { contains: 'was removed from the whitelist' });
    expect(await siteHasRecord(options)).toBe(false);
    await byRole(popup, 'button', 'Undo').click();
    // Polled: waiting for the selector missed this change of the verdict's text in Chromium's
    // popup, which polling sees within half a second.
    await expect
      .poll(() => textOf(popup, 'status', 'Verdict'), { timeout: 10_000 })
      .toMatch(/^Allowed ?: .* Since .+, from the popup: “school portal”$/);
    expect(emulator.admin.state().profiles.default?.whitelist).toContain(SITE);
    expect(await siteHasRecord(options)).toBe(true);

    // Removed (here from the popup), the entry takes its record and note with it.
    await byRole(popup, 'button', 'Remove from whitelist').click();
    await waitForStatus(popup, { contains: 'was removed from the whitelist' });
    await expect.poll(() => siteHasRecord(options)).toBe(false);
  });
});
