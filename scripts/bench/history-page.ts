/**
 * History in the real options page (docs/history.md), in Chromium: two snapshots of an account
 * of 2 × 100,000 entries (1 % churn), taken by the section's own "Take snapshot" (lib/history);
 * then the time from a click on "Compare with now" to the diff shown. And a rollback of 1,000
 * changes started from the section, as a person does, against the emulator: its pace as the
 * emulator sees it, and the real popup opened while it runs.
 */
import type { Page } from 'puppeteer-core';
import type { EmulatorHandle } from '../../emulator/index.ts';
import { canonicalEntries } from '../../lib/history/model.ts';
import type { ChromiumSession } from '../../tests/e2e/harness/chromium.ts';
import { atMost, below, type Figure, figure, formatNumber } from './figures.ts';
import { churn, random } from './history.ts';
import { inPage, sleep, untilQuiet } from './page.ts';
import { alternate, medianOf, type PopupTiming, type RealPopupDriver, ratiosOf } from './real-popup.ts';
import { syntheticList } from './verdict-lookup.ts';

const ENTRIES = 100_000;
const PROFILE = 'default';

/** Plain DOM steps passed as strings (./lock-switch.ts says why). */
const buttonByText = (start: string, within = 'document') =>
  `[...${within}.querySelectorAll('button')].find((b) => b.textContent.trim().startsWith(${JSON.stringify(start)}) && !b.disabled && b.getAttribute('aria-disabled') !== 'true')`;
const historySection = "document.querySelector('section.history')";

async function until(page: Page, check: string, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await inPage<boolean>(page, `Boolean(${check})`).catch(() => false))) {
    if (Date.now() > deadline) {
      const buttons = await inPage<string[]>(
        page,
        "[...document.querySelectorAll('.history button')].map((b) => b.textContent.trim()).slice(0, 12)",
      ).catch(() => []);
      throw new Error(`The History section never showed ${what} (its buttons: ${buttons.join(' | ')})`);
    }
    await sleep(100);
  }
}

/** The options page at its History section, its snapshots listed (at least `snapshots`). */
async function openHistory(page: Page, optionsUrl: string, snapshots: number): Promise<void> {
  await page.goto(optionsUrl, { waitUntil: 'load' });
  await until(page, 'document.querySelector(\'a[href="#history"]\')', 'its link');
  await inPage(page, '(document.querySelector(\'a[href="#history"]\').click(), true)');
  await until(
    page,
    `document.querySelectorAll('button[aria-label^="Compare with now"]').length >= ${snapshots}`,
    `${snapshots} snapshots`,
  );
}

/** "Take snapshot", until the section says it was taken. */
async function takeSnapshot(page: Page): Promise<void> {
  await until(page, buttonByText('Take snapshot'), 'Take snapshot');
  await inPage(page, `(${buttonByText('Take snapshot')}.click(), true)`);
  await until(
    page,
    `[...${historySection}.querySelectorAll('[role=status]')].some((s) => s.textContent.includes('Snapshot taken.'))`,
    'Snapshot taken.',
  );
}

/**
 * A click on "Compare with now" of the snapshot at `index` (0: the newest) to the diff's card in
 * the page, in ms on the page's clock; a MutationObserver sees the card come.
 */
function timeCompare(page: Page, index: number): Promise<number> {
  return inPage<number>(
    page,
    `new Promise((resolve) => {
      const button = document.querySelectorAll('button[aria-label^="Compare with now"]')[${index}];
      const observer = new MutationObserver(() => {
        if (document.querySelector('.history-diff li, .history-diff tr')) {
          observer.disconnect();
          resolve(performance.now() - start);
        }
      });
      observer.observe(document.body, { childList: true, subtree: true });
      const start = performance.now();
      button.click();
    })`,
  );
}

export interface HistoryPageSetup {
  session: ChromiumSession;
  emulator: EmulatorHandle;
  runs: number;
  log(line: string): void;
}

export interface HistoryPage {
  figures: Figure[];
  /**
   * The account's lists back to the seeded ones and snapshotted: the popup and the rollback are
   * measured with the lists the popup's other figures have, the history of 2 × 100,000 kept.
   */
  seededAgain(): Promise<void>;
  /** Starts a rollback of 1,000 changes from the section; resolves once it sends. */
  startRollback(): Promise<RollbackRun>;
  /** The emulator's default lists as they were, and the page closed. */
  close(): Promise<void>;
}

export interface RollbackRun {
  /** Whether the rollback still has changes to send. */
  running(): Promise<boolean>;
  /** Waits for its end (at most `timeoutMs`), then gives its pace as the emulator saw it. */
  finish(timeoutMs: number): Promise<Figure[]>;
}

