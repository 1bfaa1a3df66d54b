// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { DEFAULT_ODD_REASON } from '@/emulator/faults.ts';
import type { FaultKind } from '@/emulator/index.ts';
import type { ApiErrorKind } from '@/lib/api';
import { capText } from '@/lib/api/transport';
import type { ApiForm, DnsFilterApi } from '@/lib/api/types';
import { apiErrorOf, useEmulator, YESTERDAY } from './helpers';

const ctx = useEmulator();

type Call = [action: string, run: (api: DnsFilterApi) => Promise<unknown>];

/** One valid call of every action of each form. */
const CALLS: Record<ApiForm, Call[]> = {
  A: [
    ['profiles/list', (a) => a.listProfiles()],
    ['profile/add', (a) => a.addProfile('Teens2024')],
    ['profile/delete', (a) => a.deleteProfile('guests')],
    ['categories/list', (a) => a.listCategories('kids1')],
    ['category/block', (a) => a.setCategoryBlocked('category_gaming', true, 'kids1')],
    ['category/allow', (a) => a.setCategoryBlocked('category_gaming', false)],
    ['whitelist/list', (a) => a.listDomains('whitelist', 'office')],
    ['whitelist/add', (a) => a.addDomain('whitelist', 'example.com')],
    ['whitelist/delete', (a) => a.deleteDomain('whitelist', 'wikipedia.org')],
    ['blocklist/list', (a) => a.listDomainsByProfile('blocklist')],
    ['blocklist/add', (a) => a.addDomain('blocklist', 'ads.example.net', 'kids1')],
    ['blocklist/delete', (a) => a.deleteDomain('blocklist', 'roblox.com', 'kids1')],
    ['tld_blocklist/add', (a) => a.blockTld('.top')],
    ['default-block/enable', (a) => a.setDefaultBlock(true, 'kids1')],
    ['default-block/disable', (a) => a.setDefaultBlock(false)],
    ['network/list', (a) => a.listNetworks()],
    ['network/add', (a) => a.addNetwork({ ip: '198.51.100.99', label: 'Cabin', profile: 'guests' })],
    ['network/delete', (a) => a.deleteNetwork({ ip: '203.0.113.50' })],
    ['logs/list', (a) => a.listLogDays()],
    ['logs/getstats', (a) => a.getStats(YESTERDAY)],
    ['logs/getdump', (a) => a.getDump(YESTERDAY)],
    ['logs/delete', (a) => a.deleteLogDay(YESTERDAY)],
  ],
  B: [
    ['profiles/list', (a) => a.listProfiles()],
    ['profile/add', (a) => a.addProfile('Teens2024')],
    ['profile/delete', (a) => a.deleteProfile('guests')],
    ['categories/list', (a) => a.listCategories()],
    ['category/block', (a) => a.setCategoryBlocked('gaming', true)],
    ['category/allow', (a) => a.setCategoryBlocked('adult', false)],
    ['whitelist/list', (a) => a.listDomains('whitelist')],
    ['whitelist/add', (a) => a.addDomain('whitelist', 'example.com')],
    ['whitelist/delete', (a) => a.deleteDomain('whitelist', 'wikipedia.org')],
    ['blocklist/list', (a) => a.listDomainsByProfile('blocklist')],
    ['blocklist/add', (a) => a.addDomain('blocklist', 'ads.example.net')],
    ['blocklist/delete', (a) => a.deleteDomain('blocklist', 'tracker.example.net')],
    ['default-block/enable', (a) => a.setDefaultBlock(true)],
    ['default-block/disable', (a) => a.setDefaultBlock(false)],
    ['network/list', (a) => a.listNetworks()],
    ['network/add', (a) => a.addNetwork({ ip: '198.51.100.99', label: 'Cabin' })],
    ['network/delete', (a) => a.deleteNetwork({ ip: '203.0.113.50' })],
    ['logs/list', (a) => a.listLogDays()],
    ['logs/getstats', (a) => a.getStats(YESTERDAY)],
    ['logs/getdump', (a) => a.getDump(YESTERDAY)],
    ['logs/delete', (a) => a.deleteLogDay(YESTERDAY)],
  ],
};

/** Reads a dump to the end, so a success means every line arrived. */
async function settle(result: unknown): Promise<void> {
  if (result && typeof result === 'object' && Symbol.asyncIterator in result) {
    for await (const _ of result as AsyncIterable<unknown>) {
      // drain
    }
  }
}

const cases = (['A', 'B'] as const).flatMap((form) =>
  CALLS[form].map(([action, run]) => ({ form, action, run })),
);

