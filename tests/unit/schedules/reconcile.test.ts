/**
 * The reconciler against the shared fake client (docs/schedules.md, "Reconciliation"): only the
 * differences are sent, twice sends nothing twice, a missed edge is put right at the next run, a
 * failing service leaves the domain changes waiting in the outbox, and two accounts are served
 * each with its own client.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import type { ConfiguredAccount } from '@/lib/identity/current';
import { carriesListChange } from '@/lib/messaging/queued-change';
import { deliverPending } from '@/lib/outbox';
import { reconcileSchedules, SCHEDULES_ALARM } from '@/lib/schedules/reconcile';
import type { AccountSchedules, ScheduleRule } from '@/lib/schedules/schema';
import { scheduleChecksItem, schedulesItem } from '@/lib/schedules/store';
import { outboxItem, settledChangesItem } from '@/lib/settings/storage';
import { createFakeClient, type FakeClient, offline } from '../../fakes/fake-client';
import { testAccount } from '../account-ids';
import { rule } from './fixtures';

beforeEach(() => fakeBrowser.reset());

const BERLIN = 'Europe/Berlin';
// Monday 2026-07-06, Berlin (UTC+2): the window 18:00–20:00 is 16:00Z–18:00Z.
const at = (iso: string) => Date.parse(iso);

function accountWith(client: FakeClient, accountId: string, fingerprint: string): ConfiguredAccount {
  return { accountId, identity: testAccount('A', fingerprint), client, active: accountId === 'account-one' };
}

function setUp(options: { rules?: ScheduleRule[]; lead?: number; start?: string } = {}) {
  let clock = at(options.start ?? '2026-07-06T16:30:00Z');
  const client = createFakeClient('A', { profiles: ['default', 'kids'] });
  const accounts = [accountWith(client, 'account-one', '1111111111111111')];
  const schedules: AccountSchedules = {
    leadMinutes: options.lead ?? 0,
    rules: options.rules ?? [rule({ profile: 'kids' })],
    overrides: [],
  };
  const deps = {
    getAccounts: async () => accounts,
    alarms: fakeBrowser.alarms,
    now: () => clock,
    timeZone: BERLIN,
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
  return {
    client,
    accounts,
    deps,
    store: () => schedulesItem.setValue({ 'account-one': schedules }),
    setClock: (iso: string) => {
      clock = at(iso);
    },
  };
}

const gamingBlocked = (client: FakeClient, scope = 'kids') =>
  client.state.blocked[scope]?.has('category_gaming') ?? false;
const changingCalls = (client: FakeClient) => client.calls.filter((call) => !call.includes('/list'));

describe('reconcileSchedules', () => {
  it('blocks the category inside the window, once: a second run sends nothing', async () => {
    const { client, deps, store } = setUp();
    await store();
    await reconcileSchedules(deps);
    expect(gamingBlocked(client)).toBe(true);
    const calls = client.calls.length;
    const again = await reconcileSchedules(deps);
    expect(client.calls.length).toBe(calls);
    expect(again.accounts[0]?.check.outcome).toBe('in-step');
    expect((await scheduleChecksItem.getValue())['account-one']?.lastCheck?.outcome).toBe('in-step');
  });

  it('leaves a profile the rule does not name alone', async () => {
    const { client, deps, store } = setUp();
    await store();
    await reconcileSchedules(deps);
    expect(gamingBlocked(client, 'default')).toBe(false);
  });

  it('puts right an edge missed while the browser was closed, and sets the alarm for the next one', async () => {
    const { client, deps, store, setClock } = setUp();
    await store();
    await reconcileSchedules(deps);
    expect(gamingBlocked(client)).toBe(true);
    // Closed at 18:30, opened the next morning: the end at 20:00 was missed.
    setClock('2026-07-07T06:00:00Z');
    const report = await reconcileSchedules(deps);
    expect(gamingBlocked(client)).toBe(false);
    expect(report.accounts[0]?.check).toMatchObject({ outcome: 'sent', changes: 1 });
    // Next change: Tuesday 18:00 local, but the worker looks again within the hour.
    expect((await fakeBrowser.alarms.get(SCHEDULES_ALARM))?.scheduledTime).toBe(at('2026-07-07T07:00:00Z'));
  });

  it('sets the alarm at the next edge minus the lead', async () => {
    const { deps, store } = setUp({ lead: 45, start: '2026-07-06T15:00:00Z' });
    await store();
    await reconcileSchedules(deps);
    expect((await fakeBrowser.alarms.get(SCHEDULES_ALARM))?.scheduledTime).toBe(at('2026-07-06T15:15:00Z'));
  });

  it('does not re-create an alarm already set for that time', async () => {
    const { deps, store } = setUp({ lead: 45, start: '2026-07-06T15:00:00Z' });
    await store();
    await reconcileSchedules(deps);
    let created = 0;
    const counting = {
      ...deps,
      alarms: {
        get: (name: string) => fakeBrowser.alarms.get(name),
        clear: (name: string) => fakeBrowser.alarms.clear(name),
        create: (name: string, info: { when?: number }) => {
          created++;
          return fakeBrowser.alarms.create(name, info);
        },
      },
    };
    await reconcileSchedules(counting);
    expect(created).toBe(0);
  });

  it('after a batch longer than the settled log, the next checks send nothing again', async () => {
    // 25 domains: more changes than the settled log keeps, so the oldest leave it before the next check.
    const owns = Array.from({ length: 25 }, (_, index) => ({
      kind: 'domain' as const,
      domain: `site${index}.example`,
      inside: 'blocklist' as const,
      outside: 'none' as const,
    }));
    const { client, deps, store, setClock } = setUp({ rules: [rule({ profile: 'kids', owns })] });
    await store();
    await reconcileSchedules(deps);
    expect(client.state.lists.blocklist.kids?.size).toBe(25);
    client.calls.length = 0;
    setClock('2026-07-06T16:31:00Z');
    await reconcileSchedules(deps);
    // The lists are read again once, and nothing is sent.
    expect(changingCalls(client)).toEqual([]);
    client.calls.length = 0;
    setClock('2026-07-06T16:32:00Z');
    await reconcileSchedules(deps);
    expect(client.calls).toEqual([]);
  });

  it('puts a domain on the blocklist through the outbox; offline, the change waits there', async () => {
    const owns = [
      {
        kind: 'domain' as const,
        domain: 'games.example',
        inside: 'blocklist' as const,
        outside: 'none' as const,
      },
    ];
    const { client, deps, store } = setUp({ rules: [rule({ profile: 'kids', owns })] });
    await store();
    // The lists are fetched first (stale view), then every call fails.
    client.failWith(null);
    const listsFirst = reconcileSchedules({ ...deps, deliverOutbox: async () => client.failWith(offline()) });
    await listsFirst;
    const queued = await outboxItem.getValue();
    expect(
      queued
        .filter(carriesListChange)
        .map(({ change }) => [change.op, change.list, change.domain, change.source]),
    ).toEqual([['add', 'blocklist', 'games.example', 'schedule']]);
    // A second run queues nothing twice.
    await reconcileSchedules({ ...deps, deliverOutbox: async () => undefined });
    expect(await outboxItem.getValue()).toHaveLength(1);
    // The service is back: the outbox delivers it.
    client.failWith(null);
    await deps.deliverOutbox(deps.getAccounts && (await deps.getAccounts())[0]!.identity.id);
    expect(client.state.lists.blocklist.kids?.has('games.example')).toBe(true);
    expect(await outboxItem.getValue()).toHaveLength(0);
  });

  it('a failing service: nothing is lost, the check says it waits, and a retry comes after the backoff', async () => {
    const { client, deps, store, setClock } = setUp();
    await store();
    client.failWith(offline());
    const report = await reconcileSchedules(deps);
    expect(report.accounts[0]?.check.outcome).toBe('waiting');
    expect(gamingBlocked(client)).toBe(false);
    expect((await fakeBrowser.alarms.get(SCHEDULES_ALARM))?.scheduledTime).toBe(at('2026-07-06T16:30:30Z'));
    client.failWith(null);
    setClock('2026-07-06T16:31:00Z');
    await reconcileSchedules(deps);
    expect(gamingBlocked(client)).toBe(true);
  });

  it('serves two accounts, each with its own client and rules', async () => {
    const { client, accounts, deps } = setUp();
    const second = createFakeClient('A');
    accounts.push(accountWith(second, 'account-two', '2222222222222222'));
    await schedulesItem.setValue({
      'account-one': { leadMinutes: 0, rules: [rule({ profile: 'kids' })], overrides: [] },
      'account-two': {
        leadMinutes: 0,
        rules: [
          rule({
            id: 'streaming',
            days: [1],
            windows: [{ start: '17:00', end: '19:00' }],
            owns: [{ kind: 'category', category: 'category_video_streaming', inside: true, outside: false }],
          }),
        ],
        overrides: [],
      },
    });
    await reconcileSchedules(deps);
    expect(gamingBlocked(client)).toBe(true);
    expect(second.state.blocked.default?.has('category_video_streaming')).toBe(true);
    // Each account's calls went to its own client only.
    expect(changingCalls(second)).toEqual(['category/block category_video_streaming default']);
    expect(changingCalls(client)).toEqual(['category/block category_gaming kids']);
  });

  it('with fresh views and nothing to change, calls the service not at all', async () => {
    const { client, deps, store } = setUp();
    await store();
    await reconcileSchedules(deps);
    client.calls.length = 0;
    await reconcileSchedules(deps);
    expect(client.calls).toEqual([]);
  });
});

describe('categories and default block go through the outbox', () => {
  const queuedSettings = async () =>
    (await outboxItem.getValue()).map(({ change }) =>
      change.op === 'set-category'
        ? `${change.category} ${change.blocked} ${change.source}`
        : change.op === 'set-default-block'
          ? `default block ${change.enabled} ${change.source}`
          : change.op,
    );

  it("queues the category change, and it reaches the service through delivery, recorded as a schedule's", async () => {
    const { client, deps, store } = setUp();
    await store();
    let delivered = 0;
    await reconcileSchedules({
      ...deps,
      deliverOutbox: async (account) => {
        // Queued before it is sent: the outbox has it.
        expect(await queuedSettings()).toEqual(['category_gaming true schedule']);
        delivered++;
        return deps.deliverOutbox(account);
      },
    });
    expect(delivered).toBe(1);
    expect(gamingBlocked(client)).toBe(true);
    expect(await outboxItem.getValue()).toEqual([]);
    expect(await settledChangesItem.getValue()).toEqual([
      expect.objectContaining({
        change: {
          op: 'set-category',
          category: 'category_gaming',
          blocked: true,
          profile: 'kids',
          source: 'schedule',
        },
        state: 'delivered',
      }),
    ]);
  });

  it('a failing service keeps it queued; a second run queues nothing new; a later delivery sends it', async () => {
    const { client, deps, store, setClock } = setUp();
    await store();
    // The categories are read, then the change fails.
    client.failNext('setCategoryBlocked', offline());
    const first = await reconcileSchedules(deps);
    expect(gamingBlocked(client)).toBe(false);
    expect(await queuedSettings()).toEqual(['category_gaming true schedule']);
    expect(first.accounts[0]?.check).toMatchObject({ outcome: 'waiting', message: offline().message });
    // No retry of its own: the outbox's alarm brings the change.
    expect((await fakeBrowser.alarms.get(SCHEDULES_ALARM))?.scheduledTime).toBe(at('2026-07-06T17:30:00Z'));
    setClock('2026-07-06T16:31:00Z');
    const calls = client.calls.length;
    await reconcileSchedules(deps);
    expect(client.calls.length).toBe(calls);
    expect(await outboxItem.getValue()).toHaveLength(1);
    await deps.deliverOutbox((await deps.getAccounts())[0]!.identity.id);
    expect(gamingBlocked(client)).toBe(true);
    expect(await outboxItem.getValue()).toEqual([]);
    // Delivered counts as made: the next run sends nothing.
    setClock('2026-07-06T16:32:00Z');
    const after = client.calls.length;
    const report = await reconcileSchedules(deps);
    expect(client.calls.length).toBe(after);
    expect(report.accounts[0]?.check.outcome).toBe('in-step');
  });

  it('default block: on inside the window through the outbox, and off after it', async () => {
    const owns = [{ kind: 'default-block' as const, inside: true, outside: false }];
    const { client, deps, store, setClock } = setUp({ rules: [rule({ profile: 'kids', owns })] });
    await store();
    await reconcileSchedules(deps);
    expect(client.state.defaultBlock.kids).toBe(true);
    const calls = client.calls.length;
    await reconcileSchedules(deps);
    expect(client.calls.length).toBe(calls);
    setClock('2026-07-06T18:00:00Z');
    await reconcileSchedules(deps);
    expect(client.state.defaultBlock.kids).toBe(false);
    expect((await settledChangesItem.getValue()).map((settled) => settled.change.source)).toEqual([
      'schedule',
      'schedule',
    ]);
  });
});
