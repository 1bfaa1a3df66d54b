#!/usr/bin/env node
/**
 * `npm test`: every check the project has, in order, with their output streamed as they run,
 * ending with one summary line `N passed, N failed` (`, N skipped` when any).
 *
 * A failing check or suite does not stop the run, so the summary is complete; a failing build
 * does, because every later suite would only test a stale or missing build.
 * Checks that are not test suites (lint, type check, builds) count as one test each.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'node_modules', '.bin');
const REPORTS = join(ROOT, 'test-results');

/** A vitest run whose counts come from its JSON report. */
const vitest = (name, configArgs, report, env = {}) => ({
  name,
  kind: 'suite',
  command: [
    join(BIN, 'vitest'),
    'run',
    ...configArgs,
    '--reporter=default',
    '--reporter=json',
    `--outputFile=${join(REPORTS, report)}`,
  ],
  report: join(REPORTS, report),
  env,
});

// ─── THE STEPS, IN ORDER ────────────────────────────────────────────────────────────────────
// Add a step here. kind 'check': passes when the command exits 0 (counts as one test).
// kind 'build': like a check, and a failure stops the run. kind 'suite': a vitest run (see
// `vitest` above) whose tests are counted one by one.
const STEPS = [
  // npm ci refuses a lockfile that lacks other platforms' optional builds; catch that before CI does.
  {
    name: 'lockfile usable by npm ci',
    kind: 'check',
    command: [process.execPath, join(ROOT, 'scripts', 'complete-lockfile.mjs'), '--check'],
  },
  {
    name: 'lint and format (biome ci)',
    kind: 'check',
    command: [join(BIN, 'biome'), 'ci', ...(process.stdout.isTTY ? [] : ['--colors=off']), '.'],
  },
  { name: 'type check (tsc --noEmit)', kind: 'check', command: [join(BIN, 'tsc'), '--noEmit'] },
  // The layout stays readable: no import cycles, no file or export that nothing uses
  // (docs/architecture.md, "The rooms").
  {
    name: 'no import cycles (madge)',
    kind: 'check',
    command: [process.execPath, join(ROOT, 'scripts', 'check-cycles.mjs')],
  },
  {
    name: 'no unused files, exports or dependencies (knip)',
    kind: 'check',
    command: [join(BIN, 'knip'), '--no-progress'],
  },
  { name: 'build for Chrome', kind: 'build', command: ['npm', 'run', 'build'] },
  { name: 'build for Firefox', kind: 'build', command: ['npm', 'run', 'build:firefox'] },
  // Mozilla's add-on linter on what Firefox users install: exits non-zero on errors only. Its
  // warnings are printed for reading (README "Permissions" says which remain and why).
  {
    name: 'web-ext lint (Firefox build)',
    kind: 'check',
    command: [
      join(BIN, 'web-ext'),
      'lint',
      '--source-dir',
      join(ROOT, '.output', 'firefox-mv3'),
      '--no-config-discovery',
    ],
  },
  // The popup opens with one module and without zod (docs/architecture.md, "Storage"): a static
  // import that brings zod back fails here.
  {
    name: 'popup first module: one, without zod',
    kind: 'check',
    command: [join(BIN, 'tsx'), join(ROOT, 'scripts', 'check-popup-modules.ts')],
  },
  vitest('unit and contract tests', [], 'vitest-unit.json'),
  // The builds above are fresh: the e2e global setup need not build again.
  vitest('e2e tests (Chromium, Firefox)', ['-c', 'vitest.e2e.config.ts'], 'vitest-e2e.json', {
    E2E_SKIP_BUILD: '1',
  }),
  // The README's first command, as a newcomer without a display runs it: it fails unless the popup
  // shows the demo site blocked and both screenshots are written (demo-screenshots/).
  {
    name: 'npm run demo (headless)',
    kind: 'check',
    command: ['npm', 'run', 'demo'],
    env: { DISPLAY: '', WAYLAND_DISPLAY: '' },
  },
];
// ────────────────────────────────────────────────────────────────────────────────────────────

