/**
 * Lists that remember why, in a real Chromium with the real toolbar popup: an entry whitelisted
 * from the popup is recorded with the page it was added on; the options page shows that under
 * the entry and takes a note in its "Note" textbox; the popup's verdict line then names the note.
 */

import { storedValue } from './harness/extension-storage.ts';
import {
  byRole,
  configureExtension,
  describe,
  expect,
  test,
  textOf,
  waitForStatus,
} from './harness/index.ts';

const SITE = 'notes-school.example';
const PAGE_HOST = `portal.${SITE}`;

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
    const whitelist = { role: 'region', name: 'Whitelist' };
    const row = () =>
      textOf(options, 'listitem', undefined, { within: whitelist, text: { startsWith: SITE } });
    expect(await row()).toMatch(
      new RegExp(`^${SITE} Added .+ from the popup on ${PAGE_HOST.replaceAll('.', '\\.')}`),
    );
    // Entries the browser did not add say so.
    expect(
      await textOf(options, 'listitem', undefined, {
        within: whitelist,
        text: { startsWith: 'allowed-demo.example' },
      }),
    ).toContain('Added elsewhere');

    await byRole(options, 'button', `Write a note for ${SITE}`, { within: whitelist }).click();
    await byRole(options, 'textbox', 'Note', { within: whitelist }).fill('school portal');
    await byRole(options, 'button', 'Save note', { within: whitelist }).click();
    await waitForStatus(options, `Note saved for ${SITE}.`, { within: whitelist });
    await options.waitForFunction(
      (site) =>
        [...document.querySelectorAll('li')].some(
          (item) => item.textContent?.startsWith(site) && item.textContent.includes('“school portal”'),
        ),
      {},
      SITE,
    );

    // The filter finds it by its note.
    await byRole(options, 'textbox', { startsWith: 'Filter' }, { within: whitelist }).fill('portal');
    expect(await row()).toContain('“school portal”');

    // The popup's verdict names the note of the entry that decides it.
    const popup = await chromium.openPopup(await chromium.openSiteTab(PAGE_HOST, '/page'));
    const verdict = await waitForStatus(popup, { contains: 'school portal' }, { name: 'Verdict' });
    expect(verdict).toMatch(/^Allowed ?: .* Since .+, from the popup: “school portal”$/);

    // Removed (here from the popup), the entry takes its record and note with it.
    await byRole(popup, 'button', 'Remove from whitelist').click();
    await waitForStatus(popup, { contains: 'was removed from the whitelist' });
    const noteOfSite = async () => {
      const keys = Object.keys((await storedValue(options, 'listNotesAccounts')) ?? {});
      const stored = await Promise.all(keys.map((account) => storedValue(options, `listNotes:${account}`)));
      return JSON.stringify(stored).includes(`"domain":"${SITE}"`);
    };
    expect(await noteOfSite()).toBe(false);
  });
});
