/**
 * Popup figures in a tab (Chromium), secondary to the real toolbar popup's (real-popup.ts): time
 * to verdict with a warm cache against the floor extension's popup page in the same tab, time to
 * the fresh verdict with a cold cache at two service latencies, API calls per opening, and the
 * JavaScript a popup opening really loads (a tab shows every script request; a toolbar popup is
 * attached too late to see its first ones).
 *
 * The popup is measured as `popup.html?tabId=<site tab>` in a tab of its own (ui-contract.md),
 * so every opening is a plain navigation whose timing the page itself reports. The extension may
 * read the site tab because the bench first opens the real popup on it once (DevTools
 * `Extensions.triggerAction`), which grants `activeTab` for that tab until it navigates: the same
 * grant a person gives, and no permission the shipped extension lacks.
 */
import type { Page } from 'puppeteer-core';
import type { EmulatorHandle } from '../../emulator/index.ts';
import { splitIntoBuckets } from '../../lib/cache/list-buckets.ts';
import { canonicalSortedDomains, packDomains } from '../../lib/filtering/domain-index.ts';
import type { ChromiumSession } from '../../tests/e2e/harness/chromium.ts';
import { sizeOfFiles } from './bundle-size.ts';
import { atMost, below, type Figure, figure, summarise } from './figures.ts';
import {
  forgetStartCopiesJs,
  inPage,
  removeStoredKeys,
  statusMatching,
  untilQuiet,
  waitForMark,
} from './page.ts';
import { syntheticList } from './verdict-lookup.ts';

/** On none of the demo account's lists: the verdict needs both lists and today's statistics. */
export const SITE_HOST = 'weather.example.com';
/** Whitelist, blocklist and today's statistics: what a verdict for SITE_HOST cannot do without. */
const LISTS_NEEDED = 3;
/** Every cached view of the service the popup keeps (lib/settings/storage.ts). */
const CACHE_KEYS = /^(cachedLists|cachedBlockedToday|profilesCache)/;
const VERDICT = /^(Blocked|Allowed|Not blocked)/;

/**
 * Replaces the cached lists of the popup's scope with two lists of `entries` entries, laid out as
 * lib/settings/storage.ts stores them (in buckets, lib/cache/list-buckets.ts; whole packed
 * strings or canonical sorted arrays in earlier versions), fetched just now. Returns the keys
 * written, for removing them afterwards.
 */
export async function cacheBigLists(control: Page, entries: number): Promise<string[]> {
  const [key, layout] = await inPage<[string | undefined, 'buckets' | 'packed' | 'arrays']>(
    control,
    `chrome.storage.local.get(null).then((all) => {
      const key = Object.keys(all).find((k) => k.startsWith('cachedLists:') && !k.endsWith('$'));
      const head = key === undefined ? undefined : all[key];
      return [key, Array.isArray(head?.buckets) ? 'buckets' : typeof head?.whitelist === 'string' ? 'packed' : 'arrays'];
    })`,
  );
  if (!key) throw new Error('No cached lists to enlarge: the popup did not cache its lists');
  const raw = { whitelist: syntheticList(entries, 11, 'w'), blocklist: syntheticList(entries, 12, 'b') };
  const fetchedAt = Date.now();
  let items: Record<string, unknown>;
  if (layout === 'buckets') {
    const scope = key.slice('cachedLists:'.length);
    const buckets = splitIntoBuckets({
      whitelist: packDomains(raw.whitelist),
      blocklist: packDomains(raw.blocklist),
    });
    items = {
      [key]: { fetchedAt, buckets: [...buckets.keys()].sort((a, b) => a - b) },
      ...Object.fromEntries(
        [...buckets].map(([bucket, lists]) => [
          `cachedListsBucket:${bucket}:${scope}`,
          { fetchedAt, ...lists },
        ]),
      ),
    };
  } else {
    const form = (list: string[]) => (layout === 'packed' ? packDomains(list) : canonicalSortedDomains(list));
    items = { [key]: { fetchedAt, whitelist: form(raw.whitelist), blocklist: form(raw.blocklist) } };
  }
  // The account stays the one the popup stored.
  await inPage(
    control,
    `chrome.storage.local.get(${JSON.stringify(key)}).then((stored) => {
      const items = ${JSON.stringify(items)};
      items[${JSON.stringify(key)}].account = stored[${JSON.stringify(key)}].account;
      return chrome.storage.local.set(items).then(() => ${forgetStartCopiesJs('Object.keys(items)')});
    })`,
  );
  return Object.keys(items);
}