function run(command, env) {
  const [program, ...args] = command;
  return new Promise((resolve) => {
    const child = spawn(program, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', (error) => {
      console.error(`Could not start ${program}: ${error.message}`);
      resolve(127);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/**
 * Counts from vitest's JSON report. A test file that failed to load has no test results but is a
 * failure; so is a run that wrote no report at all.
 */
function countSuite(reportPath, exitCode) {
  if (!existsSync(reportPath)) return { passed: 0, failed: 1, skipped: 0, note: 'no JSON report written' };
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  const filesFailedToLoad = (report.testResults ?? []).filter(
    (file) => file.status === 'failed' && (file.assertionResults ?? []).length === 0,
  ).length;
  const counts = {
    passed: report.numPassedTests ?? 0,
    failed: (report.numFailedTests ?? 0) + filesFailedToLoad,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
  };
  const failures = failedTests(report);
  // Vitest can fail a run without failing a test (an unhandled error, a teardown crash).
  if (exitCode !== 0 && counts.failed === 0)
    return { ...counts, failed: 1, failures, note: `exit code ${exitCode}` };
  return { ...counts, failures };
}

/**
 * Which tests failed, each with the first line of its message: the summary repeats them, because
 * a CI log is often read from its end only, far below the failure's own output.
 */
function failedTests(report) {
  const failures = [];
  for (const file of report.testResults ?? []) {
    const where = relative(ROOT, file.name ?? '');
    const failedInFile = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    if (file.status === 'failed' && failedInFile.length === 0)
      failures.push(`${where}: ${firstLine(file.message) || 'failed to load'}`);
    for (const test of failedInFile)
      failures.push(`${where} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
  }
  return failures;
}

const firstLine = (text) => (text ?? '').trim().split('\n')[0].slice(0, 240);

const line = (text) =>
  console.log(`\n\u2500\u2500\u2500\u2500 ${text} ${'\u2500'.repeat(Math.max(4, 90 - text.length))}`);

mkdirSync(REPORTS, { recursive: true });
const results = [];
let stopped = false;
for (const step of STEPS) {
  if (stopped) {
    results.push({ name: step.name, status: 'not run', passed: 0, failed: 0, skipped: 0 });
    continue;
  }
  line(step.name);
  if (step.report) rmSync(step.report, { force: true });
  const started = Date.now();
  const exitCode = await run(step.command, step.env);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const counts =
    step.kind === 'suite'
      ? countSuite(step.report, exitCode)
      : { passed: exitCode === 0 ? 1 : 0, failed: exitCode === 0 ? 0 : 1, skipped: 0 };
  const status = exitCode === 0 && counts.failed === 0 ? 'ok' : 'FAILED';
  results.push({ name: step.name, status, seconds, ...counts });
  if (step.kind === 'build' && status !== 'ok') {
    console.error(
      `\n${step.name} failed: the remaining steps would test a stale build, so they are not run.`,
    );
    stopped = true;
  }
}

line('summary');
for (const result of results) {
  const counts = result.status === 'not run' ? '' : `  ${result.passed} passed, ${result.failed} failed`;
  const skipped = result.skipped ? `, ${result.skipped} skipped` : '';
  const time = result.seconds ? `  (${result.seconds} s)` : '';
  const note = result.note ? `  [${result.note}]` : '';
  console.log(`${result.status.padEnd(7)} ${result.name}${counts}${skipped}${time}${note}`);
  for (const failure of result.failures ?? []) console.log(`          \u2717 ${failure}`);
}
const total = (key) => results.reduce((sum, result) => sum + result[key], 0);
const passed = total('passed');
const failed = total('failed');
const skipped = total('skipped');
const anyFailure = results.some((result) => result.status !== 'ok');
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(anyFailure ? 1 : 0);
