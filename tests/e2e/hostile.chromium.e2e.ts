/**
 * Hostile content from the service, in Chromium: domains, labels, profile names,
 * categories, log lines and failure reasons holding markup, script, control characters,
 * right-to-left overrides or 10,000 characters are shown as inert, readable text on the options
 * page and in the popup, and an answer above the JSON cap is refused with a clear message while
 * the page stays responsive.
 *
 * The service is the emulator's own runtime behind a thin wrapper: its account is seeded with
 * the hostile strings directly (the emulator's HTTP validation would refuse them, a real server
 * might not), and the answers the emulator cannot carry (category ids, statistics, raw log lines,
 * an oversized answer) are written by the wrapper.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll } from 'vitest';
import { createRequestListener } from '../../emulator/http.ts';
import { EmulatorRuntime } from '../../emulator/runtime.ts';
import { watchDialogs } from './harness/extension-storage.ts';
import {
  byRole,
  type ChromiumSession,
  chooseOption,
  configureExtension,
  describe,
  expect,
  hourlyChartOf,
  openSection,
  pressAndWaitForOutcome,
  readVisibleText,
  test,
  waitForStatus,
} from './harness/index.ts';

const KEY = 'hostile-test-key-42';
const TODAY = '2024-05-10';
/** Its statistics answer is 11 MB, over the client's 10 MB cap. */
const HUGE_DAY = '2024-05-08';

/** Each hostile string sets `window.__pwned` if it ever runs as code. */
const MARKUP = '<img src=x onerror="window.__pwned=1">';
const SCRIPT = '<script>window.__pwned=2</script>';
const CONTROL = 'ctl\u0000\u0007\u001b[31mred\u007f';
const RTL = '\u202egnp.exe\u202c';
const LONG = `long${'L'.repeat(10_000)}`;

const HOSTILE_PROFILES = [`kids${MARKUP}`, `x${SCRIPT}`, `p${CONTROL}`, `r${RTL}`, LONG];
const HOSTILE_DOMAINS = [
  `${MARKUP}.example`,
  `${SCRIPT}.example`,
  `c${CONTROL}.example`,
  `${RTL}.example`,
  `${LONG}.example`,
];
const HOSTILE_CATEGORIES = [`cat${MARKUP}`, `cat${SCRIPT}`, `cat${RTL}`, `cat${LONG}`];
const HOSTILE_LABELS = [MARKUP, SCRIPT, CONTROL, RTL, LONG];
const HOSTILE_REASON = `${MARKUP}${SCRIPT} ${RTL} ${CONTROL} ${'Refused. '.repeat(1200)}`;

let server: Server;
let baseUrl = '';
let runtime: EmulatorRuntime;
/** Hostile answers the wrapper gives instead of the emulator (off by default). */
const hostileAnswers = { categories: false };

function seedHostileAccount() {
  runtime.reset();
  runtime.setDumpGuard(false);
  const account = runtime.context.account as unknown as {
    profiles: Map<string, unknown>;
    addDomain(list: 'whitelist' | 'blocklist', domain: string, profile?: string): void;
    addNetwork(ip: string, label: string | undefined, profile: string | undefined): void;
  };
  for (const name of HOSTILE_PROFILES) {
    account.profiles.set(name, {
      blockedCategories: new Set(),
      whitelist: [...HOSTILE_DOMAINS],
      blocklist: [],
      tlds: [],
      defaultBlock: false,
    });
  }
  for (const domain of HOSTILE_DOMAINS) {
    account.addDomain('whitelist', domain, 'default');
    account.addDomain('blocklist', `b${domain}`, 'default');
  }
  for (const [index, label] of HOSTILE_LABELS.entries()) {
    account.addNetwork(`192.0.2.${100 + index}`, label, 'default');
  }
}

