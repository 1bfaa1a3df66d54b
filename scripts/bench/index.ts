/**
 * `npm run bench`: the product's speed and size, measured in headless Chromium and Firefox ESR
 * against the emulator (README.md, "Benchmarks"). A measurement, not a test: a figure that misses
 * its goal is marked, and the run still succeeds. Prints a table and writes the same as JSON to
 * bench-results/.
 *
 * Options: --no-build (reuse the last bench builds),
 * --only=sizes,verdict,diagnosis,history,history-page,lock,schedules,popup,firefox,worker,logs (a subset; `popup` is Chromium's popup,
 * `firefox` Firefox's), --quick (fewer runs, for trying the script itself); while working on the
 * popup: --pairs=N and --big-pairs=N (openings of each real popup, normal and with large lists),
 * --no-tab (only the real popups, not the in-tab figures); --baseline=<git-rev> also measures the
 * product built at that revision, beside today's, in the same real-popup runs (baseline.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'puppeteer-core';
import { startEmulator } from '../../emulator/index.ts';
import { type ChromiumSession, launchChromium } from '../../tests/e2e/harness/chromium.ts';
import { findExtensionPage, launchFirefox } from '../../tests/e2e/harness/firefox.ts';
import { startSiteServer } from '../../tests/e2e/harness/site-server.ts';
import { type BaselineBuild, prepareBaseline } from './baseline.ts';
import { sizeOfPage, sizeOfWorker } from './bundle-size.ts';
import { measureDiagnosisWrites } from './diagnosis.ts';
import { below, type Figure, figure, formatTable, unmeasured } from './figures.ts';
import { buildFloorExtension, FLOOR_ADDON_ID, type FloorTarget } from './floor-extension.ts';
import { measureHistory } from './history.ts';
import { measureHistoryInPage } from './history-page.ts';
import { measureLockKdf } from './lock.ts';
import { turnOnLock } from './lock-switch.ts';
import { measureLogs } from './logs.ts';
import { addAccounts, configureExtension, inPage, sleep, untilFirstSnapshot, untilQuiet } from './page.ts';
import { measurePopup, SITE_HOST } from './popup.ts';
import {
  type ChromiumPopupExtension,
  chromiumDriver,
  type FirefoxAddon,
  firefoxDriver,
  measureRealPopups,
} from './real-popup.ts';
import { measureSchedules } from './schedules.ts';
import { measureVerdictLookup } from './verdict-lookup.ts';
import { measureWhitelistFilter } from './whitelist-filter.ts';
import { measureWorker } from './worker.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const args = process.argv.slice(2);
const MEASURED_BUILD = join(ROOT, '.output/bench-shipped-chrome-mv3');
const MEASURED_FIREFOX_BUILD = join(ROOT, '.output/bench-shipped-firefox-mv3');
const FLOOR_BUILDS: Record<FloorTarget, string> = {
  chrome: join(ROOT, '.output/bench-floor-extension-chrome'),
  firefox: join(ROOT, '.output/bench-floor-extension-firefox'),
};
const RESULTS_DIR = join(ROOT, 'bench-results');
const GROUPS = [
  'sizes',
  'verdict',
  'diagnosis',
  'history',
  'history-page',
  'lock',
  'schedules',
  'popup',
  'firefox',
  'worker',
  'logs',
  'lists',
] as const;
type Group = (typeof GROUPS)[number];

const quick = args.includes('--quick');
/** The revision whose build is measured beside today's (real popups only). */
const baselineRev = args.find((arg) => arg.startsWith('--baseline='))?.slice('--baseline='.length);
const onlyArg = args.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
const groups = new Set<Group>(
  onlyArg ? (onlyArg.split(',').filter((g) => (GROUPS as readonly string[]).includes(g)) as Group[]) : GROUPS,
);

/**
 * Run counts: enough for a stable median, few enough for a few minutes on two cores. `pairs` is
 * the real popups' openings of the product and of the floor each (alternating), per browser.
 */
