/**
 * "Unbreak this page" in Chromium, through the real toolbar action, against the emulator. Like
 * diagnosis.chromium.e2e.ts it loads the diagnosis test build (optional permissions granted at
 * install, a 10-second choice besides 1, 8 and 24 hours), so the end of the allows happens within
 * the test; nothing in the product is shortened.
 *
 * The filter is played by Chromium's resolver rules, which cannot change during a run: the hosts
 * the page fails on stay unresolvable. What the resolvers do once the allow reaches them is played
 * by a sibling host of the same registrable domain that resolves (www.broken-cdn.example), which a
 * later visit to the site loads: "needed" is about the allowed domain, whichever of its hosts.
 */
import type { Page } from 'puppeteer-core';
import { beforeAll } from 'vitest';
import { storedValue } from './harness/extension-storage.ts';
import {
  allByRole,
  test as base,
  byRole,
  type ChromiumSession,
  configureExtension,
  describe,
  expect,
  launchChromium,
  openSection,
  readVisibleText,
  saveFailureArtifacts,
  waitForStatus,
} from './harness/index.ts';
import { buildDiagnosisTestBuild, DIAGNOSIS_TEST_BUILD_DIR } from './harness/test-builds.ts';

const UNRESOLVABLE = ['js.broken-cdn.example', 'img.unused-cdn.example'];
const RESOLVER_RULES = `--host-resolver-rules=${UNRESOLVABLE.map((host) => `MAP ${host} ~NOTFOUND`).join(', ')}, MAP * 127.0.0.1`;
const TEN_SECONDS = 10_000;

beforeAll(() => {
  buildDiagnosisTestBuild();
}, 120_000);

const test = base.extend('unbreakChromium', async ({ site, task }, { onCleanup }) => {
  const session = await launchChromium({
    site,
    extensionDir: DIAGNOSIS_TEST_BUILD_DIR,
    args: [RESOLVER_RULES],
  });
  onCleanup(async () => {
    if (task.result?.state === 'fail') await saveFailureArtifacts(task, session);
    await session.close();
  });
  return session;
});

/** A story whose script and image come from hosts that do not resolve. */
const BROKEN_STORY = (port: number) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>News</title><script src="http://js.broken-cdn.example:${port}/app.js"></script></head>
<body><h1>News</h1><img alt="chart" src="http://img.unused-cdn.example:${port}/chart.png"></body></html>`;

/** Another story of the same site, later: its player comes from the CDN, which now resolves. */
const LATER_STORY = (port: number) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Later</title></head><body><h1>Later</h1>
<iframe title="player" src="http://www.broken-cdn.example:${port}/player"></iframe></body></html>`;

async function setUp(chromium: ChromiumSession, emulator: { url: string; key: string }): Promise<Page> {
  const options = await chromium.openOptions();
  await configureExtension(options, { baseUrl: emulator.url, key: emulator.key, form: 'A' });
  await openSection(options, 'Page diagnosis');
  await byRole(options, 'checkbox', 'Diagnose pages').click();
  await byRole(options, 'button', 'Save page diagnosis').click();
  await waitForStatus(options, { startsWith: 'Page diagnosis is on' }, { name: 'Page diagnosis' });
  return options;
}

async function listItems(popup: Page, name: string): Promise<string[]> {
  await byRole(popup, 'list', { startsWith: name }).wait();
  const items = await allByRole(popup, 'listitem', undefined, {
    within: { role: 'list', name: { startsWith: name } },
  });
  return Promise.all(items.map((item) => item.evaluate(readVisibleText)));
}

/** The worker's alarm that ends temporary allows: when it fires, or null. */
async function expiryAlarm(options: Page): Promise<number | null> {
  type ChromeApi = { alarms: { get(name: string): Promise<{ scheduledTime: number } | undefined> } };
  return options.evaluate(async () => {
    const api = (globalThis as unknown as { chrome: ChromeApi }).chrome;
    return (await api.alarms.get('temporary-allow-expiry'))?.scheduledTime ?? null;
  });
}

