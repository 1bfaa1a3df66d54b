/**
 * The whitelist's filter box with 10,000 entries, on the options page (Chromium): the time from
 * one input event in the box to the narrowed list on screen (one entry left), counted by the page
 * each frame. A service and a browser of its own: the other groups' account stays as it was.
 */
import type { ElementHandle, Page } from 'puppeteer-core';
import { startEmulator } from '../../emulator/index.ts';
import { bigListDomainAt, seedWhitelist } from '../../tests/e2e/harness/big-whitelist.ts';
import { launchChromium } from '../../tests/e2e/harness/chromium.ts';
import { below, type Figure, figure } from './figures.ts';
import { aria, configureExtension } from './page.ts';

const WHITELIST_ENTRIES = 10_000;

/**
 * In the page: puts `query` into the box at once and counts frames until one row is left, or
 * more than one when the query is empty. Returns the time from the input event.
 */
function filterOnce(page: Page, box: ElementHandle, list: ElementHandle, query: string): Promise<number> {
  return page.evaluate(
    async (input, items, text) => {
      const started = performance.now();
      (input as HTMLInputElement).value = text;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      while ((items.children.length === 1) !== (text !== '')) await new Promise(requestAnimationFrame);
      return performance.now() - started;
    },
    box,
    list,
    query,
  );
}

interface FilterBenchOptions {
  extensionDir: string;
  runs: number;
  log(line: string): void;
}

export async function measureWhitelistFilter({
  extensionDir,
  runs,
  log,
}: FilterBenchOptions): Promise<Figure[]> {
  const emulator = await startEmulator();
  const session = await launchChromium({ extensionDir });
  try {
    log(`  adding ${WHITELIST_ENTRIES.toLocaleString('en')} whitelist entries at the service…`);
    await seedWhitelist(emulator, WHITELIST_ENTRIES);
    const page = await session.firstRunPage();
    await configureExtension(page, emulator);
    await page.goto(session.extensionUrl('options.html#whitelist'), { waitUntil: 'load' });
    // The section counts the whole list (the account's own entries too) once it is in the page.
    const listed = emulator.admin.state().profiles.default?.whitelist.length ?? WHITELIST_ENTRIES;
    await page.waitForFunction(
      `document.body.textContent.includes(${JSON.stringify(`${listed.toLocaleString('en')} domains`)})`,
      { timeout: 60_000, polling: 50 },
    );
    const box = await page.locator(aria('textbox', 'Filter the whitelist')).waitHandle();
    const list = await page.locator(aria('list', 'Whitelist entries')).waitHandle();
    const filterMs: number[] = [];
    for (let run = 0; run < runs; run++) {
      // A different entry each run, named by its whole number: exactly one row is left.
      const query = bigListDomainAt((1_234 + run * 997) % WHITELIST_ENTRIES).split('.')[0]!;
      filterMs.push(await filterOnce(page, box, list, query));
      await filterOnce(page, box, list, '');
    }
    return [
      figure(
        'whitelist-filter-ms',
        `Whitelist filter, ${WHITELIST_ENTRIES.toLocaleString('en')} entries`,
        'ms',
        filterMs,
        below(50, '< 50 ms (three frames)'),
        'options page: one input event in "Filter the whitelist" to one row left in the list, counted each frame',
      ),
    ];
  } finally {
    await session.close();
    await emulator.close();
  }
}