export interface PopupBenchOptions {
  session: ChromiumSession;
  emulator: EmulatorHandle;
  /** A quiet page of the product used to read and clear storage between openings. */
  control: Page;
  buildDir: string;
  /** The floor extension's popup page (scripts/bench/floor-extension/), opened in the same tab. */
  floorUrl: string;
  warmRuns: number;
  coldRuns: number;
  latencies: readonly number[];
  log(line: string): void;
}

interface Opening {
  verdictMs: number;
  freshMs: number | null;
  calls: string[];
  scripts: string[];
}

/** The tab id of `tab`, read in the real popup opened on it (which also grants activeTab). */
async function grantAndReadTabId(session: ChromiumSession, tab: Page): Promise<number> {
  const popup = await session.openPopup(tab);
  await statusMatching(popup, VERDICT);
  const id = await inPage<number>(
    popup,
    'chrome.tabs.query({ active: true, currentWindow: true }).then(([tab]) => tab.id)',
  );
  await popup.close();
  return id;
}

/** Script paths the page requests (Resource Timing leaves extension resources out). */
function watchScripts(page: Page): string[] {
  const requested: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.endsWith('.js')) requested.push(path);
  });
  return requested;
}

interface PopupTab {
  page: Page;
  url: string;
  /** Filled by `watchScripts`. */
  requested: string[];
}

async function openPopup(
  { page, url, requested }: PopupTab,
  emulator: EmulatorHandle,
  waitFresh: boolean,
  quietMs: number,
): Promise<Opening> {
  const before = emulator.admin.calls().length;
  requested.length = 0;
  await page.goto(url, { waitUntil: 'load' });
  const verdictMs = await waitForMark(page, 'verdict');
  const freshMs = waitFresh ? await waitForMark(page, 'verdict-fresh') : null;
  await untilQuiet(emulator, quietMs);
  const calls = emulator.admin
    .calls()
    .slice(before)
    .map((call) => call.action);
  const scripts = [...new Set(requested)];
  return { verdictMs, freshMs, calls, scripts };
}

async function openFloor(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: 'load' });
  return waitForMark(page, 'ready');
}

const countBy = (items: string[]) => {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return [...counts].map(([item, n]) => `${item} × ${n}`).join(', ');
};

