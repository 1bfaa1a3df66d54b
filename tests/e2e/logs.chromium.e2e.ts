import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type EmulatorHandle, startEmulator } from '../../emulator/index.ts';
import { allowDownloads } from './harness/downloads.ts';
import {
  allByRole,
  byRole,
  chooseOption,
  configureExtension,
  describe,
  expect,
  hourlyChartOf,
  openSection,
  test,
  textOf,
  waitForStatus,
} from './harness/index.ts';

/**
 * The Logs section of the options page against the emulator, in Chromium: charts for a seeded
 * day, a big raw log streamed with progress and cancelled, the hourly rule across a reload, and
 * deleting a day's raw lines while its statistics stay.
 *
 * One emulator for the file, with a big day (BIG_DAY_MB of raw log) seeded; each test gets a
 * fresh browser (fresh extension storage) and a reset emulator.
 */
const TODAY = '2024-05-10';
/** Size of the big raw log, in MB: enough to watch its progress and cancel it (the bench streams 200). */
const BIG_DAY_MB = 60;
/** 24 hours x 5,000 distinct domains. */
const BIG_STATS_DAY = '2024-04-01';
let emulator: EmulatorHandle;

beforeAll(async () => {
  emulator = await startEmulator({ today: TODAY, bigDayMb: BIG_DAY_MB, bigStatsDay: BIG_STATS_DAY });
});
afterAll(async () => {
  await emulator?.close();
});
beforeEach(() => {
  emulator.admin.reset();
});

const NEWEST_DAY = TODAY;
const OLDER_DAY = '2024-05-08';
const bigDay = () => {
  const date = emulator.admin.state().emulator.bigDay;
  if (!date) throw new Error('the emulator has no big day');
  return date;
};

async function openLogs(page: Page): Promise<void> {
  await configureExtension(page, { baseUrl: emulator.url, key: emulator.key, form: 'A' });
  await openSection(page, 'Logs');
  await byRole(page, 'combobox', 'Day').wait();
  // The day list arrives after the section appears (a closed list's options are not rendered).
  await byRole(page, 'option', undefined, {
    within: { role: 'combobox', name: 'Day' },
    includeHidden: true,
  }).wait();
}

async function chooseDay(page: Page, date: string): Promise<void> {
  await chooseOption(page, 'Day', { startsWith: date });
  await hourlyChart(page, date);
}

/** The accessible name of the hourly chart, once it is drawn for `date`. */
async function hourlyChart(page: Page, date: string): Promise<string> {
  const name = hourlyChartOf(date);
  await byRole(page, 'img', name).wait();
  const [chart] = await allByRole(page, 'img', name);
  if (!chart) throw new Error('no hourly chart');
  try {
    return await chart.evaluate((element) => element.getAttribute('aria-label') ?? '');
  } finally {
    await chart.dispose();
  }
}

async function dumpProgressText(page: Page): Promise<string | null> {
  const [bar] = await allByRole(page, 'progressbar', 'Raw log download');
  if (!bar) return null;
  try {
    return await bar.evaluate((element) => element.getAttribute('aria-valuetext'));
  } finally {
    await bar.dispose();
  }
}

const megabytesIn = (text: string | null) =>
  Number(/([\d.,]+) MB received/.exec(text ?? '')?.[1]?.replace(/,/g, '') ?? 0);