const countArg = (name: string) => {
  const value = Number(args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3));
  return Number.isSafeInteger(value) && value > 0
    ? { [name === 'pairs' ? 'pairs' : 'bigListPairs']: value }
    : {};
};
const RUNS = {
  ...(quick
    ? {
        pairs: 6,
        bigListPairs: 3,
        warm: 4,
        cold: 2,
        stats: 2,
        dump: 1,
        workerBlocks: 2,
        verdict: 3,
        diagnosis: 1,
        filter: 3,
      }
    : {
        pairs: 31,
        bigListPairs: 11,
        warm: 8,
        cold: 5,
        stats: 5,
        dump: 3,
        workerBlocks: 3,
        verdict: 7,
        diagnosis: 3,
        filter: 15,
      }),
  ...countArg('pairs'),
  ...countArg('big-pairs'),
};
/** Only the real popups: the in-tab figures (popup.ts) are left out. */
const realPopupsOnly = args.includes('--no-tab');
/** Accounts besides the measured one: the popup's goals hold with five accounts configured. */
const OTHER_ACCOUNTS = 4;
/** After each real popup closes, before the next opening. */
const PAUSE_MS = 300;
/** Every cached view of the service (lib/settings/storage.ts): left out when settings are copied. */
const CACHE_KEYS = /^(cachedLists|cachedBlockedToday|profilesCache)/;

const log = (line: string) => console.log(line);

/** The shipped extension, built into a folder of the bench's own (.output/bench-shipped-<browser>-mv3). */
function build(browser: 'chrome' | 'firefox'): void {
  log(`Building the extension for ${browser}…`);
  const result = spawnSync('npx', ['wxt', 'build', '-b', browser], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, WXT_BENCH: 'shipped' },
  });
  if (result.status !== 0)
    throw new Error(`The ${browser} build failed:\n${result.stdout}\n${result.stderr}`);
}

/** What the shipped builds are made from: a change to any of these makes a bench build stale. */
const SOURCES = ['entrypoints', 'components', 'lib', 'locales', 'public', 'wxt.config.ts'];

function newestFile(path: string): { path: string; mtimeMs: number } {
  const stat = statSync(path);
  if (!stat.isDirectory()) return { path, mtimeMs: stat.mtimeMs };
  return readdirSync(path)
    .map((name) => newestFile(join(path, name)))
    .reduce((a, b) => (b.mtimeMs > a.mtimeMs ? b : a), { path, mtimeMs: 0 });
}

/**
 * --no-build measures the last bench build as it is: one older than the sources would be timed
 * (or, its stored shapes differing from what the bench seeds, fail) as if it were the tree's.
 */
function refuseStaleBuild(dir: string): void {
  const manifest = join(dir, 'manifest.json');
  if (!existsSync(manifest))
    throw new Error(`--no-build: there is no bench build in ${dir}; run without it.`);
  const source = SOURCES.map((name) => join(ROOT, name))
    .filter(existsSync)
    .map(newestFile)
    .reduce((a, b) => (b.mtimeMs > a.mtimeMs ? b : a));
  if (source.mtimeMs > statSync(manifest).mtimeMs) {
    throw new Error(
      `--no-build: ${dir} is older than ${source.path.slice(ROOT.length + 1)}; run without --no-build to measure the tree as it is.`,
    );
  }
}

/** A product's settings, read from one of its pages, every cached view left out. */
function storedSettings(control: Page): Promise<Record<string, unknown>> {
  return inPage<Record<string, unknown>>(
    control,
    `chrome.storage.local.get(null).then((all) => Object.fromEntries(
      Object.entries(all).filter(([key]) => !${CACHE_KEYS}.test(key))))`,
  );
}

/** A quiet page of a product, to read and write its storage: a popup page with no tab. */
async function quietPage(session: ChromiumSession, origin: string): Promise<Page> {
  const page = await session.browser.newPage();
  await page.goto(`${origin}/popup.html?tabId=-1`, { waitUntil: 'load' });
  return page;
}

/**
 * Installs the baseline beside the product in a Chromium session and sets it up the same way,
 * through its own options page, with the same services (`otherAccounts`): each build writes
 * its settings in its own format.
 */
