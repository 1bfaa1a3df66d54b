/**
 * The story the unbreak end-to-end tests play in Chromium and in Firefox, and its checks that do
 * not depend on the browser's popup: the news site's pages, what the worker stored when Unbreak
 * was pressed, and which allowed domains the site then loaded.
 *
 * The filter is played by names that do not resolve, which cannot change during a run: the hosts
 * the page fails on stay unresolvable. What the resolvers do once the allow reaches them is played
 * by a sibling host of the same registrable domain that resolves (www.broken-cdn.example), which a
 * later visit to the site loads: "needed" is about the allowed domain, whichever of its hosts.
 */
import type { Page } from 'puppeteer-core';
import type { EmulatorHandle } from '../../emulator/index.ts';
import { expiryAlarm, TEN_SECONDS } from './diagnosis-harness.ts';
import { storedValue } from './harness/extension-storage.ts';
import { expect, type SiteServer } from './harness/index.ts';

/** The hosts the story's first page fails on. */
export const UNRESOLVABLE = ['js.broken-cdn.example', 'img.unused-cdn.example'];
/** The host of the CDN a later page loads from, once it resolves. */
export const LATER_CDN_HOST = 'www.broken-cdn.example';
export const NEWS_SITE = 'news.example';

/** Serves `/story` (script and image from hosts that do not resolve) and `/later` (the CDN's player). */
export function serveStories(site: SiteServer): void {
  site.setPage(
    '/story',
    `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>News</title><script src="http://${UNRESOLVABLE[0]}:${site.port}/app.js"></script></head>
<body><h1>News</h1><img alt="chart" src="http://${UNRESOLVABLE[1]}:${site.port}/chart.png"></body></html>`,
  );
  site.setPage(
    '/later',
    `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Later</title></head><body><h1>Later</h1>
<iframe title="player" src="http://${LATER_CDN_HOST}:${site.port}/player"></iframe></body></html>`,
  );
}

/** The emulator's default whitelist, sorted. */
export const whitelistOf = (emulator: EmulatorHandle) => () =>
  [...(emulator.admin.state().profiles.default?.whitelist ?? [])].sort();

/**
 * The outcome line of pressing "Unbreak this page" with 10 seconds chosen, naming the domains in
 * one of the given orders (the order the page failed on them).
 */
export function unbreakOutcome(...orders: (readonly string[])[]): RegExp {
  const named = orders.map((order) => order.map((domain) => domain.replaceAll('.', '\\.')).join(' and '));
  return new RegExp(`^Allowed in profile default until .*: (${named.join('|')})\\.`);
}

/**
 * After Unbreak was pressed at `clickedAt`: the worker keeps both allows, ending 10 seconds later,
 * and its alarm is set for the first end.
 */
export async function expectAllowsScheduled(options: Page, clickedAt: number): Promise<void> {
  const allows = (await storedValue(options, 'temporaryAllows')) as { domain: string; expiresAt: number }[];
  expect(allows.map((allow) => allow.domain).sort()).toEqual(['broken-cdn.example', 'unused-cdn.example']);
  const ends = allows[0]!.expiresAt;
  expect(ends).toBeGreaterThanOrEqual(clickedAt + TEN_SECONDS - 1_000);
  expect(ends).toBeLessThanOrEqual(Date.now() + TEN_SECONDS);
  expect(await expiryAlarm(options)).toBe(Math.min(...allows.map((allow) => allow.expiresAt)));
}

/** The allowed domains the site has loaded since Unbreak, as the worker noted them. */
export async function loadedDomains(options: Page): Promise<string[] | undefined> {
  const sessions = (await storedValue(options, 'unbreakSessions')) as {
    domains: { domain: string; loads: number }[];
  }[];
  return sessions[0]?.domains.filter((entry) => entry.loads > 0).map((entry) => entry.domain);
}

/** The review's summary, and its outcome once "Keep what it needed" was pressed. */
export const REVIEW_SUMMARY = 'This page used broken-cdn.example; unused-cdn.example was never needed.';
export const KEPT_OUTCOME = 'Kept on the whitelist for good: broken-cdn.example. unused-cdn.example lapses.';