export async function measurePopup(options: PopupBenchOptions): Promise<Figure[]> {
  const { session, emulator, control, log } = options;
  const site = await session.openSiteTab(SITE_HOST, '/');
  const tabId = await grantAndReadTabId(session, site);
  await untilQuiet(emulator);
  const popupUrl = session.extensionUrl(`popup.html?tabId=${tabId}`);
  const { floorUrl } = options;

  const page = await session.browser.newPage();
  const popup: PopupTab = { page, url: popupUrl, requested: watchScripts(page) };
  // The first opening fills nothing new (the real popup above did); it checks the grant works.
  await page.goto(popupUrl, { waitUntil: 'load' });
  const shown = await statusMatching(page, /^(Blocked|Allowed|Not blocked|Nothing to filter)/);
  if (!VERDICT.test(shown)) throw new Error(`The popup could not read the site tab: "${shown}"`);
  log(`  popup on ${SITE_HOST}: ${shown.slice(0, 90)}…`);
  // Warm-up of every page (first compilation, code cache), not counted.
  for (let i = 0; i < 2; i++) {
    await openPopup(popup, emulator, false, 100);
    await openFloor(page, floorUrl);
  }

  // Warm cache: the views fetched by the openings above are fresh for five minutes.
  const warm: Opening[] = [];
  const floor: number[] = [];
  const ratios: number[] = [];
  for (let run = 0; run < options.warmRuns; run++) {
    let opening: Opening | undefined;
    let floorMs = Number.NaN;
    // The order turns each run, so no page always follows the same one.
    const steps = [
      async () => {
        opening = await openPopup(popup, emulator, false, 100);
      },
      async () => {
        floorMs = await openFloor(page, floorUrl);
      },
    ];
    for (let step = 0; step < steps.length; step++) await steps[(run + step) % steps.length]!();
    warm.push(opening!);
    floor.push(floorMs);
    ratios.push(opening!.verdictMs / floorMs);
  }
  log(`  warm: ${warm.length} openings of the popup and of each floor page`);

  // Cold cache: every cached view removed before each opening, at each service latency.
  const cold = new Map<number, Opening[]>();
  for (const latency of options.latencies) {
    emulator.admin.setLatency(latency);
    const openings: Opening[] = [];
    for (let run = 0; run < options.coldRuns; run++) {
      await removeStoredKeys(control, CACHE_KEYS);
      openings.push(await openPopup(popup, emulator, true, 200 + latency));
    }
    cold.set(latency, openings);
    log(`  cold at ${latency} ms latency: ${openings.length} openings`);
  }
  emulator.admin.setLatency(0);
  await page.close();
  await site.close();

  const warmMs = warm.map((o) => o.verdictMs);
  const warmMedian = summarise(warmMs).median;
  const figures: Figure[] = [
    figure(
      'popup-warm-ms',
      'In a tab: popup to verdict, warm cache',
      'ms',
      warmMs,
      null,
      "navigation start to the 'verdict' mark",
    ),
    figure(
      'floor-ms',
      'In a tab: floor popup page to ready',
      'ms',
      floor,
      null,
      "the floor extension's popup.html opened in the same tab",
    ),
    figure(
      'popup-warm-ratio',
      'In a tab: popup warm ÷ floor',
      '×',
      ratios,
      null,
      'per run, popup and floor measured back to back',
    ),
  ];
  for (const [latency, openings] of cold) {
    const budget = warmMedian + LISTS_NEEDED * latency + 50;
    figures.push(
      figure(
        `popup-cold-${latency}ms`,
        `In a tab: popup to fresh verdict, cold, ${latency} ms`,
        'ms',
        openings.map((o) => o.freshMs ?? Number.NaN),
        atMost(budget, `≤ ${Math.round(budget)} ms`),
        `'verdict-fresh' mark; goal = warm median ${Math.round(warmMedian)} ms + ${LISTS_NEEDED} lists × ${latency} ms + 50 ms`,
      ),
    );
  }
  const warmCalls = warm.map((o) => o.calls.length);
  figures.push(
    figure(
      'popup-calls-warm',
      'In a tab: API calls per popup opening, warm',
      'calls',
      warmCalls,
      atMost(0, '0'),
      warm.some((o) => o.calls.length > 0) ? `calls: ${countBy(warm.flatMap((o) => o.calls))}` : undefined,
    ),
  );
  const coldOpenings = [...cold.values()].flat();
  figures.push(
    figure(
      'popup-calls-cold',
      'In a tab: API calls per popup opening, cold',
      'calls',
      coldOpenings.map((o) => o.calls.length),
      null,
      `per opening: ${countBy(coldOpenings[0]?.calls ?? [])}`,
    ),
  );

  // The JavaScript the popup really loaded, as opposed to what its HTML names (bundle figures).
  const warmScripts = warm.at(-1)?.scripts ?? [];
  const coldScripts = coldOpenings.at(-1)?.scripts ?? [];
  for (const [id, name, scripts] of [
    ['popup-js-loaded-warm-kb', 'Popup JS loaded per opening, warm (gzip)', warmScripts],
    ['popup-js-loaded-cold-kb', 'Popup JS loaded per opening, cold (gzip)', coldScripts],
  ] as const) {
    const loaded = sizeOfFiles(options.buildDir, scripts);
    figures.push(
      figure(
        id,
        name,
        'kB',
        [loaded.gzipBytes / 1000],
        id.endsWith('warm-kb') ? below(80, '< 80 kB') : null,
        `${loaded.files.map((file) => file.replace(/^chunks\//, '')).join(', ')} (bench build)`,
      ),
    );
  }
  return figures;
}