async function installChromiumBaseline(
  session: ChromiumSession,
  baseline: BaselineBuild,
  emulator: Awaited<ReturnType<typeof startEmulator>>,
  otherAccounts: Awaited<ReturnType<typeof addAccounts>>,
): Promise<ChromiumPopupExtension> {
  const id = await session.browser.installExtension(baseline.dirs.chrome);
  const extension = (await session.browser.extensions()).get(id);
  if (!extension) throw new Error('The baseline was installed but is not listed');
  if (id === session.extensionId) throw new Error("The baseline has the product's extension id");
  const origin = `chrome-extension://${id}`;
  // The page its worker opens on install, as for the product.
  const install = await session.browser.waitForTarget((t) => t.url().startsWith(`${origin}/options.html`), {
    timeout: 20_000,
  });
  const setup = await install.asPage();
  await setup.waitForFunction("document.readyState === 'complete'");
  await configureExtension(setup, emulator);
  await untilQuiet(emulator);
  await addAccounts(setup, otherAccounts.length, otherAccounts);
  await untilQuiet(emulator);
  const host = await quietPage(session, origin);
  await setup.close();
  return { extension, host };
}

/** Installs the floor extension beside the product in a Chromium session; returns it and its host page. */
async function installChromiumFloor(session: ChromiumSession) {
  const id = await session.browser.installExtension(FLOOR_BUILDS.chrome);
  const extension = (await session.browser.extensions()).get(id);
  if (!extension) throw new Error('The floor extension was installed but is not listed');
  const hostUrl = `chrome-extension://${id}/host.html`;
  const host = await (await session.browser.waitForTarget((t) => t.url() === hostUrl)).asPage();
  return { extension, host };
}

/** Waits until `page` (a tab that navigated itself) shows `path` of its extension, loaded. */
async function untilPageAt(page: Page, path: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const check = `document.readyState === 'complete' && location.pathname === ${JSON.stringify(`/${path}`)}`;
  // BiDi reports no navigation for such a tab: its document is asked, until the new one answers.
  while (!(await inPage<boolean>(page, check).catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`Firefox: the page did not reach ${path}`);
    await sleep(100);
  }
}

/** Turns an add-on's first-run page into a quiet page of it (popup.html with no tab), given settings. */
async function quietFirefoxHost(page: Page, settings: Record<string, unknown>): Promise<void> {
  await inPage(page, `chrome.storage.local.set(${JSON.stringify(settings)})`);
  await inPage(page, "location.assign('popup.html?tabId=-1')");
  await untilPageAt(page, 'popup.html');
}

/**
 * Firefox's real popups, product and floor (and the baseline). Firefox gets the settings the
 * Chromium run saved through each product's options page (copied into its storage, caches left
 * out), so both browsers use the same accounts; its popups are read from pages of each add-on
 * (each product's first-run page, turned into a quiet popup.html?tabId=-1, and the floor's
 * host.html).
 */
async function measureFirefox(
  emulator: Awaited<ReturnType<typeof startEmulator>>,
  settings: Record<string, unknown>,
  baseline: { build: BaselineBuild; settings: Record<string, unknown> } | undefined,
): Promise<Figure[]> {
  const site = await startSiteServer();
  const session = await launchFirefox({
    extensionDir: MEASURED_FIREFOX_BUILD,
    site,
    // Full timer precision in every document, as Chromium gives extension pages.
    prefs: { 'privacy.reduceTimerPrecision': false },
  });
  try {
    const floorId = await session.browser.installExtension(FLOOR_BUILDS.firefox);
    if (floorId !== FLOOR_ADDON_ID) throw new Error(`The floor extension has the id ${floorId}`);
    const floorHost = await findExtensionPage(session.browser, 'host.html', 20_000);
    const host = session.optionsPage;
    await quietFirefoxHost(host, settings);
    let baselineAddon: FirefoxAddon | undefined;
    if (baseline) {
      const addonId = await session.browser.installExtension(baseline.build.dirs.firefox);
      if (addonId !== baseline.build.geckoId) throw new Error(`The baseline has the id ${addonId}`);
      // The product's first-run page is popup.html by now: this options.html is the baseline's.
      const page = await findExtensionPage(session.browser, 'options.html', 20_000);
      const origin = await inPage<string>(page, 'location.origin');
      if (origin === session.extensionOrigin) throw new Error("The product's options page opened again");
      await quietFirefoxHost(page, baseline.settings);
      baselineAddon = { addonId, host: page };
    }
    await untilFirstSnapshot(host, emulator);
    if (baselineAddon) await untilFirstSnapshot(baselineAddon.host, emulator);
    const tab = await session.openSiteTab(SITE_HOST, '/');
    const driver = firefoxDriver(
      session.browser,
      session.window,
      {
        product: { addonId: session.extensionId, host },
        baseline: baselineAddon,
        floor: { addonId: floorId, host: floorHost },
      },
      tab,
    );
    return await measureRealPopups({
      driver,
      emulator,
      control: host,
      ...(baselineAddon && baseline
        ? { baseline: { control: baselineAddon.host, label: baseline.build.label } }
        : {}),
      // BiDi cannot navigate to the options page: the quiet page goes there and back itself.
      lock: () =>
        turnOnLock(
          host,
          async () => {
            await inPage(host, "location.assign('options.html')");
            await untilPageAt(host, 'options.html');
            return host;
          },
          async () => {
            await inPage(host, "location.assign('popup.html?tabId=-1')");
            await untilPageAt(host, 'popup.html');
          },
        ),
      pairs: RUNS.pairs,
      bigListPairs: RUNS.bigListPairs,
      pauseMs: PAUSE_MS,
      log,
    });
  } finally {
    await session.close();
    await site.close();
  }
}