describe('every action of both forms', () => {
  it('covers the 22 actions of Form A and the 21 of Form B', () => {
    expect(new Set(CALLS.A.map(([action]) => action)).size).toBe(22);
    expect(new Set(CALLS.B.map(([action]) => action)).size).toBe(21);
  });

  it.each(cases)(
    'Form $form $action succeeds and reaches the service as that action',
    async ({ form, action, run }) => {
      await settle(await run(ctx.client(form)));
      expect(ctx.emulator.admin.calls().map((call) => [call.form, call.action])).toEqual([[form, action]]);
    },
  );

  it.each(cases)('Form $form $action with a bad key is a bad-key error', async ({ form, run }) => {
    const error = await apiErrorOf(run(ctx.client(form, { key: 'wrong-key-9999' })));
    expect(error.kind).toBe('bad-key');
    expect(error.details.reason).toBe('Invalid API key');
    expect(error.message).toMatch(/^Could not .+: Invalid API key$/);
  });

  const faults: [FaultKind, ApiErrorKind, RegExp][] = [
    ['http-500', 'server', /the service is busy or failing right now \(HTTP 500\)/],
    ['http-503-failure', 'server', /\(HTTP 503\); try again later\. Service temporarily unavailable$/],
    ['rate-limit', 'server', /\(HTTP 429\); it asks to wait 120 seconds\. Too many requests$/],
    // Node's fetch shows the 302 itself (a browser shows an opaque redirect, status 0).
    [
      'redirect',
      'unexpected',
      /unexpected response from the service \(HTTP 302, a redirect to another address/,
    ],
    ['html', 'unexpected', /unexpected response from the service \(HTTP 200, a web page/],
    ['malformed-json', 'unexpected', /unexpected response from the service \(HTTP 200, not valid JSON\)/],
    ['drop', 'network', /the service could not be reached/],
    ['odd-reason', 'service', /^Could not .+: <img src=x onerror=/],
  ];

  describe.each(faults)('fault %s', (fault, kind, message) => {
    it.each(cases)('Form $form $action', async ({ form, run }) => {
      ctx.emulator.admin.injectFault({ kind: fault });
      const error = await apiErrorOf(run(ctx.client(form)));
      expect(error.kind).toBe(kind);
      expect(error.message).toMatch(message);
      // Kept up to MAX_REASON_CHARS: the default odd reason is longer.
      if (fault === 'odd-reason') expect(error.details.reason).toBe(capText(DEFAULT_ODD_REASON));
    });
  });

  describe('fault slow, longer than the time limit', () => {
    it.each(cases)('Form $form $action times out', async ({ form, run }) => {
      ctx.emulator.admin.injectFault({ kind: 'slow', delayMs: 400 });
      const error = await apiErrorOf(run(ctx.client(form, { timeoutMs: 120 })));
      expect(error.kind).toBe('timeout');
      expect(error.message).toMatch(/did not answer within 120 ms/);
    });
  });
});

describe('faults in context', () => {
  it('a slow answer within the time limit succeeds', async () => {
    ctx.emulator.admin.injectFault({ kind: 'slow', delayMs: 100 });
    expect(await ctx.client('A', { timeoutMs: 2000 }).listProfiles()).toContain('default');
  });

  it('a fault lasts for its count of calls, then the service answers again', async () => {
    ctx.emulator.admin.injectFault({ kind: 'http-500', count: 2 });
    const api = ctx.client('B');
    expect((await apiErrorOf(api.listProfiles())).kind).toBe('server');
    expect((await apiErrorOf(api.listProfiles())).kind).toBe('server');
    expect(await api.listProfiles()).toContain('default');
  });

  it.each(['A', 'B'] as const)(
    'Form %s: a reason that echoes the key reaches the user as [key]',
    async (form) => {
      const key = ctx.emulator.key;
      ctx.emulator.admin.injectFault({ kind: 'odd-reason', reason: `Invalid API key: ${key} was revoked` });
      const error = await apiErrorOf(ctx.client(form).addDomain('whitelist', 'example.com'));
      expect(error.kind).toBe('bad-key');
      expect(error.message).toBe(
        'Could not add example.com to the whitelist: Invalid API key: [key] was revoked',
      );
      expect(JSON.stringify(error.details)).not.toContain(key);
    },
  );

  it("the caller's signal cancels a slow call", async () => {
    ctx.emulator.admin.injectFault({ kind: 'slow', delayMs: 1000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await apiErrorOf(ctx.client('A').listProfiles({ signal: controller.signal }));
    expect(error.kind).toBe('aborted');
  });

  it('a server that is gone is a network error', async () => {
    const { startEmulator } = await import('@/emulator/index.ts');
    const gone = await startEmulator({ seed: 'empty' });
    await gone.close();
    const { createApiClient } = await import('@/lib/api');
    const api = createApiClient({ baseUrl: gone.url, form: 'A', key: gone.key });
    expect((await apiErrorOf(api.listProfiles())).kind).toBe('network');
  });
});
