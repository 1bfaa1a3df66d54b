/**
 * The schedules' reconciler against the emulator over HTTP (docs/schedules.md): a missed edge put
 * right at the next run, a failing service whose category and domain changes wait in the outbox
 * and reach the service through it, and two accounts (two services), each served with its own key.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { type EmulatorHandle, startEmulator } from '@/emulator/index.ts';
import { createApiClient } from '@/lib/api';
import type { ConfiguredAccount } from '@/lib/identity/current';
import { deliverPending } from '@/lib/outbox';
import { reconcileSchedules } from '@/lib/schedules/reconcile';
import type { ScheduleRule } from '@/lib/schedules/schema';
import { scheduleChecksItem, schedulesItem } from '@/lib/schedules/store';
import { outboxItem, settledChangesItem } from '@/lib/settings/storage';
import { testAccount } from '../unit/account-ids';

const BERLIN = 'Europe/Berlin';
// Monday 2026-07-06 in Berlin (UTC+2): the window 18:00–20:00 is 16:00Z–18:00Z.
const at = (iso: string) => Date.parse(iso);

const homework: ScheduleRule = {
  id: 'homework',
  name: 'Homework time',
  profile: 'kids1',
  days: [1, 2, 3, 4, 7],
  windows: [{ start: '18:00', end: '20:00' }],
  owns: [
    { kind: 'category', category: 'category_gaming', inside: true, outside: false },
    { kind: 'domain', domain: 'games.example', inside: 'blocklist', outside: 'none' },
  ],
};

let first: EmulatorHandle;
let second: EmulatorHandle;
beforeAll(async () => {
  [first, second] = await Promise.all([startEmulator({ seed: 'demo' }), startEmulator({ seed: 'demo' })]);
});
afterAll(async () => {
  await Promise.all([first?.close(), second?.close()]);
});
beforeEach(() => {
  fakeBrowser.reset();
  first.admin.reset();
  second.admin.reset();
});

function accountOn(emulator: EmulatorHandle, accountId: string, fingerprint: string): ConfiguredAccount {
  return {
    accountId,
    active: accountId === 'account-one',
    identity: testAccount('A', fingerprint, emulator.url),
    client: createApiClient({ baseUrl: emulator.url, form: 'A', key: emulator.key, timeoutMs: 5000 }),
  };
}

function setUp(accounts: ConfiguredAccount[]) {
  let clock = at('2026-07-06T16:30:00Z');
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
  return { deps, setClock: (iso: string) => (clock = at(iso)) };
}

const gamingBlocked = (emulator: EmulatorHandle) =>
  emulator.admin.state().profiles.kids1?.blockedCategories.includes('category_gaming') ?? false;
const onBlocklist = (emulator: EmulatorHandle) =>
  emulator.admin.state().profiles.kids1?.blocklist.includes('games.example') ?? false;
/** The queued changes in short: what each sets. */
const queued = async () =>
  (await outboxItem.getValue()).map(({ change }) =>
    change.op === 'set-category'
      ? `${change.op} ${change.category}`
      : change.op === 'set-default-block'
        ? `${change.op} ${change.enabled}`
        : `${change.op} ${change.domain}`,
  );

describe('reconcileSchedules against the emulator', () => {
  it('blocks inside the window, and puts right at the next start an end missed while closed', async () => {
    const { deps, setClock } = setUp([accountOn(first, 'account-one', '1111111111111111')]);
    await schedulesItem.setValue({ 'account-one': { leadMinutes: 0, rules: [homework], overrides: [] } });
    await reconcileSchedules(deps);
    expect(gamingBlocked(first)).toBe(true);
    expect(onBlocklist(first)).toBe(true);
    // The browser was closed over 20:00; it starts again the next morning.
    setClock('2026-07-07T05:00:00Z');
    await reconcileSchedules(deps);
    expect(gamingBlocked(first)).toBe(false);
    expect(onBlocklist(first)).toBe(false);
    expect((await scheduleChecksItem.getValue())['account-one']?.lastCheck?.outcome).toBe('sent');
  });

  it('a failing service: the category and domain changes wait in the outbox, which sends them once it is back', async () => {
    const { deps, setClock } = setUp([accountOn(first, 'account-one', '1111111111111111')]);
    await schedulesItem.setValue({ 'account-one': { leadMinutes: 0, rules: [homework], overrides: [] } });
    // Before the window: the views are fetched, nothing differs.
    setClock('2026-07-06T15:58:00Z');
    await reconcileSchedules(deps);
    expect(first.admin.calls().filter((call) => !call.action.endsWith('/list'))).toEqual([]);
    // The window starts while every call fails (HTTP 500).
    first.admin.injectFault({ kind: 'http-500', count: 50 });
    setClock('2026-07-06T16:00:00Z');
    const report = await reconcileSchedules(deps);
    expect(report.accounts[0]?.check.outcome).toBe('waiting');
    expect(gamingBlocked(first)).toBe(false);
    expect(await queued()).toEqual(['set-category category_gaming', 'add games.example']);
    // The service is back: the next run queues nothing again; the outbox sends both.
    first.admin.clearFaults();
    setClock('2026-07-06T16:01:00Z');
    await reconcileSchedules(deps);
    expect(await queued()).toHaveLength(2);
    await deps.deliverOutbox(testAccount('A', '1111111111111111', first.url).id);
    expect(gamingBlocked(first)).toBe(true);
    expect(onBlocklist(first)).toBe(true);
    expect(await outboxItem.getValue()).toEqual([]);
    expect(
      (await settledChangesItem.getValue()).map((settled) => [settled.change.op, settled.state]),
    ).toEqual([
      ['add', 'delivered'],
      ['set-category', 'delivered'],
    ]);
    // Delivered counts as made: a run before the next fetch of the categories sends nothing.
    const before = first.admin.calls().length;
    setClock('2026-07-06T16:02:00Z');
    await reconcileSchedules(deps);
    expect(first.admin.calls().slice(before)).toEqual([]);
    expect(await outboxItem.getValue()).toEqual([]);
  });

  it('serves two accounts, each on its own service with its own key', async () => {
    const { deps } = setUp([
      accountOn(first, 'account-one', '1111111111111111'),
      accountOn(second, 'account-two', '2222222222222222'),
    ]);
    const office: ScheduleRule = {
      ...homework,
      id: 'office',
      name: 'Office',
      windows: [{ start: '08:00', end: '12:00' }],
    };
    await schedulesItem.setValue({
      'account-one': { leadMinutes: 0, rules: [homework], overrides: [] },
      'account-two': { leadMinutes: 0, rules: [office], overrides: [] },
    });
    await reconcileSchedules(deps);
    expect(gamingBlocked(first)).toBe(true);
    // 18:30 is outside the second account's window: nothing of the first's reached it.
    expect(gamingBlocked(second)).toBe(false);
    expect(second.admin.calls().some((call) => call.action === 'category/block')).toBe(false);
  });
});
