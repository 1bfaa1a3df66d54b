/**
 * The real toolbar popup, opened as a person opens it, timed against the floor extension's popup
 * (scripts/bench/floor-extension/) opened the same way in the same browser run.
 *
 * - Chromium: DevTools `Extensions.triggerAction` on the site's tab (puppeteer's
 *   `page.triggerExtensionAction`), which opens the popup and grants activeTab as a click does.
 * - Firefox: a real click on the Extensions button, then on the extension's item, in the browser
 *   window (tests/e2e/harness/firefox-popup.ts); the popup is read from an extension page.
 *
 * Each opening gives two times: in the document (the popup document's navigation start to its
 * mark: `verdict` for the product, `ready` for the floor) and from the click (the moment the
 * action was triggered to that mark, on the same wall clock). The product and the floor
 * alternate, the order turning each pair, with a pause after every opening so one popup's
 * teardown does not land in the next one's time. With a baseline (the product built at another
 * revision, scripts/bench/baseline.ts) each pair opens three popups, the order rotating.
 */
import { performance } from 'node:perf_hooks';
import type { Browser, Extension, Page } from 'puppeteer-core';
import type { EmulatorHandle } from '../../emulator/index.ts';
import {
  type BrowserWindow,
  type ExtensionPopup,
  openFirefoxPopup,
  readPopupFrom,
  waitForPopupCount,
} from '../../tests/e2e/harness/firefox-popup.ts';
import { atMost, type Figure, figure, formatNumber, summarise } from './figures.ts';
import type { LockSwitch } from './lock-switch.ts';
import { removeStored, sleep, untilQuiet } from './page.ts';
import { cacheBigLists } from './popup.ts';

export type PopupKind = 'product' | 'baseline' | 'floor';

/** The product and the floor, and the baseline when one is measured. */
export type MeasuredPopups<T> = { product: T; floor: T; baseline?: T | undefined };

function popupOf<T>(popups: MeasuredPopups<T>, kind: PopupKind): T {
  const popup = popups[kind];
  if (!popup) throw new Error(`No ${kind} popup is installed`);
  return popup;
}

export interface PopupTiming {
  inDocumentMs: number;
  fromClickMs: number;
  /** Navigation Timing of the popup document (ms from its navigation start), for the notes. */
  phases: Record<Phase, number>;
  /** Every `performance.mark` of the popup document by name (ms from its navigation start). */
  marks: Record<string, number>;
}

/** Where an opening's time goes, in the popup document's own Navigation Timing. */
const PHASES = ['responseEnd', 'scriptsReceived', 'domInteractive', 'domContentLoadedEventEnd'] as const;
type Phase = (typeof PHASES)[number];

/** Opens one extension's real popup on the site tab, waits for its mark, closes it. */
export interface RealPopupDriver {
  /** 'Chromium' or 'Firefox', as the table names it. */
  browserName: string;
  /** `untilCached`: the popup stays open until its storage holds cached lists (./real-popup.ts `UNTIL_CACHED`). */
  open(kind: PopupKind, options?: { untilCached?: boolean }): Promise<PopupTiming>;
}

/**
 * Run in the popup's host page: waits until the extension's storage holds a scope's cached lists
 * (`cachedLists:<scope>`, lib/cache/list-buckets.ts, the same in the baselines). A popup saves
 * the lists it fetched after it shows them, and one closed at its verdict, as the bench closes
 * it, may be gone before the save is done: a warm-up of such openings can leave nothing cached,
 * and every "warm" opening after it a cold one.
 */
const UNTIL_CACHED = `const deadline = Date.now() + 10000;
  while (Date.now() < deadline) {
    const names = Object.keys(await chrome.storage.local.get(null));
    if (names.some((name) => name.startsWith('cachedLists:'))) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;`;

const MARK: Record<PopupKind, string> = { product: 'verdict', baseline: 'verdict', floor: 'ready' };

/**
 * In the popup: `[mark start time, performance.timeOrigin, navigation phases, every mark]` once
 * the mark exists, else null.
 */