/** The accessible description (aria-describedby) of the element with this role and name. */
function descriptionOf(page: Page, role: string, name: string): Promise<string> {
  return byRole(page, role, name)
    .map((element) =>
      (element.getAttribute('aria-describedby') ?? '')
        .split(/\s+/)
        .map((id) => (id ? (element.ownerDocument.getElementById(id)?.textContent ?? '') : ''))
        .join(' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .wait();
}

/** How many table rows are in the page now, or in the table with this name. */
async function countRows(page: Page, tableName?: string): Promise<number> {
  const within = tableName === undefined ? undefined : { role: 'table', name: tableName };
  const rows = await allByRole(page, 'row', undefined, { within });
  await Promise.all(rows.map((row) => row.dispose()));
  return rows.length;
}

async function isDisabled(page: Page, role: string, name: string): Promise<boolean> {
  return byRole(page, role, name)
    .map((element) => (element as HTMLButtonElement).disabled)
    .wait();
}

async function serviceStats(date: string) {
  const response = await fetch(
    `${emulator.url}/api?apikey=${emulator.key}&action=logs/getstats&date=${date}`,
  );
  return (await response.json()) as { action: Record<string, { Allowed: number; Blocked: number }> };
}

describe('Logs section (Chromium)', () => {
  test('charts appear for a seeded day, with the totals in the chart name', async ({ chromium }) => {
    const page = await chromium.openOptions();
    await openLogs(page);

    // Newest day first and chosen by default.
    const label = await hourlyChart(page, NEWEST_DAY);
    const stats = await serviceStats(NEWEST_DAY);
    const allowed = Object.values(stats.action).reduce((sum, hour) => sum + hour.Allowed, 0);
    const blocked = Object.values(stats.action).reduce((sum, hour) => sum + hour.Blocked, 0);
    expect(label).toContain(
      `${allowed.toLocaleString('en')} allowed, ${blocked.toLocaleString('en')} blocked`,
    );

    // The chart is drawn, not just present: its canvas has coloured pixels.
    const drawn = await byRole(page, 'img', { startsWith: 'Queries per hour' })
      .map((element) => {
        const canvas = element as HTMLCanvasElement;
        const context = canvas.getContext?.('2d');
        if (!context || canvas.width === 0) return 0;
        const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
        let coloured = 0;
        for (let i = 3; i < pixels.length; i += 4) if ((pixels[i] ?? 0) > 0) coloured++;
        return coloured;
      })
      .wait();
    expect(drawn).toBeGreaterThan(1000);
    await byRole(page, 'img', { startsWith: 'Blocks per category' }).wait();
    await byRole(page, 'img', { startsWith: 'Request types' }).wait();
    // The top blocked domains carry one-click list buttons (registrable domain by default).
    await byRole(page, 'button', 'Blocklist example.net').wait();
    expect(await page.evaluate(() => performance.getEntriesByName('stats-rendered').length)).toBeGreaterThan(
      0,
    );

    // Another day: the chart follows the picker.
    await chooseDay(page, OLDER_DAY);
  });

  test("one click in the rankings adds a top allowed domain to the chosen profile's blocklist", async ({
    chromium,
  }) => {
    const page = await chromium.openOptions();
    await openLogs(page);
    await hourlyChart(page, NEWEST_DAY);

    // The profile the ranking buttons act on; its options arrive with the account's profiles.
    const profileBox = { role: 'combobox', name: 'Profile for list changes' };
    await byRole(page, 'option', 'kids1', { within: profileBox, includeHidden: true }).wait();
    await chooseOption(page, 'Profile for list changes', 'kids1');

    // The first "Blocklist <domain>" button of the top allowed domains.
    const allowedTable = { role: 'table', name: 'Top allowed domains' };
    const buttonName = await byRole(page, 'button', { startsWith: 'Blocklist ' }, { within: allowedTable })
      .map((button) => button.getAttribute('aria-label') ?? '')
      .wait();
    const domain = buttonName.slice('Blocklist '.length);
    expect(domain).toMatch(/^[a-z0-9.-]+\.[a-z]+$/);
    expect(emulator.admin.state().profiles.kids1?.blocklist).not.toContain(domain);

    await byRole(page, 'button', buttonName, { within: allowedTable }).click();
    const outcome = await waitForStatus(page, /^(?!.*…$).+/, { name: 'List change', timeout: 20_000 });
    expect(outcome).toMatch(
      new RegExp(`^${domain.replace(/\./g, '\\.')} was added to the blocklist of profile kids1\\b`),
    );
    expect(emulator.admin.state().profiles.kids1?.blocklist).toContain(domain);
    expect(emulator.admin.state().profiles.default?.blocklist).not.toContain(domain);
  });

  // How fast it is drawn is a bench figure (docs/performance.md, "Goals"), not a timed test.
  test('a day of 24 hours x 5,000 distinct domains is drawn with a page of each ranking', async ({
    chromium,
  }) => {
    const page = await chromium.openOptions();
    await openLogs(page);
    await chooseDay(page, BIG_STATS_DAY);
    // Only a page of each ranking is in the document, with a way to see more.
    expect(await countRows(page)).toBeLessThan(200);
    expect(await countRows(page, 'Top allowed domains')).toBeGreaterThan(1);
    await byRole(page, 'button', 'Show more allowed domains').wait();
  });

  test('a big raw log streams with progress and can be cancelled', async ({ chromium }) => {
    const page = await chromium.openOptions();
    await openLogs(page);
    await chooseDay(page, bigDay());
    // Unthrottled, the whole log arrives in a few seconds; at 8 MB/s there is time to watch and cancel.
    await page.emulateNetworkConditions({ download: 8_000_000, upload: 1_000_000, latency: 0 });

    await byRole(page, 'button', 'Load raw log').click();
    await byRole(page, 'button', 'Cancel').wait();
    // Progress moves: a first reading past 1 MB, then a later, larger one.
    await byRole(page, 'progressbar', 'Raw log download')
      .filter((bar) => /([\d.]+) MB received/.exec(bar.getAttribute('aria-valuetext') ?? '')?.[1] !== '0')
      .wait();
    await expect
      .poll(async () => megabytesIn(await dumpProgressText(page)), { timeout: 20_000 })
      .toBeGreaterThan(1);
    const first = megabytesIn(await dumpProgressText(page));
    await expect
      .poll(async () => megabytesIn(await dumpProgressText(page)), { timeout: 20_000 })
      .toBeGreaterThan(first);
    expect(await dumpProgressText(page)).toMatch(/MB received, [\d,]+ lines/);

    await byRole(page, 'button', 'Cancel').click();
    const outcome = await textOf(page, 'status', 'Raw log', { text: { startsWith: 'Cancelled' } });
    expect(outcome).toMatch(/lines received so far are shown below/);
    // The service stops producing the log once the download is cancelled.
    const generated = emulator.admin.dumpProgress().bytesGenerated;
    expect(generated).toBeLessThan(BIG_DAY_MB * 1024 * 1024);
    await expect.poll(() => emulator.admin.dumpProgress().activeDumps).toBe(0);
    // Lines received so far are browsable.
    await byRole(page, 'table', `Raw log lines of ${bigDay()}`).wait();
    expect(await allByRole(page, 'progressbar', 'Raw log download')).toHaveLength(0);
  });

  // Its throughput and the page's peak heap are bench figures (docs/performance.md, "Goals").
  test('the whole big raw log streams into the page, which says how many lines it holds', async ({
    chromium,
  }) => {
    const page = await chromium.openOptions();
    await openLogs(page);
    await chooseDay(page, bigDay());
    await byRole(page, 'button', 'Load raw log').click();
    const outcome = await textOf(page, 'status', 'Raw log', {
      text: { startsWith: 'Loaded' },
      timeout: 120_000,
    });
    const figures = await page.evaluate(() => {
      const mark = performance.getEntriesByName('dump-done').at(-1) as PerformanceMark | undefined;
      return mark?.detail as { bytes: number; lines: number } | undefined;
    });
    if (!figures) throw new Error('no dump-done mark');
    expect(outcome).toContain(`${figures.lines.toLocaleString('en')} lines`);
    expect(figures.bytes / 1e6).toBeGreaterThan(BIG_DAY_MB);
  }, 180_000);

  test('the hourly rule holds after a reload, and the button says when the next download is allowed', async ({
    chromium,
  }) => {
    const page = await chromium.openOptions();
    await openLogs(page);
    await chooseDay(page, NEWEST_DAY);
    await byRole(page, 'button', 'Load raw log').click();
    const loaded = await textOf(page, 'status', 'Raw log', {
      text: { startsWith: 'Loaded the raw log' },
      timeout: 30_000,
    });
    expect(loaded).toMatch(/lines/);
    await byRole(page, 'table', `Raw log lines of ${NEWEST_DAY}`).wait();

    await page.reload({ waitUntil: 'load' });
    await byRole(page, 'button', 'Load raw log').wait();
    await expect.poll(() => isDisabled(page, 'button', 'Load raw log')).toBe(true);
    const note = await descriptionOf(page, 'button', 'Load raw log');
    // The time alone, or with its date when the hour runs past midnight (formatClock).
    expect(note).toMatch(/^Next raw log download allowed at (\d{4}-\d{2}-\d{2} )?\d{2}:\d{2}\.$/);
    expect(await isDisabled(page, 'button', 'Save to file')).toBe(true);
    // Only the one download reached the service.
    expect(emulator.admin.calls().filter((call) => call.action === 'logs/getdump')).toHaveLength(1);
  });

  test('deleting a day asks first, says statistics stay, and keeps the charts', async ({ chromium }) => {
    const page = await chromium.openOptions();
    await openLogs(page);
    await chooseDay(page, OLDER_DAY);
    const before = await hourlyChart(page, OLDER_DAY);

    await byRole(page, 'button', 'Delete raw log').click();
    const dialogText = await textOf(page, 'dialog');
    expect(dialogText).toMatch(/raw log lines/i);
    expect(dialogText).toMatch(/statistics stay/i);
    await byRole(page, 'button', 'Delete', { within: { role: 'dialog' } }).click();

    const outcome = await textOf(page, 'status', 'Delete raw log', { text: { startsWith: 'Deleted' } });
    expect(outcome).toMatch(/statistics stay/i);
    expect(emulator.admin.state().logs.find((day) => day.date === OLDER_DAY)?.rawDeleted).toBe(true);
    // The statistics are still shown, with the same figures.
    expect(await hourlyChart(page, OLDER_DAY)).toBe(before);
    // A download of a deleted day can only fail, so it is not offered.
    expect(await isDisabled(page, 'button', 'Load raw log')).toBe(true);
  });

  test('Save to file (download fallback) saves the whole text under a blob: URL that carries no key', async ({
    chromium,
  }) => {
    const downloads = await mkdtemp(join(tmpdir(), 'logs-e2e-'));
    try {
      const cdp = await allowDownloads(chromium.browser, downloads);
      const started = new Promise<{ url: string; guid: string; suggestedFilename: string }>((resolve) =>
        cdp.once('Browser.downloadWillBegin', resolve),
      );
      const page = await chromium.openOptions();
      await openLogs(page);
      await chooseDay(page, NEWEST_DAY);
      // As in a browser without the File System Access API (Firefox).
      await page.evaluate(() => Object.defineProperty(window, 'showSaveFilePicker', { value: undefined }));
      const finished = new Promise<void>((resolve) =>
        cdp.on('Browser.downloadProgress', (event) => {
          if (event.state === 'completed') resolve();
        }),
      );

      await byRole(page, 'button', 'Save to file').click();
      const outcome = await textOf(page, 'status', 'Raw log', {
        text: { startsWith: 'Saved' },
        timeout: 30_000,
      });
      const download = await started;
      await finished;

      expect(download.suggestedFilename).toBe(`dns-log-${NEWEST_DAY}.txt`);
      expect(download.url).toMatch(/^blob:chrome-extension:\/\//);
      expect(download.url).not.toContain(emulator.key);
      const text = await readFile(join(downloads, download.guid), 'utf8');
      const lines = text.split('\n').filter(Boolean);
      expect(outcome).toContain(`${lines.length.toLocaleString('en')} lines`);
      expect(lines[0]).toMatch(
        new RegExp(`^${NEWEST_DAY} \\d{2}:\\d{2}:\\d{2} \\d+ pass-through: (allowed|blocked): `),
      );
      // The same download filled the view, and it counts as the hour's download.
      await byRole(page, 'table', `Raw log lines of ${NEWEST_DAY}`).wait();
      await expect.poll(() => isDisabled(page, 'button', 'Load raw log')).toBe(true);
    } finally {
      await rm(downloads, { recursive: true, force: true });
    }
  });

  test('after Load raw log, Save to file saves the loaded log at once, with no second download', async ({
    chromium,
  }) => {
    const downloads = await mkdtemp(join(tmpdir(), 'logs-e2e-'));
    try {
      const cdp = await allowDownloads(chromium.browser, downloads);
      const started = new Promise<{ url: string; guid: string; suggestedFilename: string }>((resolve) =>
        cdp.once('Browser.downloadWillBegin', resolve),
      );
      const finished = new Promise<void>((resolve) =>
        cdp.on('Browser.downloadProgress', (event) => {
          if (event.state === 'completed') resolve();
        }),
      );
      const page = await chromium.openOptions();
      await openLogs(page);
      await chooseDay(page, NEWEST_DAY);
      await page.evaluate(() => Object.defineProperty(window, 'showSaveFilePicker', { value: undefined }));
      await byRole(page, 'button', 'Load raw log').click();
      const loaded = await textOf(page, 'status', 'Raw log', {
        text: { startsWith: 'Loaded the raw log' },
        timeout: 30_000,
      });
      // The hour is used up for downloads, not for saving what is loaded.
      await expect.poll(() => isDisabled(page, 'button', 'Load raw log')).toBe(true);
      expect(await isDisabled(page, 'button', 'Save to file')).toBe(false);

      await byRole(page, 'button', 'Save to file').click();
      const saved = await textOf(page, 'status', 'Raw log', {
        text: { startsWith: 'Saved' },
        timeout: 30_000,
      });
      const download = await started;
      await finished;
      expect(saved).toContain('from the raw log loaded below');
      expect(download.suggestedFilename).toBe(`dns-log-${NEWEST_DAY}.txt`);
      expect(download.url).not.toContain(emulator.key);
      const lines = (await readFile(join(downloads, download.guid), 'utf8')).split('\n').filter(Boolean);
      expect(loaded).toContain(`${lines.length.toLocaleString('en')} lines`);
      expect(emulator.admin.calls().filter((call) => call.action === 'logs/getdump')).toHaveLength(1);
    } finally {
      await rm(downloads, { recursive: true, force: true });
    }
  });

  test("a day deleted elsewhere: the service's reason is shown and the hour is not used up", async ({
    chromium,
  }) => {
    await fetch(`${emulator.url}/api?apikey=${emulator.key}&action=logs/delete&date=${OLDER_DAY}`);
    const page = await chromium.openOptions();
    await openLogs(page);
    await chooseDay(page, OLDER_DAY);

    await byRole(page, 'button', 'Load raw log').click();
    const outcome = await textOf(page, 'status', 'Raw log', { text: { contains: 'deleted' } });
    expect(outcome).toContain(`The raw log of ${OLDER_DAY} has been deleted`);
    expect(outcome).not.toContain(emulator.key);
    await expect.poll(() => isDisabled(page, 'button', 'Load raw log')).toBe(false);
  });
});