function bundleFigures(): Figure[] {
  const kb = (bytes: number) => bytes / 1000;
  const names = (files: string[]) => files.map((file) => file.replace(/^chunks\//, '')).join(', ');
  const popup = sizeOfPage(MEASURED_BUILD, 'popup.html');
  const options = sizeOfPage(MEASURED_BUILD, 'options.html');
  const worker = sizeOfWorker(MEASURED_BUILD);
  return [
    figure(
      'popup-js-kb',
      'Popup JS, gzip (page + static imports)',
      'kB',
      [kb(popup.initial.gzipBytes)],
      below(80, '< 80 kB'),
      `${names(popup.initial.files)}; lazy chunks it may import: ${kb(popup.lazy.gzipBytes).toFixed(1)} kB (${names(popup.lazy.files)})`,
    ),
    figure(
      'options-js-kb',
      'Options JS, gzip (page + static imports)',
      'kB',
      [kb(options.initial.gzipBytes)],
      null,
      `${names(options.initial.files)}; lazy: ${kb(options.lazy.gzipBytes).toFixed(1)} kB (${names(options.lazy.files)})`,
    ),
    figure(
      'worker-js-kb',
      'Worker JS, gzip',
      'kB',
      [kb(worker.initial.gzipBytes + worker.lazy.gzipBytes)],
      below(100, '< 100 kB'),
      names([...worker.initial.files, ...worker.lazy.files]),
    ),
  ];
}

/** Runs one group; a group that fails leaves its figures unmeasured, with the reason. */
async function guarded(
  name: string,
  placeholders: Figure[],
  run: () => Promise<Figure[]>,
): Promise<Figure[]> {
  try {
    return await run();
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    log(`  ${name} could not be measured: ${reason}`);
    return placeholders.map((f) => unmeasured(f.id, f.name, f.unit, f.goal, reason));
  }
}

const placeholder = (id: string, name: string, unit: string) => figure(id, name, unit, []);

function dateDaysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const load = loadavg()[0]!;
  const browserGroups = ['popup', 'firefox', 'worker', 'logs', 'history-page'].some((g) =>
    groups.has(g as Group),
  );
  const chromeBuildNeeded = browserGroups || groups.has('sizes') || groups.has('lists');
  const realPopups = groups.has('popup') || groups.has('firefox');
  const floorNeeded = realPopups || groups.has('history-page');
  if (baselineRev && !realPopups) log('--baseline is measured with the real popups only (popup, firefox).');
  const baseline =
    baselineRev && realPopups
      ? await prepareBaseline(ROOT, baselineRev, { reuse: args.includes('--no-build'), log })
      : undefined;
  if (args.includes('--no-build')) {
    if (chromeBuildNeeded) refuseStaleBuild(MEASURED_BUILD);
    if (groups.has('firefox')) refuseStaleBuild(MEASURED_FIREFOX_BUILD);
  } else {
    if (chromeBuildNeeded) build('chrome');
    if (groups.has('firefox')) build('firefox');
    if (floorNeeded) {
      log('Building the floor extension…');
      for (const target of ['chrome', 'firefox'] as const) await buildFloorExtension(target);
    }
  }

  const figures: Figure[] = [];
  if (groups.has('verdict')) {
    log('Verdict lookup in Node…');
    figures.push(...measureVerdictLookup({ runs: RUNS.verdict }));
  }
  if (groups.has('diagnosis')) {
    log('Page diagnosis writes in Node…');
    figures.push(...(await measureDiagnosisWrites({ runs: RUNS.diagnosis })));
  }
  if (groups.has('history')) {
    log('History in Node…');
    figures.push(...(await measureHistory({ runs: RUNS.verdict })));
  }
  if (groups.has('lock')) {
    log('Lock: unlocking in Node…');
    figures.push(...(await measureLockKdf({ runs: RUNS.verdict })));
  }
  if (groups.has('schedules')) {
    log('Schedules reconciliation in Node…');
    figures.push(...(await measureSchedules({ runs: quick ? 3 : 7 })));
  }
  if (groups.has('sizes')) figures.push(...bundleFigures());

  if (browserGroups) {
    const statsDay = dateDaysAgo(30);
    const emulator = await startEmulator({
      seed: 'demo',
      bigDayMb: 200,
      dumpGuard: false,
      bigStatsDay: statsDay,
    });
    log(`Emulator at ${emulator.url}; Chromium with ${MEASURED_BUILD}`);
    const session = await launchChromium({ extensionDir: MEASURED_BUILD });
    let floorInstalled: Awaited<ReturnType<typeof installChromiumFloor>> | undefined;
    const chromiumFloor = async () => (floorInstalled ??= await installChromiumFloor(session));
    let settings: Record<string, unknown> = {};
    /** The other accounts' services: every popup figure is taken with five accounts configured. */
    let otherAccounts: Awaited<ReturnType<typeof addAccounts>> = [];
    /** The baseline, installed beside the product and set up the same way, and its settings. */
    let chromiumBaseline: ChromiumPopupExtension | undefined;
    let baselineSettings: Record<string, unknown> = {};
    try {
      const setup = await session.firstRunPage();
      await configureExtension(setup, emulator);
      await untilQuiet(emulator);
      log(`Adding ${OTHER_ACCOUNTS} more accounts (the popup reads only the active one's data)…`);
      otherAccounts = await addAccounts(setup, OTHER_ACCOUNTS);
      await untilQuiet(emulator);
      const control = await quietPage(session, `chrome-extension://${session.extensionId}`);
      settings = await storedSettings(control);
      await setup.close();
      if (baseline) {
        log(`Setting up the baseline ${baseline.label} the same way…`);
        chromiumBaseline = await installChromiumBaseline(session, baseline, emulator, otherAccounts);
        baselineSettings = await storedSettings(chromiumBaseline.host);
      }
      await untilFirstSnapshot(control, emulator);
      if (chromiumBaseline) await untilFirstSnapshot(chromiumBaseline.host, emulator);

      if (groups.has('popup')) {
        log('Popup in Chromium…');
        figures.push(
          ...(await guarded(
            'the Chromium popup',
            [placeholder('chromium-popup-ratio', 'Chromium: real popup ÷ floor, in document', '×')],
            async () => {
              const floor = await chromiumFloor();
              const site = await session.openSiteTab(SITE_HOST, '/');
              const real = await measureRealPopups({
                driver: chromiumDriver(
                  {
                    product: { extension: session.extension, host: control },
                    baseline: chromiumBaseline,
                    floor,
                  },
                  site,
                ),
                emulator,
                control,
                ...(chromiumBaseline && baseline
                  ? { baseline: { control: chromiumBaseline.host, label: baseline.label } }
                  : {}),
                lock: () =>
                  turnOnLock(
                    control,
                    async () => {
                      const page = await session.browser.newPage();
                      await page.goto(session.extensionUrl('options.html'), { waitUntil: 'load' });
                      return page;
                    },
                    (page) => page.close(),
                  ),
                pairs: RUNS.pairs,
                bigListPairs: RUNS.bigListPairs,
                pauseMs: PAUSE_MS,
                log,
              });
              await site.close();
              if (realPopupsOnly) return real;
              const inTab = await measurePopup({
                session,
                emulator,
                control,
                buildDir: MEASURED_BUILD,
                floorUrl: `chrome-extension://${floor.extension.id}/popup.html`,
                warmRuns: RUNS.warm,
                coldRuns: RUNS.cold,
                latencies: [0, 100],
                log,
              });
              return [...real, ...inTab];
            },
          )),
        );
      }
      // The other groups measure the product alone.
      if (chromiumBaseline) await session.browser.uninstallExtension(chromiumBaseline.extension.id);
      if (groups.has('worker')) {
        log('Background worker…');
        figures.push(
          ...(await guarded(
            'the worker',
            [placeholder('worker-heap-growth-kb', 'Worker heap growth per 24 re-registrations', 'kB')],
            () =>
              measureWorker({
                session,
                emulator,
                control,
                blocks: RUNS.workerBlocks,
                registrationsPerBlock: 24,
                noiseKb: 100,
                log,
              }),
          )),
        );
      }
      if (groups.has('logs')) {
        log('Logs section…');
        const dumpDay = emulator.admin.state().emulator.bigDay;
        figures.push(
          ...(await guarded(
            'the logs section',
            [
              placeholder('stats-render-ms', 'Statistics render, 24 h × 5,000 domains', 'ms'),
              placeholder('dump-parse-mb-per-s', 'Raw log 200 MB, parse throughput', 'MB/s'),
              placeholder('dump-peak-heap-mb', 'Raw log, peak JS heap', 'MB'),
            ],
            async () => {
              if (!dumpDay) throw new Error('the emulator has no big raw log day');
              return measureLogs({
                session,
                emulator,
                statsDay,
                dumpDay,
                statsRuns: RUNS.stats,
                dumpRuns: RUNS.dump,
                log,
              });
            },
          )),
        );
      }
      if (groups.has('history-page')) {
        log('History in the options page, and the popup during a rollback…');
        figures.push(
          ...(await guarded(
            'the History section',
            [placeholder('history-page-diff-ms', 'History diff in the options page (Chromium)', 'ms')],
            async () => {
              const floor = await chromiumFloor();
              const site = await session.openSiteTab(SITE_HOST, '/');
              try {
                return await measureHistoryInPage({
                  session,
                  emulator,
                  runs: RUNS.verdict,
                  control,
                  driver: chromiumDriver(
                    { product: { extension: session.extension, host: control }, floor },
                    site,
                  ),
                  pairs: RUNS.pairs,
                  pauseMs: PAUSE_MS,
                  log,
                });
              } finally {
                await site.close();
              }
            },
          )),
        );
      }
    } finally {
      await session.close();
    }
    try {
      if (groups.has('firefox')) {
        log('Popup in Firefox…');
        figures.push(
          ...(await guarded(
            'the Firefox popup',
            [placeholder('firefox-popup-ratio', 'Firefox: real popup ÷ floor, in document', '×')],
            () =>
              measureFirefox(
                emulator,
                settings,
                baseline ? { build: baseline, settings: baselineSettings } : undefined,
              ),
          )),
        );
      }
    } finally {
      await Promise.all([emulator, ...otherAccounts].map((service) => service.close()));
    }
  }
  if (groups.has('lists')) {
    log('Whitelist filter in the options page (Chromium)…');
    figures.push(
      ...(await guarded(
        'the whitelist filter',
        [placeholder('whitelist-filter-ms', 'Whitelist filter, 10,000 entries', 'ms')],
        () => measureWhitelistFilter({ extensionDir: MEASURED_BUILD, runs: RUNS.filter, log }),
      )),
    );
  }

  const elapsedS = (Date.now() - startedAt.getTime()) / 1000;
  log('');
  log(formatTable(figures));
  const missed = figures.filter((f) => f.met === false).length;
  log('');
  log(
    `${figures.length} figures, ${missed} missing their goal; ${elapsedS.toFixed(0)} s; load average at start ${load.toFixed(1)} on ${cpus().length} cores.`,
  );

  mkdirSync(RESULTS_DIR, { recursive: true });
  const report = {
    startedAt: startedAt.toISOString(),
    elapsedS,
    machine: { cores: cpus().length, cpu: cpus()[0]?.model, loadAverageAtStart: load, node: process.version },
    quick,
    groups: [...groups],
    figures,
  };
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  const file = join(RESULTS_DIR, `bench-${stamp}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(RESULTS_DIR, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  log(`JSON: ${file} (also bench-results/latest.json)`);
}

main().catch((error: unknown) => {
  console.error(`The bench could not run: ${error instanceof Error ? error.stack : String(error)}`);
  process.exit(1);
});
