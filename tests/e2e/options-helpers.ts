/**
 * Shared steps of the options-page account tests: everything by role and accessible name, as a
 * person with a screen reader would find it (ui-contract.md).
 */
import type { Page } from 'puppeteer-core';
import {
  type ApiFormName,
  allByRole,
  byRole,
  chooseOption,
  configureExtension,
  openSection,
  pressAndWaitForOutcome,
  readVisibleText,
  showSection,
  type TextMatch,
} from './harness/index.ts';

export { openSection, showSection };

export const FORMS: ApiFormName[] = ['A', 'B'];

/**
 * Saves the key for the emulator, then opens a section of the account through the navigation
 * (Categories, with the lists and the profile picker, unless told otherwise).
 */
export async function openAccount(
  page: Page,
  setup: { baseUrl: string; key: string; form: ApiFormName },
  section = 'Categories',
): Promise<Page> {
  await configureExtension(page, setup);
  await openSection(page, section);
  return page;
}

/** Fills a field inside a section (opened through the navigation when it is not shown). */
export async function fillIn(page: Page, section: string, role: string, name: TextMatch, value: string) {
  await showSection(page, section);
  await byRole(page, role, name, { within: { role: 'region', name: section } }).fill(value);
}

/** Presses a button in a section and returns the outcome its status region shows. */
export function press(page: Page, button: TextMatch): Promise<string> {
  return pressAndWaitForOutcome(page, button, 20_000);
}

/**
 * Clicks a checkbox or switch in a section and waits until the section's status region shows a
 * new final outcome (not a progress text ending in an ellipsis); returns it.
 */
export async function toggle(page: Page, section: string, role: 'checkbox' | 'switch', name: TextMatch) {
  await showSection(page, section);
  const within = { role: 'region', name: section };
  const status = await byRole(page, 'status', undefined, { within }).waitHandle();
  try {
    // Mark the region so a repeated identical outcome is still seen as new.
    await status.evaluate((element) => {
      element.setAttribute('data-e2e-seen', element.textContent ?? '');
      new MutationObserver(() => element.setAttribute('data-e2e-changed', '1')).observe(element, {
        childList: true,
        subtree: true,
        characterData: true,
      });
      element.removeAttribute('data-e2e-changed');
    });
    await byRole(page, role, name, { within }).click();
    await page.waitForFunction(
      (element) => {
        const text = (element.textContent ?? '').trim();
        return element.hasAttribute('data-e2e-changed') && text !== '' && !text.endsWith('…');
      },
      { timeout: 20_000 },
      status,
    );
    return (await status.evaluate(readVisibleText)).trim();
  } finally {
    await status.dispose();
  }
}

/** Visible texts of the items of a list, now. */
export async function listItems(page: Page, listName: TextMatch): Promise<string[]> {
  const [list] = await allByRole(page, 'list', listName);
  if (!list) return [];
  const items = await allByRole(list, 'listitem');
  const texts = await Promise.all(items.map((item) => item.evaluate(readVisibleText)));
  await Promise.all([list, ...items].map((handle) => handle.dispose()));
  return texts;
}

/** The value of a textbox (a textarea too). */
export async function fieldValueIn(page: Page, section: string, name: TextMatch): Promise<string> {
  await showSection(page, section);
  return byRole(page, 'textbox', name, { within: { role: 'region', name: section } })
    .map((element) => (element as HTMLInputElement).value)
    .wait();
}

/** Visible text of a whole section. */
export async function sectionText(page: Page, section: string): Promise<string> {
  await showSection(page, section);
  // The rendered text (hidden parts left out, blocks apart): the harness's one reader of it.
  return byRole(page, 'region', section).map(readVisibleText).wait();
}

/** Chooses the profile the filtering sections act on (Form A), in their view. */
export async function chooseProfile(page: Page, profile: string) {
  await showSection(page, 'Categories');
  await chooseOption(page, 'Profile', profile);
}
