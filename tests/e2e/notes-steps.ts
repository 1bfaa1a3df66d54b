/**
 * The steps of the notes end-to-end tests that are the same in Chromium and Firefox: the options
 * page is a puppeteer Page in both browsers (only the popup differs), so what it shows of an
 * entry's record, and the note written there, are checked here once.
 */
import type { Page } from 'puppeteer-core';
import { storedValue } from './harness/extension-storage.ts';
import { byRole, expect, textOf, waitForStatus } from './harness/index.ts';

/** The site whose entry gets a note, and the page of it the popup is opened on. */
export const SITE = 'notes-school.example';
export const PAGE_HOST = `portal.${SITE}`;

const WHITELIST = { role: 'region', name: 'Whitelist' };

/**
 * In the options page's Whitelist (shown, with the entry the popup added): the entry says where
 * it came from, entries not added here say so, a note is written in its "Note" textbox, and the
 * filter finds the entry by that note.
 */
export async function writeNoteInOptions(options: Page, note: string): Promise<void> {
  const row = () => textOf(options, 'listitem', undefined, { within: WHITELIST, text: { startsWith: SITE } });
  expect(await row()).toMatch(
    new RegExp(`^${SITE} Added .+ from the popup on ${PAGE_HOST.replaceAll('.', '\\.')}`),
  );
  // Entries the browser did not add say so.
  expect(
    await textOf(options, 'listitem', undefined, {
      within: WHITELIST,
      text: { startsWith: 'allowed-demo.example' },
    }),
  ).toContain('Added elsewhere');

  await byRole(options, 'button', `Write a note for ${SITE}`, { within: WHITELIST }).click();
  await byRole(options, 'textbox', 'Note', { within: WHITELIST }).fill(note);
  await byRole(options, 'button', 'Save note', { within: WHITELIST }).click();
  await waitForStatus(options, `Note saved for ${SITE}.`, { within: WHITELIST });
  await options.waitForFunction(
    (site, quoted) =>
      [...document.querySelectorAll('li')].some(
        (item) => item.textContent?.startsWith(site) && item.textContent.includes(quoted),
      ),
    {},
    SITE,
    `“${note}”`,
  );

  // The filter finds it by its note.
  await byRole(options, 'textbox', { startsWith: 'Filter' }, { within: WHITELIST }).fill(note);
  expect(await row()).toContain(`“${note}”`);
}

/** Whether the extension keeps a record of the site's entry (in any account's notes). */
export async function siteHasRecord(options: Page): Promise<boolean> {
  const keys = Object.keys(((await storedValue(options, 'listNotesAccounts')) as object | undefined) ?? {});
  const stored = await Promise.all(keys.map((account) => storedValue(options, `listNotes:${account}`)));
  return JSON.stringify(stored).includes(`"domain":"${SITE}"`);
}