export async function measureHistoryPage(setup: HistoryPageSetup): Promise<HistoryPage> {
  const { session, emulator, log } = setup;
  const before = emulator.admin.state().profiles[PROFILE]!;
  const restore = { whitelist: [...before.whitelist], blocklist: [...before.blocklist] };
  const whitelist = canonicalEntries(syntheticList(ENTRIES, 21, 'w').map((d) => d.toLowerCase()));
  const blocklist = canonicalEntries(syntheticList(ENTRIES, 22, 'b').map((d) => d.toLowerCase()));
  emulator.admin.replaceDomains('whitelist', whitelist, PROFILE);
  emulator.admin.replaceDomains('blocklist', blocklist, PROFILE);

  const optionsUrl = session.extensionUrl('options.html');
  const page = await session.browser.newPage();
  await openHistory(page, optionsUrl, 0);
  log('  History: a snapshot of 2 × 100,000 entries…');
  await takeSnapshot(page);
  const next = random(11);
  const churned = {
    whitelist: churn(whitelist, 0.01, next, 1, 'w'),
    blocklist: churn(blocklist, 0.01, next, 1, 'b'),
  };
  emulator.admin.replaceDomains('whitelist', churned.whitelist, PROFILE);
  emulator.admin.replaceDomains('blocklist', churned.blocklist, PROFILE);
  log('  History: the second, 1 % changed…');
  await takeSnapshot(page);

  // The older snapshot (listed last) against now, which is the newer one's state.
  const compareMs: number[] = [];
  const listCalls: number[] = [];
  const steps: { stored: number; now: number; diff: number }[] = [];
  for (let run = 0; run <= setup.runs; run++) {
    await openHistory(page, optionsUrl, 2);
    // A person looks at the list before choosing a snapshot; the section reads the account now
    // meanwhile (lib/history/page.ts `warm`), which is what the click then uses.
    await sleep(1_000);
    const calls = emulator.admin.calls().length;
    await inPage(page, '(performance.clearMarks(), true)');
    const ms = await timeCompare(page, 1);
    const marks = await inPage<Record<string, number>>(
      page,
      "Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime]))",
    );
    const from = marks['history:compare'] ?? Number.NaN;
    if (run > 0)
      steps.push({
        stored: (marks['history:compare-stored'] ?? Number.NaN) - from,
        now: (marks['history:compare-now'] ?? Number.NaN) - from,
        diff:
          (marks['history:compare-diffed'] ?? Number.NaN) -
          Math.max(marks['history:compare-stored'] ?? Number.NaN, marks['history:compare-now'] ?? Number.NaN),
      });
    // The first, not counted, compiles the code on the way.
    if (run === 0) continue;
    compareMs.push(ms);
    listCalls.push(emulator.admin.calls().length - calls);
  }
  const lines = await inPage<string>(
    page,
    "document.querySelector('.history-diff')?.textContent.match(/[\\d,]+ more/)?.[0] ?? ''",
  );
  log(`  History: ${setup.runs} comparisons in the options page`);
  const step = (name: 'stored' | 'now' | 'diff') => formatNumber(medianOf(steps.map((s) => s[name])));
  const figures = [
    figure(
      'history-page-diff-ms',
      'History diff in the options page (Chromium)',
      'ms',
      compareMs,
      below(200, '< 200 ms'),
      `2 × 100,000 entries, 1 % changed; the click on "Compare with now" of the older snapshot to the diff's card shown (MutationObserver), which includes rebuilding the stored snapshot (median ${step('stored')} ms from the click's handler), the account now, read through the service when the section opened (${formatNumber(listCalls[0] ?? Number.NaN)} calls to the emulator after the click; waited for from the click's handler, median ${step('now')} ms, side by side with the former), the diff and its rollback plan (${step('diff')} ms) and the render; ${lines ? `the card lists 300 lines and "${lines}"` : ''}`,
    ),
  ];

  return {
    figures,
    async seededAgain() {
      emulator.admin.replaceDomains('whitelist', restore.whitelist, PROFILE);
      emulator.admin.replaceDomains('blocklist', restore.blocklist, PROFILE);
      await openHistory(page, optionsUrl, 2);
      await takeSnapshot(page);
    },
    async startRollback() {
      // The newest snapshot is the account as it is; 1,000 entries added behind the extension's
      // back: "Compare with now" on it gives 1,000 lines, rolled back as 1,000 removals.
      const added = Array.from({ length: 1_000 }, (_, i) => `rollback-bench-${i}.example`);
      emulator.admin.replaceDomains('whitelist', [...restore.whitelist, ...added], PROFILE);
      await openHistory(page, optionsUrl, 3);
      await timeCompare(page, 0);
      const openDialog = buttonByText('Roll back', historySection);
      await until(page, openDialog, 'Roll back…');
      await inPage(page, `(${openDialog}.click(), true)`);
      const dialog = "document.querySelector('[role=dialog], dialog[open]')";
      await until(page, `${dialog} && ${buttonByText('Roll back 1,000 changes', dialog)}`, 'the dialog');
      const startedAt = Date.now();
      await inPage(page, `(${buttonByText('Roll back 1,000 changes', dialog)}.click(), true)`);
      const removals = () =>
        emulator.admin
          .calls()
          .filter((call) => call.at >= startedAt && /whitelist\/(delete|remove)/.test(call.action));
      await until(page, "document.querySelector('progress')", 'its progress');
      const running = async () =>
        inPage<boolean>(page, "Boolean(document.querySelector('progress'))").catch(() => false);
      return {
        running,
        async finish(timeoutMs) {
          const deadline = Date.now() + timeoutMs;
          while ((await running()) && Date.now() < deadline) await sleep(1_000);
          const done = !(await running());
          const calls = removals();
          const times = calls.map((call) => call.at);
          const spanS = times.length > 1 ? (times.at(-1)! - times[0]!) / 1000 : Number.NaN;
          const perSecond = new Map<number, number>();
          for (const at of times)
            perSecond.set(Math.floor(at / 1000), (perSecond.get(Math.floor(at / 1000)) ?? 0) + 1);
          const gaps = times.slice(1).map((at, i) => at - times[i]!);
          return [
            figure(
              'history-rollback-pace',
              'Rollback of 1,000 changes: pace at the emulator (Chromium)',
              'calls/s',
              [(times.length - 1) / spanS],
              atMost(4, '≤ 4 calls/s'),
              `${calls.length} removals seen by the emulator over ${formatNumber(spanS)} s${done ? '' : ' (stopped waiting before its end)'}; at most ${Math.max(0, ...perSecond.values())} in any calendar second; gaps between calls: shortest ${formatNumber(Math.min(...gaps))} ms; progress shown by the section's progress bar`,
            ),
          ];
        },
      };
    },
    async close() {
      emulator.admin.replaceDomains('whitelist', restore.whitelist, PROFILE);
      emulator.admin.replaceDomains('blocklist', restore.blocklist, PROFILE);
      await page.close();
    },
  };
}