function json(res: ServerResponse, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(200, {
    'Access-Control-Allow-Origin': '*',
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

const HOUR = `${TODAY} 10:00`;
const rankedDomains = Object.fromEntries(HOSTILE_DOMAINS.map((domain, i) => [`${domain}.`, 10 + i]));

/** Answers the wrapper gives itself; false lets the emulator answer. */
function answerHostile(req: IncomingMessage, res: ServerResponse): boolean {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.searchParams.get('apikey') !== KEY) return false;
  const action = url.searchParams.get('action');
  const date = url.searchParams.get('date');
  if (action === 'categories/list' && hostileAnswers.categories) {
    json(res, { status: 'success', categories: HOSTILE_CATEGORIES });
    return true;
  }
  if (action === 'logs/getstats' && date === TODAY) {
    json(res, {
      status: 'success',
      ips: { [HOUR]: { [MARKUP]: 4, '192.0.2.1': 3 } },
      reqtypes: { [HOUR]: { [SCRIPT]: 7 } },
      action: { [HOUR]: { Allowed: 40, Blocked: 12 } },
      blocks: { [HOUR]: { [`cat${MARKUP}`]: 12 } },
      domains: { [HOUR]: { Allowed: rankedDomains, Blocked: rankedDomains } },
    });
    return true;
  }
  if (action === 'logs/getstats' && date === HUGE_DAY) {
    const filler = 'x'.repeat(1024);
    const body = `{"status":"success","ips":{${Array.from({ length: 11 * 1024 }, (_, i) => `"h${i}":{"${filler}":1}`).join(',')}}}`;
    res.writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'application/json' });
    res.end(body);
    return true;
  }
  if (action === 'logs/getdump' && date === TODAY) {
    res.writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(
      [
        `${TODAY} 10:00:01 12 pass-through: blocked: 192.0.2.10: 3: ${MARKUP}.example. (203.0.113.53)`,
        `${TODAY} 10:00:02 12 pass-through: allowed: 192.0.2.10: 3: ok.example. (203.0.113.53)`,
        `${SCRIPT} ${RTL} ${CONTROL}`,
        LONG,
      ].join('\n'),
    );
    return true;
  }
  return false;
}

