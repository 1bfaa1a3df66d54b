/**
 * A 10,000-entry whitelist stays responsive: only a window of rows is in the page, filtering
 * answers within a frame or two, and scrolling reaches the last entry.
 */
import { byRole, expect, test } from './harness/index.ts';
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

  const rowsInPage = () =>
    page.evaluate(() => document.querySelectorAll('[aria-label="Whitelist entries"] > li').length);
  expect(await rowsInPage()).toBeLessThan(60);

  // Time from a keystroke in the filter box to the narrowed list on screen.
  const filterMs = await page.evaluate(async () => {
    const box = [...document.querySelectorAll('label')].find(
      (label) => label.textContent === 'Filter the whitelist',
    )?.control as HTMLInputElement;
    const list = document.querySelector('[aria-label="Whitelist entries"]') as HTMLElement;
    const started = performance.now();
    box.value = 'site09876';
    box.dispatchEvent(new Event('input', { bubbles: true }));
    while (list.querySelectorAll('li').length !== 1) await new Promise(requestAnimationFrame);
    return performance.now() - started;
  });
  expect(filterMs).toBeLessThan(250);
  await byRole(page, 'button', 'Remove site09876.example.com from the whitelist').wait();

  // Clearing the filter and scrolling to the end shows the last entry.
  const filter = await byRole(page, 'textbox', 'Filter the whitelist').waitHandle();
  await filter.click({ count: 3 });
  await filter.press('Backspace');
  await filter.dispose();
  await byRole(page, 'region', 'Whitelist', { text: { contains: '10,002 domains' } }).wait();
  await page.evaluate(() => {
    const box = document.querySelector('[aria-label="Whitelist entries"]')?.parentElement as HTMLElement;
    box.scrollTop = box.scrollHeight;
  });
  await byRole(page, 'button', `Remove ${domainAt(ENTRIES - 1)} from the whitelist`).wait();
  expect(await rowsInPage()).toBeLessThan(60);
}, 180_000); // Seeding 10,000 entries over HTTP takes most of this on a busy two-core machine.