const markTimes = (mark: string) =>
  `(() => { const entry = view.performance.getEntriesByName(${JSON.stringify(mark)}, 'mark')[0];
    const navigation = view.performance.getEntriesByType('navigation')[0];
    const scripts = view.performance.getEntriesByType('resource').filter((r) => /\\.js$/.test(new URL(r.name).pathname));
    const phases = Object.fromEntries(${JSON.stringify(PHASES)}.map((p) => [p, navigation ? navigation[p] : NaN]));
    phases.scriptsReceived = scripts.length > 0 ? Math.max(...scripts.map((r) => r.responseEnd)) : NaN;
    const marks = Object.fromEntries(view.performance.getEntriesByType('mark').map((m) => [m.name, m.startTime]));
    return entry ? [entry.startTime, view.performance.timeOrigin, phases, marks] : null; })()`;

const nowEpochMs = () => performance.timeOrigin + performance.now();

export interface ChromiumPopupExtension {
  extension: Extension;
  /** One of the extension's own pages, through which its popup is read. */
  host: Page;
}

/**
 * Chromium: the popup is read from a page of its own extension (as in Firefox) rather than
 * attached to: puppeteer setting up a Page on the popup would run DevTools commands on the
 * popup's renderer while it loads, and add the same delay to both popups' times.
 */
export function chromiumDriver(
  extensions: MeasuredPopups<ChromiumPopupExtension>,
  site: Page,
): RealPopupDriver {
  return {
    browserName: 'Chromium',
    async open(kind, options) {
      const { extension, host } = popupOf(extensions, kind);
      await waitForPopupCount(host, 0);
      await site.bringToFront();
      const clickedAt = nowEpochMs();
      await site.triggerExtensionAction(extension);
      await waitForPopupCount(host, 1);
      return timeAndClose(readPopupFrom(host, clickedAt), kind, options);
    },
  };
}

async function timeAndClose(
  popup: ExtensionPopup,
  kind: PopupKind,
  options: { untilCached?: boolean } = {},
): Promise<PopupTiming> {
  try {
    const [startTime, timeOrigin, phases, marks] = await popup
      .waitFor<[number, number, Record<Phase, number>, Record<string, number>]>(markTimes(MARK[kind]))
      .catch(async (error: unknown) => {
        throw new Error(
          `the ${kind} popup did not mark '${MARK[kind]}': ${await whatPopupShows(popup, error)}`,
        );
      });
    if (options.untilCached && !(await popup.run<boolean>(UNTIL_CACHED))) {
      throw new Error(`the ${kind} popup kept no lists cached within 10 s of its '${MARK[kind]}'`);
    }
    return { inDocumentMs: startTime, fromClickMs: timeOrigin + startTime - popup.clickedAt, phases, marks };
  } finally {
    await popup.close();
  }
}

/** What a popup that missed its mark shows, and which marks it set, to say why in the notes. */
async function whatPopupShows(popup: ExtensionPopup, error: unknown): Promise<string> {
  const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  try {
    // What storage held then, by name only: the key's value never leaves the browser.
    const shown = await popup.run<string>(
      `const stored = await chrome.storage.local.get(null);
      const names = Object.keys(stored);
      const storage = {
        names: names.length,
        keySet: typeof stored.apiKey === 'string' && stored.apiKey !== '',
        lockOn: stored.lock != null,
        fingerprint: stored.apiKeyFingerprint,
        active: stored.accounts?.active,
        lists: names.filter((name) => name.startsWith('cachedLists')).length,
      };
      return JSON.stringify({ text: document.body.innerText.replace(/\\s+/g, ' ').slice(0, 160), marks: view.performance.getEntriesByType('mark').map((m) => m.name), storage });`,
    );
    return `${reason.slice(0, 60)}…; it showed ${shown}`;
  } catch {
    return `${reason.slice(0, 60)}…; no popup was open to read`;
  }
}