export interface RollbackPopupSetup extends HistoryPageSetup {
  driver: RealPopupDriver;
  /** A quiet page of the product. */
  control: Page;
  pairs: number;
  pauseMs: number;
}

/**
 * History in the options page, then the real popup (product and floor alternating) with no
 * rollback running and while a rollback of 1,000 changes runs, the floor beside each opening
 * so that what the machine's load does to both cancels out (docs/performance.md).
 */
export async function measureHistoryInPage(setup: RollbackPopupSetup): Promise<Figure[]> {
  const { driver, emulator, log } = setup;
  const history = await measureHistoryPage(setup);
  try {
    const inDocument = (timings: PopupTiming[]) => timings.map((t) => t.inDocumentMs);
    await history.seededAgain();
    // Warm-up, not counted: the popup caches the lists as seeded again.
    await alternate(driver, emulator, ['product', 'floor'], 3, setup.pauseMs);
    await untilQuiet(emulator);
    const idle = await alternate(driver, emulator, ['product', 'floor'], setup.pairs, setup.pauseMs);
    const bytesInUse = await inPage<number>(setup.control, 'chrome.storage.local.getBytesInUse(null)');
    log(`  Popup: ${setup.pairs} pairs with no rollback running`);
    const rollback = await history.startRollback().catch((error: unknown) => {
      log(`  the rollback could not be started: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    });
    if (rollback === null) return history.figures;
    const during = await alternate(driver, emulator, ['product', 'floor'], setup.pairs, setup.pauseMs);
    const stillRunning = await rollback.running();
    log(
      `  Popup: ${setup.pairs} pairs while the rollback runs${stillRunning ? '' : ' (it ended before the last)'}`,
    );
    const pace = await rollback.finish(8 * 60_000);
    const idleDoc = inDocument(idle.timings.product);
    const duringDoc = inDocument(during.timings.product);
    const idleRatio = ratiosOf(idleDoc, inDocument(idle.timings.floor));
    const duringRatio = ratiosOf(duringDoc, inDocument(during.timings.floor));
    return [
      ...history.figures,
      ...pace,
      figure(
        'chromium-popup-idle-verdict-ms',
        'Chromium: real popup to verdict, no rollback running',
        'ms',
        idleDoc,
        null,
        `in document, the account's lists as seeded, the history of 2 × 100,000 stored; ÷ floor per pair: median ${formatNumber(medianOf(idleRatio))}; ${idle.calls.product.flat().length} calls by the popup; storage.local holds ${formatNumber(bytesInUse / 1e6)} MB`,
      ),
      figure(
        'chromium-popup-rollback-verdict-ms',
        'Chromium: real popup to verdict, during a rollback',
        'ms',
        duringDoc,
        null,
        `in document, while the options page sends a rollback of 1,000 changes${stillRunning ? '' : ' (it ended before the last opening)'}; ÷ floor per pair: median ${formatNumber(medianOf(duringRatio))}; ${during.calls.product.flat().length} calls by the popup`,
      ),
      figure(
        'chromium-popup-rollback-ratio-change',
        'Chromium: popup ÷ floor, during a rollback − none',
        '×',
        [medianOf(duringRatio) - medianOf(idleRatio)],
        atMost(0.1, '≤ +0.1'),
        `the median per-pair ratio to the floor during the rollback minus the one before it (${formatNumber(medianOf(duringRatio))} − ${formatNumber(medianOf(idleRatio))})`,
      ),
    ];
  } finally {
    await history.close();
  }
}
