/**
 * A 10,000-entry whitelist stays responsive: only a window of rows is in the page, filtering
 * answers within a frame or two, and scrolling reaches the last entry.
 */
import { allByRole, byRole, expect, test } from './harness/index.ts';
import { openAccount } from './options-helpers.ts';

const ENTRIES = 10_000;
const domainAt = (i: number) => `site${String(i).padStart(5, '0')}.example.com`;

async function seedWhitelist(baseUrl: string, key: string) {
  const indexes = Array.from({ length: ENTRIES }, (_, i) => i);
  // A few calls at a time: the emulator is in this process, so this takes seconds.
  const workers = Array.from({ length: 16 }, async (_, worker) => {
    for (let i = worker; i < indexes.length; i += 16) {
      const url = `${baseUrl}/api/v1/?apikey=${encodeURIComponent(key)}&action=whitelist/add&domain=${domainAt(i)}`;
      const response = await fetch(url);
      if (!response.ok) throw new Error(`seeding ${domainAt(i)}: HTTP ${response.status}`);
      await response.arrayBuffer();
    }
  });
  await Promise.all(workers);
}

test('a 10,000-entry whitelist renders a window of rows and filters quickly (Chromium)', async ({
  chromium,
  emulator,
}) => {
  await seedWhitelist(emulator.url, emulator.key);
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

  // Time from a keystroke in the filter box to the narrowed list on screen, measured in the page:
  // the box and the list are found by role and name, then handed in.
  const box = await byRole(page, 'textbox', 'Filter the whitelist').waitHandle();
  const list = await entries().waitHandle();
  const filterMs = await page.evaluate(
    async (input, items) => {
      const started = performance.now();
      (input as HTMLInputElement).value = 'site09876';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      // The list's items (<li>, role listitem), counted each frame until one is left.
      while (items.children.length !== 1) await new Promise(requestAnimationFrame);
      return performance.now() - started;
    },
    box,
    list,
  );
  await Promise.all([box.dispose(), list.dispose()]);
  expect(filterMs).toBeLessThan(250);
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
