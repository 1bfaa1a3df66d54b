import { describe, expect, it } from 'vitest';
import type { DayStats } from '@/lib/api/types';
import { createOverviewLoader, type LocalState } from '@/lib/options/overview';
import type { OutboxEntry } from '@/lib/settings/storage';
import { createFakeClient, offline } from '../../fakes/fake-client';

const ACCOUNT = 'account-1';
const signal = new AbortController().signal;

const stats: DayStats = {
  ips: {},
  reqtypes: {},
  action: {
    '2024-05-01 09:00': { Allowed: 40, Blocked: 2 },
    '2024-05-01 10:00': { Allowed: 10, Blocked: 5 },
  },
  blocks: {},
  domains: {},
};

function entry(id: string, account: string, patch: Partial<OutboxEntry> = {}): OutboxEntry {
  return {
    id,
    account,
    change: { op: 'add', list: 'whitelist', domain: `${id}.example`, profile: 'default', source: 'popup' },
    createdAt: 0,
    attempts: 0,
    nextAttemptAt: 0,
    ...patch,
  };
}

function local(patch: Partial<LocalState> = {}): LocalState {
  return {
    outbox: [],
    dynamicIp: { enabled: false },
    outcome: null,
    registered: { current: null },
    ...patch,
  };
}

function seededClient() {
  const client = createFakeClient('A', {
    profiles: ['default', 'kids'],
    lists: {
      whitelist: { default: new Set(['a.example', 'b.example']), kids: new Set(['c.example']) },
      blocklist: { default: new Set(['x.example']), kids: new Set() },
    },
    networks: [
      { ip: '203.0.113.7', profile: 'default' },
      { ip: '198.51.100.1', profile: 'kids' },
    ],
  });
  client.listLogDays = async () => ['2024-05-01', '2024-04-30'];
  client.getStats = async () => stats;
  return client;
}

describe('the Overview assembly', () => {
  it('gives profiles, list sizes per profile, networks, today and what waits, from one load', async () => {
    const load = createOverviewLoader({
      client: seededClient(),
      accountId: ACCOUNT,
      readLocal: async () =>
        local({
          outbox: [
            entry('one', ACCOUNT),
            entry('two', ACCOUNT, { attempts: 2, lastError: 'The service could not be reached.' }),
            entry('three', 'another-account'),
          ],
        }),
    });
    const overview = await load(signal);
    expect(overview.connection).toEqual({ ok: true, value: { profiles: ['default', 'kids'] } });
    expect(overview.lists).toEqual({
      ok: true,
      value: [
        { scope: 'default', whitelist: 2, blocklist: 1 },
        { scope: 'kids', whitelist: 1, blocklist: 0 },
      ],
    });
    expect(overview.networks).toEqual({ ok: true, value: { count: 2 } });
    const today = overview.today.ok ? overview.today.value : null;
    expect(today?.date).toBe('2024-05-01');
    expect(today?.summary.totals).toEqual({ allowed: 50, blocked: 7 });
    expect(overview.waiting).toEqual({
      count: 2,
      retrying: 1,
      lastError: 'The service could not be reached.',
      otherAccounts: 1,
    });
  });

  it('says this network is registered, and by dynamic IP, only from what the registration found', async () => {
    const at = Date.UTC(2024, 4, 1);
    const registeredHere = local({
      dynamicIp: { enabled: true },
      outcome: { at, ok: true, ip: '203.0.113.7', message: 'Registered 203.0.113.7', consecutiveFailures: 0 },
      registered: { current: { ip: '203.0.113.7', account: ACCOUNT, at } },
    });
    const load = (state: LocalState) =>
      createOverviewLoader({ client: seededClient(), accountId: ACCOUNT, readLocal: async () => state })(
        signal,
      );

    expect((await load(registeredHere)).thisNetwork).toMatchObject({
      ip: '203.0.113.7',
      registered: true,
      byDynamicIp: true,
    });
    // Registered by someone else (the address is listed, this browser did not add it).
    expect((await load({ ...registeredHere, registered: { current: null } })).thisNetwork).toMatchObject({
      registered: true,
      byDynamicIp: false,
    });
    // A new address, not listed yet.
    const moved = { ...registeredHere.outcome, ip: '192.0.2.50' } as LocalState['outcome'];
    expect((await load({ ...registeredHere, outcome: moved })).thisNetwork).toMatchObject({
      ip: '192.0.2.50',
      registered: false,
    });
    // Dynamic IP off: the page never asks a lookup service, so the address is not known.
    expect((await load(local())).thisNetwork).toMatchObject({ ip: null, registered: null, dynamicIp: false });
  });

  it("keeps the parts that loaded when one call fails, with that call's reason", async () => {
    const client = seededClient();
    client.listNetworks = async () => {
      throw offline();
    };
    client.listLogDays = async () => [];
    const overview = await createOverviewLoader({
      client,
      accountId: ACCOUNT,
      readLocal: async () => local(),
    })(signal);
    expect(overview.connection.ok).toBe(true);
    expect(overview.lists.ok).toBe(true);
    expect(overview.networks).toEqual({
      ok: false,
      message: 'Could not do it: the service could not be reached.',
    });
    expect(overview.thisNetwork.registered).toBeNull();
    expect(overview.today).toEqual({ ok: true, value: null });
  });
});