describe('unbreak this page (Chromium)', () => {
  test('allows the failed domains for a while, notes what loads, and after the end keeps only that', async ({
    unbreakChromium: chromium,
    emulator,
  }) => {
    const options = await setUp(chromium, emulator);
    const whitelist = () => [...(emulator.admin.state().profiles.default?.whitelist ?? [])].sort();
    chromium.site.setPage('/story', BROKEN_STORY(chromium.site.port));
    chromium.site.setPage('/later', LATER_STORY(chromium.site.port));
    const tab = await chromium.openSiteTab('news.example', '/story');
    // The emulator's demo account has entries of its own: those stay as they are throughout.
    const before = whitelist();
    const withBefore = (...domains: string[]) => [...before, ...domains].sort();

    const popup = await chromium.openPopup(tab);
    await expect.poll(() => listItems(popup, 'Failed hosts'), { timeout: 10_000 }).toHaveLength(2);
    const unbreak = byRole(popup, 'button', 'Unbreak this page');
    await popup.waitForFunction(() =>
      [...document.querySelectorAll('button')].some(
        (b) => b.textContent === 'Unbreak this page' && !b.disabled,
      ),
    );
    await (await byRole(popup, 'combobox', 'For how long').waitHandle()).select(String(TEN_SECONDS));
    const clickedAt = Date.now();
    await unbreak.click();
    expect(await waitForStatus(popup, { contains: '30 to 45 minutes' }, { name: 'Unbreak outcome' })).toMatch(
      /^Allowed in profile default until .*: broken-cdn\.example and unused-cdn\.example\./,
    );

    // The emulator's whitelist has exactly those domains, and their end is scheduled.
    expect(whitelist()).toEqual(withBefore('broken-cdn.example', 'unused-cdn.example'));
    const allows = (await storedValue(options, 'temporaryAllows')) as { domain: string; expiresAt: number }[];
    expect(allows.map((allow) => allow.domain).sort()).toEqual(['broken-cdn.example', 'unused-cdn.example']);
    const ends = allows[0]!.expiresAt;
    expect(ends).toBeGreaterThanOrEqual(clickedAt + TEN_SECONDS - 1_000);
    expect(ends).toBeLessThanOrEqual(Date.now() + TEN_SECONDS);
    expect(await expiryAlarm(options)).toBe(Math.min(...allows.map((allow) => allow.expiresAt)));
    // While it runs, the popup says so: nothing needed yet.
    await expect
      .poll(() => popup.evaluate(() => document.body.textContent ?? ''))
      .toMatch(/So far this page has loaded none of the domains allowed for it/);

    // A later visit to the site loads from the CDN.
    await tab.goto(chromium.site.url('news.example', '/later'), { waitUntil: 'load' });
    await expect
      .poll(
        async () => {
          const sessions = (await storedValue(options, 'unbreakSessions')) as {
            domains: { domain: string; loads: number }[];
          }[];
          return sessions[0]?.domains.filter((entry) => entry.loads > 0).map((entry) => entry.domain);
        },
        { timeout: 10_000 },
      )
      .toEqual(['broken-cdn.example']);

    // The worker's alarm ends both allows (unpacked extensions may set alarms shorter than 30 s).
    await expect.poll(whitelist, { timeout: 30_000, interval: 500 }).toEqual(before);

    // The review, on the site again: only the one that loaded is offered, and kept with one click.
    await tab.goto(chromium.site.url('news.example', '/'), { waitUntil: 'load' });
    const review = await chromium.openPopup(tab);
    expect(await listItems(review, 'Needed by this page')).toEqual([
      expect.stringMatching(/^broken-cdn\.example \d+ requests? loaded/),
    ]);
    expect(await review.evaluate(() => document.body.textContent ?? '')).toContain(
      'This page used broken-cdn.example; unused-cdn.example was never needed.',
    );
    expect(whitelist()).toEqual(before);
    await byRole(review, 'button', 'Keep what it needed').click();
    expect(
      await waitForStatus(
        review,
        { startsWith: 'Kept on the whitelist for good' },
        { name: 'Unbreak outcome' },
      ),
    ).toBe('Kept on the whitelist for good: broken-cdn.example. unused-cdn.example lapses.');
    expect(whitelist()).toEqual(withBefore('broken-cdn.example'));
  });
});