beforeAll(async () => {
  runtime = new EmulatorRuntime({ key: KEY, seed: 'demo', today: TODAY, bigDayMb: 0, dumpGuard: false });
  const emulatorListener = createRequestListener(runtime);
  server = createServer((req, res) => {
    if (!answerHostile(req, res)) emulatorListener(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

// ---------------------------------------------------------------------------------------------

/** Nothing was injected and nothing ran; the page lays out the long strings without overflowing. */
async function expectInert(page: Page, dialogs: string[]) {
  const found = await page.evaluate(() => ({
    pwned: (window as unknown as { __pwned?: number }).__pwned ?? null,
    injectedImages: document.querySelectorAll('img[src="x"], [onerror], [onload]').length,
    inlineScripts: [...document.querySelectorAll('script')].filter((script) =>
      script.textContent?.includes('__pwned'),
    ).length,
    boldFromService: [...document.querySelectorAll('b')].length,
    overflowPx: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  }));
  expect(found).toEqual({
    pwned: null,
    injectedImages: 0,
    inlineScripts: 0,
    boldFromService: 0,
    overflowPx: 0,
  });
  expect(dialogs).toEqual([]);
}

/** The page's rendered text (what a person reads). */
const bodyText = (page: Page) => page.$eval('body', readVisibleText);

/** Waits until the page's rendered text contains `text`. */
function untilShown(page: Page, text: string, timeout = 20_000) {
  return page.waitForFunction(
    (wanted) => {
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point here
      const shown = document.body.innerText;
      return shown.includes(wanted);
    },
    { timeout, polling: 100 },
    text,
  );
}

async function setUp(chromium: ChromiumSession, form: 'A' | 'B'): Promise<Page> {
  const page = await chromium.openOptions();
  expect(await configureExtension(page, { baseUrl, key: KEY, form })).toMatch(/^Saved/);
  return page;
}

describe('hostile content from the service (Chromium)', () => {
  test('options page, Form A: profiles, list entries, categories, statistics, raw log, reasons', async ({
    chromium,
  }) => {
    seedHostileAccount();
    hostileAnswers.categories = true;
    const page = await setUp(chromium, 'A');
    const dialogs = watchDialogs(page);

    // Profiles: in the list and in the picker, as text.
    await openSection(page, 'Profiles');
    await untilShown(page, 'kids<img src=x onerror=');
    await openSection(page, 'Categories');
    const profileOptions = await byRole(page, 'combobox', 'Profile')
      .map((select) => [...(select as HTMLSelectElement).options].map((option) => option.value))
      .wait();
    expect(profileOptions).toEqual(expect.arrayContaining([`kids${MARKUP}`, `x${SCRIPT}`, `r${RTL}`, LONG]));

    // List entries (the default profile), categories and the networks.
    await byRole(page, 'button', `Remove ${MARKUP}.example from the whitelist`).wait();
    const text = await bodyText(page);
    for (const visible of [
      `${MARKUP}.example`,
      `${SCRIPT}.example`,
      'gnp.exe',
      `cat${MARKUP}`,
      `cat${SCRIPT}`,
    ]) {
      expect(text).toContain(visible);
    }
    // The 10,000-character entry is there, whole, and wraps instead of widening the page.
    expect(text).toContain('L'.repeat(200));
    await expectInert(page, dialogs);

    // Statistics rankings and the raw log.
    await openSection(page, 'Logs');
    await byRole(page, 'img', hourlyChartOf(TODAY)).wait();
    await untilShown(page, `${MARKUP}.example`);
    expect(await pressAndWaitForOutcome(page, 'Load raw log', 30_000)).toMatch(/^Loaded the raw log of/);
    await untilShown(page, 'Not recognised');
    const withLog = await bodyText(page);
    expect(withLog).toContain(SCRIPT);
    await expectInert(page, dialogs);

    // An answer over the cap: refused with a clear message, and the page still answers at once.
    await chooseOption(page, 'Day', { startsWith: HUGE_DAY });
    await untilShown(page, `Could not load the statistics of ${HUGE_DAY}`, 30_000);
    expect(await bodyText(page)).toContain(
      "the service's answer is larger than the 10 MB this extension accepts",
    );
    const started = Date.now();
    await page.evaluate(() => document.title);
    expect(Date.now() - started).toBeLessThan(1000);

    // A failure reason with markup, script, control characters, an override and 10 KB of text.
    await openSection(page, 'Setup');
    runtime.injectFault({ kind: 'odd-reason', reason: HOSTILE_REASON, count: 1 });
    const failure = await pressAndWaitForOutcome(page, 'Test connection');
    // The reason, which carries a right-to-left override, is isolated from the sentence around
    // it (U+2068 … U+2069), and cut to what the extension keeps of a failure text.
    expect(failure).toContain(`Could not list the profiles: \u2068${MARKUP}${SCRIPT}`);
    expect(failure).toContain('Refused. Refused.');
    // Then the one line of advice that fits a refusal (lib/api/advice.ts), outside the cut.
    expect(failure).toMatch(/\u2069… \(shortened\) This is the service's own answer/);
    await expectInert(page, dialogs);
  }, 120_000);

  test('options page, Form B: network labels', async ({ chromium }) => {
    seedHostileAccount();
    hostileAnswers.categories = false;
    const page = await setUp(chromium, 'B');
    const dialogs = watchDialogs(page);
    // The lists, then the networks (one view at a time): everything shown as text.
    await openSection(page, 'Whitelist');
    await untilShown(page, MARKUP);
    let text = await bodyText(page);
    await openSection(page, 'Networks');
    await untilShown(page, '192.0.2.100');
    text += await bodyText(page);
    for (const visible of [MARKUP, SCRIPT, 'gnp.exe', 'L'.repeat(200)]) expect(text).toContain(visible);
    await expectInert(page, dialogs);
  }, 90_000);

  test('popup: profile names in the picker and a hostile failure reason', async ({ chromium }) => {
    seedHostileAccount();
    const options = await setUp(chromium, 'A');
    const tab = await chromium.openSiteTab('news.example.com', '/page');

    const popup = await chromium.openPopup(tab);
    const dialogs = watchDialogs(popup);
    await waitForStatus(popup, { startsWith: 'Not blocked' }, { name: 'Verdict', timeout: 20_000 });
    const offered = await byRole(popup, 'combobox', 'Profile')
      .map((select) => [...(select as HTMLSelectElement).options].map((option) => option.textContent))
      .wait();
    expect(offered).toEqual(expect.arrayContaining([`kids${MARKUP}`, `x${SCRIPT}`]));
    await expectInert(popup, dialogs);
    await popup.close();

    // Without cached lists the popup asks the service, which refuses with the hostile reason.
    await options.evaluate(async () => {
      type Local = { get(k: null): Promise<Record<string, unknown>>; remove(k: string[]): Promise<void> };
      const local = (globalThis as unknown as { chrome: { storage: { local: Local } } }).chrome.storage.local;
      await local.remove(Object.keys(await local.get(null)).filter((key) => key.startsWith('cached')));
    });
    runtime.injectFault({ kind: 'odd-reason', reason: HOSTILE_REASON, count: 3 });
    const failing = await chromium.openPopup(tab);
    const failingDialogs = watchDialogs(failing);
    const verdict = await waitForStatus(
      failing,
      { startsWith: "Couldn't check news.example.com" },
      {
        name: 'Verdict',
        timeout: 20_000,
      },
    );
    runtime.clearFaults();
    expect(verdict).toContain(`${MARKUP}${SCRIPT}`);
    await expectInert(failing, failingDialogs);
  }, 90_000);
});
