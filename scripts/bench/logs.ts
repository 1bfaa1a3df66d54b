/**
 * Logs section figures, on the options page: statistics render time for a day of 24 hours ×
 * 5,000 domains, and streaming a 200 MB raw log (throughput and peak JS heap). Both read the
 * marks the section sets: 'stats-requested', 'stats-received', 'stats-rendered' (detail.date),
 * and 'dump-done' (detail: bytes, lines, elapsedMs, parseMs).
 */
import type { CDPSession, Page } from 'puppeteer-core';
import type { EmulatorHandle } from '../../emulator/index.ts';
import type { ChromiumSession } from '../../tests/e2e/harness/chromium.ts';
import { atLeast, below, type Figure, figure } from './figures.ts';
import { aria, inPage, removeStoredKeys, sleep, statusMatching } from './page.ts';

const MB = 1e6;

export interface LogsBenchOptions {
  session: ChromiumSession;
  emulator: EmulatorHandle;
  statsDay: string;
  dumpDay: string;
  statsRuns: number;
  dumpRuns: number;
  log(line: string): void;
}

const renderedFor = (date: string) =>
  `performance.getEntriesByName('stats-rendered', 'mark').some((m) => m.detail && m.detail.date === ${JSON.stringify(date)})`;

/**
 * Opens the options page at its Logs section (one section is shown at a time, by address:
 * lib/options/routes.ts) and waits until the newest day's statistics are drawn.
 */
async function openLogs(session: ChromiumSession, page: Page, day: string): Promise<void> {
  await page.goto(session.extensionUrl('options.html#logs'), { waitUntil: 'load' });
  await page.waitForFunction(
    `[...document.querySelectorAll('select option')].some((o) => o.value === ${JSON.stringify(day)})`,
    { timeout: 30_000, polling: 50 },
  );
  await page.waitForFunction("performance.getEntriesByName('stats-rendered', 'mark').length > 0", {
    timeout: 60_000,
    polling: 50,
  });
}

/**
 * Chooses `day` in the Day combobox and waits until it is drawn. A day already chosen (the page
 * may open on it) is left for another first: choosing it again would draw nothing.
 */
async function chooseDay(page: Page, day: string, timeout = 60_000): Promise<void> {
  const select = await page.waitForSelector(aria('combobox', 'Day'), { timeout });
  const other = await select!.evaluate((element, wanted) => {
    const options = [...(element as HTMLSelectElement).options];
    return (element as HTMLSelectElement).value === wanted
      ? (options.find((option) => option.value !== wanted)?.value ?? null)
      : null;
  }, day);
  await select!.dispose();
  if (other !== null) {
    await page.select(aria('combobox', 'Day'), other);
    await page.waitForFunction(renderedFor(other), { timeout, polling: 10 });
  }
  await page.select(aria('combobox', 'Day'), day);
  await page.waitForFunction(renderedFor(day), { timeout, polling: 10 });
}

async function measureStats(options: LogsBenchOptions, page: Page) {
  const { session, statsDay } = options;
  const renderMs: number[] = [];
  const totalMs: number[] = [];
  for (let run = 0; run < options.statsRuns; run++) {
    await openLogs(session, page, statsDay);
    await inPage(page, 'performance.clearMarks()');
    await chooseDay(page, statsDay);
    const [render, total] = await inPage<[number, number]>(
      page,
      `(() => {
        const at = (name) => performance.getEntriesByName(name, 'mark').at(-1).startTime;
        return [at('stats-rendered') - at('stats-received'), at('stats-rendered') - at('stats-requested')];
      })()`,
    );
    renderMs.push(render);
    totalMs.push(total);
  }
  return [
    figure(
      'stats-render-ms',
      'Statistics render, 24 h × 5,000 domains',
      'ms',
      renderMs,
      below(500, '< 500 ms'),
      "'stats-received' to 'stats-rendered': summarising the day, tables and the three charts",
    ),
    figure(
      'stats-total-ms',
      'Statistics, request to rendered',
      'ms',
      totalMs,
      null,
      'the same plus the logs/getstats request and its JSON parsing and validation',
    ),
  ];
}

async function heapSampler(cdp: CDPSession) {
  await cdp.send('Performance.enable');
  const read = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0;
  };
  await cdp.send('HeapProfiler.collectGarbage');
  const baseline = await read();
  let peak = baseline;
  let running = true;
  const loop = (async () => {
    while (running) {
      peak = Math.max(peak, await read().catch(() => 0));
      await sleep(50);
    }
  })();
  return {
    baseline,
    async stop(): Promise<number> {
      running = false;
      await loop;
      return peak;
    },
  };
}