export interface FirefoxAddon {
  addonId: string;
  /** One of the add-on's own pages, through which its popup is read. */
  host: Page;
}

export function firefoxDriver(
  browser: Browser,
  window: BrowserWindow,
  addons: MeasuredPopups<FirefoxAddon>,
  site: Page,
): RealPopupDriver {
  return {
    browserName: 'Firefox',
    async open(kind, options) {
      const { addonId, host } = popupOf(addons, kind);
      const popup = await openFirefoxPopup({ browser, window, addonId, host, tab: site });
      return timeAndClose(popup, kind, options);
    },
  };
}

interface Alternation {
  timings: Record<PopupKind, PopupTiming[]>;
  /** Service calls during each opening and the pause after it. */
  calls: Record<PopupKind, string[][]>;
  /** Openings that missed their mark and were opened again, each with what the popup showed. */
  missed: string[];
}

/**
 * One opening of `kind`; one that misses its mark is said (`missed`) and opened again once, so a
 * single stray opening (a popup opened on the wrong tab, say) costs one figure, not the whole
 * browser's run. A second miss in a row ends the run.
 */
async function openOnce(driver: RealPopupDriver, kind: PopupKind, missed: string[]): Promise<PopupTiming> {
  try {
    return await driver.open(kind);
  } catch (error) {
    missed.push(error instanceof Error ? error.message : String(error));
    return driver.open(kind);
  }
}

/** `pairs` rounds of one opening of each of `kinds`, the order rotating each round. */
export async function alternate(
  driver: RealPopupDriver,
  emulator: EmulatorHandle,
  kinds: readonly PopupKind[],
  pairs: number,
  pauseMs: number,
): Promise<Alternation> {
  const result: Alternation = {
    timings: { product: [], baseline: [], floor: [] },
    calls: { product: [], baseline: [], floor: [] },
    missed: [],
  };
  for (let pair = 0; pair < pairs; pair++) {
    for (let step = 0; step < kinds.length; step++) {
      const kind = kinds[(pair + step) % kinds.length]!;
      const before = emulator.admin.calls().length;
      result.timings[kind].push(await openOnce(driver, kind, result.missed));
      await sleep(pauseMs);
      result.calls[kind].push(
        emulator.admin
          .calls()
          .slice(before)
          .map((call) => call.action),
      );
    }
  }
  return result;
}

export interface RealPopupBenchOptions {
  driver: RealPopupDriver;
  emulator: EmulatorHandle;
  /** A quiet page of the product (its storage is written from there for the large-lists case). */
  control: Page;
  pairs: number;
  bigListPairs: number;
  pauseMs: number;
  /** The product built at another revision, installed beside it (the driver opens it too). */
  baseline?: {
    /** A quiet page of the baseline, as `control` is of the product. */
    control: Page;
    /** The revision, for the notes. */
    label: string;
  };
  /**
   * Turns the product's passphrase lock on (docs/lock.md); when given, the product's popup is
   * also opened locked and unlocked in turn, and the lock is turned off again after.
   */
  lock?: () => Promise<LockSwitch>;
  log(line: string): void;
}

/**
 * `pairs` rounds of the product's popup opened once locked and once unlocked, the order turning
 * each round; the lock is switched before each opening, then the pause.
 */
async function alternateLocked(
  driver: RealPopupDriver,
  emulator: EmulatorHandle,
  lock: LockSwitch,
  pairs: number,
  pauseMs: number,
  missed: string[],
): Promise<Record<'locked' | 'unlocked', { timings: PopupTiming[]; calls: string[][] }>> {
  const result = {
    locked: { timings: [] as PopupTiming[], calls: [] as string[][] },
    unlocked: { timings: [] as PopupTiming[], calls: [] as string[][] },
  };
  for (let pair = 0; pair < pairs; pair++) {
    const order = pair % 2 === 0 ? (['locked', 'unlocked'] as const) : (['unlocked', 'locked'] as const);
    for (const state of order) {
      await (state === 'locked' ? lock.lock() : lock.unlock());
      await sleep(pauseMs);
      const before = emulator.admin.calls().length;
      result[state].timings.push(await openOnce(driver, 'product', missed));
      await sleep(pauseMs);
      result[state].calls.push(
        emulator.admin
          .calls()
          .slice(before)
          .map((call) => call.action),
      );
    }
  }
  return result;
}

