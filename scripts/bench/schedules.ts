/**
 * A reconciliation of schedules (lib/schedules/reconcile.ts) in Node: 10 accounts × 5 profiles ×
 * 20 rules, each rule owning a category and a domain, the categories seen and the lists cached
 * (fresh). Figures: the time of one alarm's run when nothing changed, the calls to the service then
 * (the goal is none), and at an edge the calls against the differences. The product's modules load
 * through Vite's module runner over WXT's fake browser, as in ./diagnosis.ts; each account has the
 * shared fake client (tests/fakes/fake-client.ts), which counts its calls.
 */
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createServer, createServerModuleRunner } from 'vite';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { atMost, below, type Figure, figure } from './figures.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const ACCOUNTS = 10;
const PROFILES = 5;
const RULES = 20;
const MINUTE = 60_000;

export async function measureSchedules({ runs = 7 }: { runs?: number } = {}): Promise<Figure[]> {
  Object.assign(globalThis, { chrome: fakeBrowser, browser: fakeBrowser });
  const server = await createServer({
    root: ROOT,
    configFile: false,
    logLevel: 'silent',
    appType: 'custom',
    resolve: { alias: [{ find: /^@\//, replacement: `${ROOT}/` }] },
    server: { middlewareMode: true, hmr: false, ws: false },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  const runner = createServerModuleRunner(server.environments.ssr, { hmr: false });
  try {
    const { reconcileSchedules }: typeof import('../../lib/schedules/reconcile.ts') = await runner.import(
      '/lib/schedules/reconcile.ts',
    );
    const { schedulesItem }: typeof import('../../lib/schedules/store.ts') =
      await runner.import('/lib/schedules/store.ts');
    const { deliverPending }: typeof import('../../lib/outbox/delivery.ts') =
      await runner.import('/lib/outbox/delivery.ts');
    // The outbox words its outcomes; the fake browser has no catalogue (the words are not measured).
    fakeBrowser.i18n.getMessage = ((name: string) => name) as typeof fakeBrowser.i18n.getMessage;
    const { createFakeClient }: typeof import('../../tests/fakes/fake-client.ts') = await runner.import(
      '/tests/fakes/fake-client.ts',
    );
    const { CATEGORY_CATALOGUE }: typeof import('../../lib/api/categories.ts') =
      await runner.import('/lib/api/categories.ts');
    const { identityOf }: typeof import('../../lib/identity/identity.ts') =
      await runner.import('/lib/identity/identity.ts');
    type Client = ReturnType<typeof createFakeClient>;
    type Account = import('../../lib/identity/current.ts').ConfiguredAccount;

    const categories = CATEGORY_CATALOGUE.A.map((entry) => entry.id).slice(0, RULES);
    const profiles = Array.from({ length: PROFILES }, (_, i) => `p${i}`);
    const clients: Client[] = [];
    const accounts: Account[] = [];
    const stored: Record<string, unknown> = {};
    for (let a = 0; a < ACCOUNTS; a++) {
      const client = createFakeClient('A', { profiles: ['default', ...profiles] });
      clients.push(client);
      const accountId = `bench-account-${a}`;
      accounts.push({
        accountId,
        active: a === 0,
        client,
        identity: identityOf({
          origin: 'https://my.cleanbrowsing.org',
          form: 'A',
          keyFingerprint: a.toString(16).padStart(16, '0'),
        }),
      });
      // Each rule of a profile owns its own category and domain; windows spread over the day.
      const rules = profiles.flatMap((profile) =>
        categories.map((category, r) => {
          const start = (r * 67 + a * 13) % (24 * 60);
          const end = (start + 90) % (24 * 60);
          const hhmm = (m: number) =>
            `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
          return {
            id: `r${r}`,
            name: `Rule ${r}`,
            profile,
            days: [1, 2, 3, 4, 5, 6, 7],
            windows: [{ start: hhmm(start), end: hhmm(end) }],
            owns: [
              { kind: 'category', category, inside: true, outside: false },
              { kind: 'domain', domain: `site${r}.example`, inside: 'blocklist', outside: 'none' },
            ],
          };
        }),
      );
      stored[accountId] = { leadMinutes: 45, rules, overrides: [] };
    }
    await schedulesItem.setValue(stored as never);

    let clock = Date.parse('2026-07-06T10:00:00Z');
    const deps = {
      getAccounts: async () => accounts,
      alarms: fakeBrowser.alarms,
      now: () => clock,
      timeZone: 'Europe/Berlin',
      deliverOutbox: (account: string) =>
        deliverPending(
          {
            getAccount: async () => accounts[0]!,
            getAccounts: async () => accounts,
            alarms: fakeBrowser.alarms,
            now: () => clock,
          },
          { force: true, only: account },
        ),
    };
    const calls = () => clients.reduce((sum, client) => sum + client.calls.length, 0);
    const changingCalls = () =>
      clients.reduce((sum, client) => sum + client.calls.filter((call) => !call.includes('/list')).length, 0);
    // The first run fetches every view and puts everything in step.
    await reconcileSchedules(deps);

    const idleMs: number[] = [];
    const idleCalls: number[] = [];
    for (let run = 0; run < runs; run++) {
      // Alarms close together, the views still fresh (lists cached).
      clock += 10_000;
      const before = calls();
      const started = performance.now();
      await reconcileSchedules(deps);
      idleMs.push(performance.now() - started);
      idleCalls.push(calls() - before);
    }

    // At the next edge minus the lead (the alarm's time), some windows start or end. The views
    // may be stale by then: their fetches are counted apart from the calls that change something.
    clock = (await fakeBrowser.alarms.get('schedules'))?.scheduledTime ?? clock + 30 * MINUTE;
    const before = changingCalls();
    const fetchesBefore = calls() - changingCalls();
    const report = await reconcileSchedules(deps);
    const edgeCalls = changingCalls() - before;
    const edgeFetches = calls() - changingCalls() - fetchesBefore;
    const differences = report.accounts.reduce((sum, account) => sum + account.check.changes, 0);

    const what = `${ACCOUNTS} accounts × ${PROFILES} profiles × ${RULES} rules, views cached`;
    return [
      figure(
        'schedules-idle-ms',
        `Schedules: one alarm's reconciliation, nothing changed, ${what}`,
        'ms',
        idleMs,
        below(50, '< 50 ms'),
        "in Node with WXT's fake storage (the worker's own CPU is not measured apart)",
      ),
      figure(
        'schedules-idle-calls',
        `Schedules: API calls, nothing changed, ${what}`,
        'calls',
        idleCalls,
        atMost(0, '0'),
      ),
      figure(
        'schedules-edge-calls',
        `Schedules: API calls that change something at an edge, ${differences} differences (and ${edgeFetches} fetches of stale views), ${what}`,
        'calls',
        [edgeCalls],
        atMost(2 * differences, 'the differences only'),
        'a category is one call; a domain put on a list is two (off the other list, then on), taken off one',
      ),
    ];
  } finally {
    await runner.close();
    await server.close();
  }
}
