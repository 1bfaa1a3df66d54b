// @vitest-environment node
/**
 * The popup's view model at a glance: the verdict's word and one line of reason (the status
 * text starts with the word, as ui-contract.md says), its details apart, the options section
 * behind it, and waiting changes said as what the user asked for.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Verdict } from '@/lib/filtering/verdict';
import { openOptionsPage } from '@/lib/popup/options-page';
import type { ReadyState } from '@/lib/popup/state';
import { derivePopupView, sectionOf, verdictDetails, verdictHeadline } from '@/lib/popup/view';
import type { OutboxEntry } from '@/lib/settings/storage';

const SCOPE = 'profile default';

describe('the verdict as a word and one line', () => {
  it.each<[string, Verdict, string, string]>([
    [
      'an exact whitelist entry',
      { kind: 'allowed', reason: 'whitelist', entry: 'shop.example' },
      'Allowed',
      'On the whitelist of profile default.',
    ],
    [
      'a parent on the whitelist',
      { kind: 'allowed', reason: 'whitelist', entry: 'example' },
      'Allowed',
      'Covered by the whitelist entry example of profile default.',
    ],
    [
      'an exact blocklist entry',
      { kind: 'blocked', reason: 'blocklist', entry: 'shop.example' },
      'Blocked',
      'On the blocklist of profile default.',
    ],
    [
      'a top-level domain',
      { kind: 'blocked', reason: 'tld', tld: '.example' },
      'Blocked',
      'The top-level domain .example is blocked for profile default.',
    ],
    [
      'default block',
      { kind: 'blocked', reason: 'default-block' },
      'Blocked',
      'Default block is on for profile default.',
    ],
    [
      "today's statistics",
      { kind: 'blocked', reason: 'stats', count: 1 },
      'Blocked',
      'Probably a blocked category: 1 blocked query today.',
    ],
    [
      'a page that failed the way a DNS block does',
      { kind: 'blocked', reason: 'dns-failure', error: 'net::ERR_NAME_NOT_RESOLVED', statsChecked: false },
      'Blocked',
      'Probably a blocked category: the page did not load.',
    ],
    [
      'nothing, statistics read',
      { kind: 'not-blocked', reason: 'none', statsChecked: true },
      'Not blocked',
      'On no list of profile default; no blocked queries today.',
    ],
    [
      'nothing, statistics not read',
      { kind: 'not-blocked', reason: 'none', statsChecked: false },
      'Not blocked',
      'On no list of profile default.',
    ],
  ])('%s', (_name, verdict, word, reason) => {
    expect(verdictHeadline(verdict, 'shop.example', SCOPE)).toEqual({ word, reason });
  });

  it('says when the verdict counts a change not sent yet', () => {
    const verdict: Verdict = { kind: 'blocked', reason: 'blocklist', entry: 'shop.example' };
    expect(verdictHeadline(verdict, 'shop.example', SCOPE, true).reason).toBe(
      'On the blocklist of profile default. Not sent yet.',
    );
  });
});

describe('the details, shown on demand', () => {
  const state = { host: 'weather.example.com', statsProblem: null };

  it('keep the caveat of an unlisted site out of the one line', () => {
    const verdict: Verdict = { kind: 'not-blocked', reason: 'none', statsChecked: true };
    expect(verdictDetails(state, verdict)).toEqual([
      'A blocked category may still apply: the service does not say which category a site is in.',
    ]);
  });

  it('say how a page failed and what the statistics did not show', () => {
    const verdict: Verdict = {
      kind: 'blocked',
      reason: 'dns-failure',
      error: 'net::ERR_NAME_NOT_RESOLVED',
      statsChecked: true,
    };
    const [how, stats] = verdictDetails(state, verdict);
    expect(how).toMatch(/^weather\.example\.com did not load \(net::ERR_NAME_NOT_RESOLVED/);
    expect(stats).toMatch(/^Today's statistics show no blocked queries for it yet/);
  });

  it("say why today's statistics could not count", () => {
    const verdict: Verdict = { kind: 'not-blocked', reason: 'none', statsChecked: false };
    expect(verdictDetails({ ...state, statsProblem: 'No logs for this date' }, verdict)).toContain(
      "Today's statistics could not be read: No logs for this date",
    );
  });
});

it('links a verdict to the options section of the rule behind it', () => {
  expect(sectionOf({ kind: 'allowed', reason: 'whitelist', entry: 'a.example' })).toBe('whitelist');
  expect(sectionOf({ kind: 'blocked', reason: 'blocklist', entry: 'a.example' })).toBe('blocklist');
  expect(sectionOf({ kind: 'blocked', reason: 'tld', tld: '.zip' })).toBe('tlds');
  expect(sectionOf({ kind: 'blocked', reason: 'default-block' })).toBe('default-block');
  expect(sectionOf({ kind: 'blocked', reason: 'stats', count: 3 })).toBeNull();
  expect(sectionOf({ kind: 'not-blocked', reason: 'none', statsChecked: true })).toBeNull();
});

describe('waiting changes', () => {
  const T0 = Date.UTC(2026, 4, 1, 12);
  const entry = (lastError?: string): OutboxEntry => ({
    id: 'e1',
    change: { op: 'add', list: 'whitelist', domain: 'shop.example', profile: 'default', source: 'popup' },
    account: 'acct',
    createdAt: T0,
    attempts: 1,
    nextAttemptAt: T0 + 60_000,
    lastError,
  });
  const ready = (outbox: OutboxEntry[], change: ReadyState['change']): ReadyState => ({
    phase: 'ready',
    host: 'shop.example',
    tabId: 1,
    registrable: 'shop.example',
    form: 'A',
    profile: 'default',
    scope: 'A:default',
    account: 'acct',
    profiles: null,
    lists: null,
    blockedToday: null,
    blockedTlds: [],
    defaultBlock: false,
    outbox,
    settled: [],
    refreshing: false,
    problem: null,
    statsProblem: null,
    chosenDomain: undefined,
    change,
    undo: null,
  });

  it('name what was asked (whitelisting) and why, never the step that failed (taking it off the blocklist)', () => {
    const failedStep =
      'Could not remove shop.example from the blocklist of profile default: The service did not answer.';
    const view = derivePopupView(ready([entry(failedStep)], { state: 'idle', message: '' }), T0);
    expect(view.waiting).toEqual([
      'Waiting to add shop.example to the whitelist of profile default: The service did not answer.',
    ]);
  });

  it('keep a failure they cannot place whole', () => {
    const view = derivePopupView(ready([entry('No API key is saved.')], { state: 'idle', message: '' }), T0);
    expect(view.waiting).toEqual([
      'Waiting to add shop.example to the whitelist of profile default: No API key is saved.',
    ]);
  });

  it("include a schedule's setting change for the profile shown, in plain words with who asked", () => {
    const setting = (profile: string, lastError?: string): OutboxEntry => ({
      ...entry(lastError),
      id: `s-${profile}`,
      change: { op: 'set-category', category: 'category_gaming', blocked: true, profile, source: 'schedule' },
    });
    const failure = 'Could not block the category Gaming for profile default: The service did not answer.';
    const view = derivePopupView(
      ready([setting('default', failure), setting('kids')], { state: 'idle', message: '' }),
      T0,
    );
    // The other profile's change is not this view's.
    expect(view.pending.map((waiting) => waiting.id)).toEqual(['s-default']);
    expect(view.waiting).toEqual([
      'Waiting to block the category Gaming for profile default (from a schedule): The service did not answer.',
    ]);
  });

  it('say "still" after Send now left them waiting', () => {
    const change = { state: 'pending', message: '', retried: true } as const;
    expect(derivePopupView(ready([entry()], change), T0).waiting).toEqual([
      'Still waiting to add shop.example to the whitelist of profile default.',
    ]);
  });
});

describe('opening the options page', () => {
  const OPTIONS = 'ext://id/options.html';
  type Page = { location: { href: string; hash: string }; browser?: unknown };
  const browser = (open: Page[] = []) => ({
    runtime: { openOptionsPage: vi.fn(async () => {}), getURL: () => OPTIONS },
    tabs: { create: vi.fn(async () => ({})), update: vi.fn(async () => ({})) },
    windows: { update: vi.fn(async () => ({})) },
    extension: { getViews: () => open },
  });
  const optionsTab = (hash: string) => ({
    location: { href: `${OPTIONS}${hash}`, hash },
    browser: { tabs: { getCurrent: async () => ({ id: 7, windowId: 2 }) } },
  });

  it('opens the page itself without a section', async () => {
    const fake = browser();
    await openOptionsPage(fake, undefined);
    expect(fake.runtime.openOptionsPage).toHaveBeenCalledOnce();
    expect(fake.tabs.create).not.toHaveBeenCalled();
  });

  it('opens options.html#<section> for a section', async () => {
    const fake = browser();
    await openOptionsPage(fake, 'whitelist');
    expect(fake.tabs.create).toHaveBeenCalledWith({ url: `${OPTIONS}#whitelist` });
    expect(fake.runtime.openOptionsPage).not.toHaveBeenCalled();
  });

  it('moves an options page already open to the section and brings it to the front', async () => {
    const open = optionsTab('#logs');
    const fake = browser([{ location: { href: 'ext://id/popup.html', hash: '' } }, open]);
    await openOptionsPage(fake, 'setup');
    expect(open.location.hash).toBe('setup');
    expect(fake.tabs.update).toHaveBeenCalledWith(7, { active: true });
    expect(fake.windows.update).toHaveBeenCalledWith(2, { focused: true });
    expect(fake.tabs.create).not.toHaveBeenCalled();
  });
});