interface DumpDone {
  bytes: number;
  lines: number;
  elapsedMs: number;
  parseMs: number;
}

async function measureDump(options: LogsBenchOptions, page: Page) {
  const { session, dumpDay, log } = options;
  const throughput: number[] = [];
  const parseThroughput: number[] = [];
  const peakHeap: number[] = [];
  const notes: string[] = [];
  for (let run = 0; run < options.dumpRuns; run++) {
    await openLogs(session, page, dumpDay);
    // The client's own once-an-hour rule (the emulator's guard is off for the bench).
    await removeStoredKeys(page, /^lastLogDump/);
    await chooseDay(page, dumpDay, 180_000);
    await inPage(page, 'performance.clearMarks()');
    const cdp = await page.createCDPSession();
    const sampler = await heapSampler(cdp);
    await page.locator(aria('button', 'Load raw log')).click();
    await page.waitForFunction("performance.getEntriesByName('dump-done', 'mark').length > 0", {
      timeout: 300_000,
      polling: 200,
    });
    const peak = await sampler.stop();
    const done = await inPage<DumpDone>(
      page,
      "performance.getEntriesByName('dump-done', 'mark').at(-1).detail",
    );
    const outcome = await statusMatching(page, /^(Loaded|Could not|The raw log)/, 10_000).catch(() => '');
    await cdp.detach();
    throughput.push(done.bytes / MB / (done.elapsedMs / 1000));
    parseThroughput.push(done.bytes / MB / (done.parseMs / 1000));
    peakHeap.push(peak / MB);
    const heldBack = /first [\d,]+ lines/.exec(outcome)?.[0];
    notes.push(
      `${(done.bytes / MB).toFixed(0)} MB, ${done.lines.toLocaleString('en')} lines in ${(done.elapsedMs / 1000).toFixed(1)} s${heldBack ? ` (view kept the ${heldBack})` : ''}`,
    );
    log(`  raw log run ${run + 1}: ${notes.at(-1)}, peak heap ${(peak / MB).toFixed(0)} MB`);
    // Leaves the page, so the next run starts with an empty store.
    await page.goto('about:blank');
  }
  return [
    figure(
      'dump-parse-mb-per-s',
      'Raw log 200 MB, parse throughput',
      'MB/s',
      parseThroughput,
      atLeast(50, '≥ 50 MB/s'),
      "bytes ÷ time spent parsing and storing lines ('dump-done' mark, parseMs); network waits left out",
    ),
    figure(
      'dump-mb-per-s',
      'Raw log 200 MB, end to end',
      'MB/s',
      throughput,
      null,
      `request to last line stored, in the page, emulator generating the log on the same cores; ${notes.join('; ')}`,
    ),
    figure(
      'dump-peak-heap-mb',
      'Raw log, peak JS heap',
      'MB',
      peakHeap,
      below(150, '< 150 MB'),
      'JSHeapUsedSize (DevTools Performance.getMetrics) every 50 ms during the load; MB = 10^6 bytes',
    ),
  ];
}

/**
 * How fast the emulator alone hands out the same raw log to a Node client that only counts
 * bytes: the ceiling of the end-to-end figure on this machine.
 */
async function measureEmulatorDump({ emulator, dumpDay }: LogsBenchOptions): Promise<Figure> {
  const start = performance.now();
  const response = await fetch(
    `${emulator.url}/api?apikey=${encodeURIComponent(emulator.key)}&action=logs/getdump&date=${dumpDay}`,
  );
  let bytes = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) bytes += chunk.byteLength;
  const seconds = (performance.now() - start) / 1000;
  return figure(
    'emulator-dump-mb-per-s',
    'Emulator alone, raw log to a Node client',
    'MB/s',
    [bytes / MB / seconds],
    null,
    `${(bytes / MB).toFixed(0)} MB generated while streaming (emulator/logs.ts); the end-to-end figure cannot exceed this`,
  );
}

export async function measureLogs(options: LogsBenchOptions): Promise<Figure[]> {
  const page = await options.session.browser.newPage();
  try {
    const stats = await measureStats(options, page);
    options.log(`  statistics: ${options.statsRuns} renders`);
    const dump = await measureDump(options, page);
    const ceiling = await measureEmulatorDump(options);
    return [...stats, ...dump, ceiling];
  } finally {
    await page.close();
  }
}
