/**
 * `npm run bench`: the product's speed and size, measured in headless Chromium against the
 * emulator (README.md, "Benchmarks"). A measurement, not a test: a figure that misses its goal is
 * marked, and the run still succeeds. Prints a table and writes the same as JSON to
 * bench-results/.
 *
 * Options: --no-build (reuse the last bench builds), --only=sizes,verdict,popup,worker,logs
 * (a subset), --quick (fewer runs, for trying the script itself).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmulator } from '../../emulator/index.ts';
import { launchChromium } from '../../tests/e2e/harness/chromium.ts';
import { sizeOfPage, sizeOfWorker } from './bundle-size.ts';
import { below, type Figure, figure, formatTable, unmeasured } from './figures.ts';
import { measureLogs } from './logs.ts';
import { configureExtension, untilQuiet } from './page.ts';
import { measurePopup } from './popup.ts';
import { measureVerdictLookup } from './verdict-lookup.ts';
import { measureWorker } from './worker.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const FLOOR_BUILD = join(ROOT, '.output/bench-floor-chrome-mv3');
const SHIPPED_BUILD = join(ROOT, '.output/bench-shipped-chrome-mv3');
const RESULTS_DIR = join(ROOT, 'bench-results');
const GROUPS = ['sizes', 'verdict', 'popup', 'worker', 'logs'] as const;
type Group = (typeof GROUPS)[number];

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyArg = args.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
const groups = new Set<Group>(
  onlyArg ? (onlyArg.split(',').filter((g) => (GROUPS as readonly string[]).includes(g)) as Group[]) : GROUPS,
);

/** Run counts: enough for a stable median, few enough for a few minutes on two cores. */
const RUNS = quick
  ? { warm: 4, bigLists: 2, cold: 2, stats: 2, dump: 1, workerBlocks: 2, verdict: 3 }
  : { warm: 30, bigLists: 7, cold: 7, stats: 5, dump: 3, workerBlocks: 3, verdict: 7 };

const log = (line: string) => console.log(line);

function build(kind: 'floor' | 'shipped'): void {
  log(`Building the extension (${kind === 'floor' ? 'with the floor page' : 'as shipped'})…`);
  const result = spawnSync('npx', ['wxt', 'build'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, WXT_BENCH: kind },
  });
  if (result.status !== 0) throw new Error(`The ${kind} build failed:\n${result.stdout}\n${result.stderr}`);
}

function bundleFigures(): Figure[] {
  const kb = (bytes: number) => bytes / 1000;
  const names = (files: string[]) => files.map((file) => file.replace(/^chunks\//, '')).join(', ');
  const popup = sizeOfPage(SHIPPED_BUILD, 'popup.html');
  const options = sizeOfPage(SHIPPED_BUILD, 'options.html');
  const worker = sizeOfWorker(SHIPPED_BUILD);
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
  const browserGroups = ['popup', 'worker', 'logs'].some((g) => groups.has(g as Group));
  if (!args.includes('--no-build')) {
    if (browserGroups) build('floor');
    if (groups.has('sizes')) build('shipped');
  }

  const figures: Figure[] = [];
  if (groups.has('verdict')) {
    log('Verdict lookup in Node…');
    figures.push(...measureVerdictLookup({ runs: RUNS.verdict }));
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
    log(`Emulator at ${emulator.url}; Chromium with ${FLOOR_BUILD}`);
    const session = await launchChromium({ extensionDir: FLOOR_BUILD });
    try {
      const setup = await session.firstRunPage();
      await configureExtension(setup, emulator);
      await untilQuiet(emulator);
      const control = await session.browser.newPage();
      await control.goto(session.extensionUrl('floor.html'), { waitUntil: 'load' });

      if (groups.has('popup')) {
        log('Popup…');
        figures.push(
          ...(await guarded(
            'the popup',
            [placeholder('popup-warm-ratio', 'Popup warm ÷ floor (same run)', '×')],
            () =>
              measurePopup({
                session,
                emulator,
                control,
                buildDir: FLOOR_BUILD,
                warmRuns: RUNS.warm,
                bigListRuns: RUNS.bigLists,
                coldRuns: RUNS.cold,
                latencies: [0, 100],
                log,
              }),
          )),
        );
      }
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
    } finally {
      await session.close();
      await emulator.close();
    }
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
