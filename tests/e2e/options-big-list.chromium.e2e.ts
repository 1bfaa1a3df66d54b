/**
 * A 10,000-entry whitelist stays usable: only a window of rows is in the page, the filter box
 * narrows it to what matches, and scrolling reaches the last entry. How fast the filter answers
 * is a bench figure (`npm run bench -- --only=lists`), not a timed test.
 */
import { bigListDomainAt as domainAt, seedWhitelist } from './harness/big-whitelist.ts';
import { allByRole, byRole, expect, test } from './harness/index.ts';
import { openAccount } from './options-helpers.ts';

const ENTRIES = 10_000;

test('a 10,000-entry whitelist renders a window of rows, filters to what matches and scrolls to its end (Chromium)', async ({
  chromium,
  emulator,
}) => {
  await seedWhitelist(emulator, ENTRIES);
  const page = await openAccount(await chromium.openOptions(), {
    baseUrl: emulator.url,
    key: emulator.key,
    form: 'B',
  });
  await byRole(page, 'region', 'Whitelist', { text: { contains: '10,002 domains' } }).wait();

  const entries = () => byRole(page, 'list', 'Whitelist entries');
  const rowsInPage = async () => {
    const list = await entries().waitHandle();
    try {
      const items = await allByRole(list, 'listitem');
      await Promise.all(items.map((item) => item.dispose()));
      return items.length;
    } finally {
      await list.dispose();
    }
  };
  expect(await rowsInPage()).toBeLessThan(60);

  // Typing in the filter box leaves the one matching entry (the bench times it: docs/performance.md).
  await byRole(page, 'textbox', 'Filter the whitelist').fill('site09876');
  await expect.poll(rowsInPage).toBe(1);
  await byRole(page, 'button', 'Remove site09876.example.com from the whitelist').wait();

  // Clearing the filter and scrolling to the end shows the last entry.
  const filter = await byRole(page, 'textbox', 'Filter the whitelist').waitHandle();
  await filter.click({ count: 3 });
  await filter.press('Backspace');
  await filter.dispose();
  await byRole(page, 'region', 'Whitelist', { text: { contains: '10,002 domains' } }).wait();
  // Scroll the list's scrolling box (its parent) to the end.
  await entries()
    .map((items) => {
      const scroller = items.parentElement as HTMLElement;
      scroller.scrollTop = scroller.scrollHeight;
      return scroller.scrollTop;
    })
    .wait();
  await byRole(page, 'button', `Remove ${domainAt(ENTRIES - 1)} from the whitelist`).wait();
  expect(await rowsInPage()).toBeLessThan(60);
}, 180_000); // Seeding 10,000 entries over HTTP takes most of this on a busy two-core machine.