export const ratiosOf = (a: readonly number[], b: readonly number[]) => a.map((value, i) => value / b[i]!);
export const differencesOf = (a: readonly number[], b: readonly number[]) =>
  a.map((value, i) => value - b[i]!);
export const medianOf = (samples: readonly number[]) => summarise(samples).median;

// The product's own marks on its start path (`popup:…`, entrypoints/popup), in time order.
function marksNote(timings: PopupTiming[]): string {
  const names = [...new Set(timings.flatMap((t) => Object.keys(t.marks)))];
  const medians = names.map(
    (mark) => [mark, medianOf(timings.map((t) => t.marks[mark] ?? Number.NaN))] as const,
  );
  return medians
    .sort(([, a], [, b]) => a - b)
    .map(([mark, ms]) => `${mark} ${formatNumber(ms)}`)
    .join(', ');
}

export async function measureRealPopups(options: RealPopupBenchOptions): Promise<Figure[]> {
  const { driver, emulator, control, baseline, log } = options;
  const name = driver.browserName;
  const id = driver.browserName.toLowerCase();
  const kinds: PopupKind[] = baseline ? ['product', 'baseline', 'floor'] : ['product', 'floor'];
  const inDocument = (timings: PopupTiming[]) => timings.map((t) => t.inDocumentMs);

  // Warm-up, not counted: the first openings fill the products' caches and compile the popups.
  const warm = await alternate(driver, emulator, kinds, 2, options.pauseMs);
  // Then each product popup once more, open until its lists are cached (UNTIL_CACHED says why).
  for (const kind of kinds) if (kind !== 'floor') await driver.open(kind, { untilCached: true });
  await untilQuiet(emulator);

  const run = await alternate(driver, emulator, kinds, options.pairs, options.pauseMs);
  const missed = [...warm.missed, ...run.missed];
  log(`  ${name}: ${options.pairs} openings of each popup, ${baseline ? 'rotating' : 'alternating'}`);
  const productDoc = inDocument(run.timings.product);
  const baselineDoc = inDocument(run.timings.baseline);
  const floorDoc = inDocument(run.timings.floor);
  const productClick = run.timings.product.map((t) => t.fromClickMs);
  const floorClick = run.timings.floor.map((t) => t.fromClickMs);

  // Locked and unlocked in turn, before the large lists (whose removal after their pass leaves
  // the site's lists uncached: a locked popup then rightly has no verdict, docs/lock.md).
  const lockedFigures: Figure[] = [];
  if (options.lock) {
    const lock = await options.lock();
    try {
      await untilQuiet(emulator);
      await alternateLocked(driver, emulator, lock, 1, options.pauseMs, missed);
      const locked = await alternateLocked(driver, emulator, lock, options.pairs, options.pauseMs, missed);
      log(`  ${name}: ${options.pairs} openings locked and unlocked, alternating`);
      const lockedDoc = inDocument(locked.locked.timings);
      const unlockedDoc = inDocument(locked.unlocked.timings);
      const lockedCalls = locked.locked.calls.flat();
      lockedFigures.push(
        figure(
          `${id}-locked-popup-verdict-ms`,
          `${name}: locked popup to verdict, in document`,
          'ms',
          lockedDoc,
          null,
          `the passphrase lock on and locked, warm cache; ${lockedCalls.length} service calls in ${lockedDoc.length} openings; the popup's marks: ${marksNote(locked.locked.timings)}`,
        ),
        figure(
          `${id}-unlocked-popup-verdict-ms`,
          `${name}: unlocked popup to verdict, in document`,
          'ms',
          unlockedDoc,
          null,
          'the lock on and unlocked, alternating with the locked openings',
        ),
        figure(
          `${id}-locked-minus-unlocked-ms`,
          `${name}: locked − unlocked popup, in document`,
          'ms',
          differencesOf(lockedDoc, unlockedDoc),
          atMost(3, '≤ +3 ms'),
          `per pair (the order turning); difference of the medians ${formatNumber(medianOf(lockedDoc) - medianOf(unlockedDoc))} ms`,
        ),
      );
    } finally {
      await lock.turnOff();
      await untilQuiet(emulator);
    }
  }

  // Both cached lists at 100,000 entries each, as a fetch of such lists leaves them, in each
  // product's own storage and format.
  const controls = [control, ...(baseline ? [baseline.control] : [])];
  const bigKeys = await Promise.all(controls.map((page) => cacheBigLists(page, 100_000)));
  await untilQuiet(emulator, 300);
  missed.push(...(await alternate(driver, emulator, kinds, 1, options.pauseMs)).missed);
  const big = await alternate(driver, emulator, kinds, options.bigListPairs, options.pauseMs);
  missed.push(...big.missed);
  for (const line of missed) log(`  ${name}: opened again after a miss: ${line}`);
  for (const [index, page] of controls.entries()) await removeStored(page, bigKeys[index] ?? []);
  log(`  ${name}: ${options.bigListPairs} pairs with 2 × 100,000 cached entries`);
  const bigDoc = inDocument(big.timings.product);
  const bigBaselineDoc = inDocument(big.timings.baseline);
  const bigFloorDoc = inDocument(big.timings.floor);
  const bigCalls = big.calls.product.flat().length;

  const calls = run.calls.product.map((c) => c.length);
  const callNames = [...new Set(run.calls.product.flat())];
  const baselineCalls = run.calls.baseline.flat();
  // Resource Timing lists no extension resource in Chromium: its "last script received" is "–".
  const phasesNote = (timings: PopupTiming[], mark: string) => {
    const median = (phase: Phase) => formatNumber(medianOf(timings.map((t) => t.phases[phase])));
    return `median ms from navigation start: document received ${median('responseEnd')}, last script received ${median('scriptsReceived')}, DOM interactive ${median('domInteractive')}, DOMContentLoaded done ${median('domContentLoadedEventEnd')}, '${mark}' ${formatNumber(medianOf(timings.map((t) => t.inDocumentMs)))}`;
  };
  // Steps measured within each opening, then their median: the medians of two marks do not
  // subtract, because each opening's marks move together with its document's start. "After the
  // inputs" is what the popup's own code takes once both its modules and its early reads are in
  // (docs/performance.md, "Where the popup's time goes").
  const stepsNote = (timings: PopupTiming[]) => {
    const at = (marks: Record<string, number>, name: string) => marks[name] ?? Number.NaN;
    const step = (from: (marks: Record<string, number>) => number, to: string) =>
      formatNumber(medianOf(timings.map(({ marks }) => at(marks, to) - from(marks))));
    const inputs = (marks: Record<string, number>) =>
      Math.max(at(marks, 'popup:early-reads'), at(marks, 'popup:modules'));
    return `first script ${step((marks) => at(marks, 'popup:first-script'), 'popup:first-script-done')}, after the inputs (the later of the early reads and the modules) to the verdict ${step(inputs, 'verdict')}, of which from the lists to the verdict ${step((marks) => at(marks, 'popup:lists'), 'verdict')}`;
  };
  // An opening that missed its mark was opened again (openOnce): said, never silently dropped.
  const missedNote =
    missed.length === 0
      ? ''
      : `; ${missed.length} opening(s) missed their mark and were opened again: ${missed.join(' | ')}`;
  const ratioNote = (a: number[], b: number[]) =>
    `per pair; ratio of the medians ${(medianOf(a) / medianOf(b)).toFixed(2)}`;
  const againstBaseline = baseline
    ? [
        figure(
          `${id}-baseline-verdict-ms`,
          `${name}: baseline popup to verdict, in document`,
          'ms',
          baselineDoc,
          null,
          `${baseline.label}, set up as the product is; the popup's marks: ${marksNote(run.timings.baseline)}`,
        ),
        figure(
          `${id}-popup-minus-baseline-ms`,
          `${name}: real popup − baseline, in document`,
          'ms',
          differencesOf(productDoc, baselineDoc),
          atMost(3, '≤ +3 ms'),
          `per pair (product, baseline and floor, the order rotating); difference of the medians ${formatNumber(medianOf(productDoc) - medianOf(baselineDoc))} ms`,
        ),
      ]
    : [];
  const bigBaselineNote = baseline
    ? `; baseline median ${medianOf(bigBaselineDoc).toFixed(1)} ms, real popup − baseline per pair ${formatNumber(medianOf(differencesOf(bigDoc, bigBaselineDoc)))} ms`
    : '';
  const callsNote = [
    ...(callNames.length > 0 ? [`calls: ${callNames.join(', ')}`] : []),
    ...(baseline
      ? [
          `baseline: ${baselineCalls.length} calls in ${run.calls.baseline.length} openings${baselineCalls.length > 0 ? ` (${[...new Set(baselineCalls)].join(', ')})` : ''}`,
        ]
      : []),
  ].join('; ');
  return [
    figure(
      `${id}-popup-verdict-ms`,
      `${name}: real popup to verdict, in document`,
      'ms',
      productDoc,
      null,
      `toolbar popup document's navigation start to the 'verdict' mark, warm cache; ${phasesNote(run.timings.product, 'verdict')}; the popup's marks: ${marksNote(run.timings.product)}; per opening, medians in ms: ${stepsNote(run.timings.product)}${missedNote}`,
    ),
    ...againstBaseline,
    figure(
      `${id}-floor-ready-ms`,
      `${name}: floor popup to ready, in document`,
      'ms',
      floorDoc,
      null,
      `floor extension's toolbar popup (one storage read, one Preact render); ${phasesNote(run.timings.floor, 'ready')}`,
    ),
    figure(
      `${id}-popup-ratio`,
      `${name}: real popup ÷ floor, in document`,
      '×',
      ratiosOf(productDoc, floorDoc),
      atMost(1.2, '≤ 1.2'),
      ratioNote(productDoc, floorDoc),
    ),
    figure(
      `${id}-popup-click-ms`,
      `${name}: real popup, click to verdict`,
      'ms',
      productClick,
      null,
      driver.browserName === 'Chromium'
        ? 'Extensions.triggerAction sent to the verdict mark (includes the DevTools round trip)'
        : 'the synthesized mousedown on the extension item to the verdict mark',
    ),
    figure(`${id}-floor-click-ms`, `${name}: floor popup, click to ready`, 'ms', floorClick),
    figure(
      `${id}-popup-click-ratio`,
      `${name}: real popup ÷ floor, from the click`,
      '×',
      ratiosOf(productClick, floorClick),
      atMost(1.03, '≤ 1.03'),
      ratioNote(productClick, floorClick),
    ),
    figure(
      `${id}-popup-big-lists-ratio`,
      `${name}: real popup ÷ floor, 2 × 100k cached`,
      '×',
      ratiosOf(bigDoc, bigFloorDoc),
      atMost(1.5, '≤ 1.5'),
      `in document; popup median ${medianOf(bigDoc).toFixed(1)} ms, floor ${medianOf(bigFloorDoc).toFixed(1)} ms; the popup's marks: ${marksNote(big.timings.product)}${bigCalls > 0 ? `; the popup called the service ${bigCalls} times, so it did not answer from these lists` : ''}${bigBaselineNote}`,
    ),
    figure(
      `${id}-popup-calls-warm`,
      `${name}: API calls per warm real popup`,
      'calls',
      calls,
      atMost(0, '0'),
      callsNote || undefined,
    ),
    ...lockedFigures,
  ];
}
