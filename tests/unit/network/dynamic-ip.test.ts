import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import {
  type DynamicIpDeps,
  ensureRegistrationAlarm,
  registerOnce,
  registrationAlarmOf,
  registrationRetryAlarmOf,
} from '@/lib/network';
import {
  accountsItem,
  connectionItem,
  dynamicIpSettingsItem,
  registeredAddressesItem,
  registrationOutcomeItem,
} from '@/lib/settings/storage';
import { createFakeClient, type FakeClient, offline } from '../../fakes/fake-client';
import { currentAccountOf as accountOf, testAccount } from '../account-ids';

beforeEach(() => fakeBrowser.reset());

const LOOKUP = 'http://127.0.0.1:9/ip';

/** The stable id the single setup got as the first account (lib/accounts/store.ts). */
const activeId = async () => (await accountsItem.getValue()).active ?? '';

async function setUp(options: { enabled?: boolean; service?: FakeClient | null } = {}) {
  const service = options.service === undefined ? createFakeClient('A') : options.service;
  let publicIp: string | Error = '198.51.100.1';
  let clock = 5_000_000;
  await connectionItem.setValue({ baseUrl: 'http://127.0.0.1:9', form: 'A' });
  await dynamicIpSettingsItem.setValue({
    enabled: options.enabled ?? true,
    intervalMinutes: 15,
    label: 'Home',
    profile: 'default',
    lookupUrls: [LOOKUP],
    removePrevious: true,
  });
  const deps: DynamicIpDeps = {
    getAccount: accountOf(service, testAccount('A', '0123456789abcdef', 'http://127.0.0.1:9')),
    fetch: (async () => {
      if (publicIp instanceof Error) throw publicIp;
      return new Response(publicIp);
    }) as unknown as typeof fetch,
    alarms: fakeBrowser.alarms,
    now: () => clock,
  };
  return {
    service,
    deps,
    setPublicIp: (ip: string | Error) => {
      publicIp = ip;
    },
    advance: (ms: number) => {
      clock += ms;
    },
    now: () => clock,
  };
}

describe('registerOnce', () => {
  it('registers the address, stores the outcome and what it registered', async () => {
    const { deps, service, now } = await setUp();
    const outcome = await registerOnce(deps, 'user');
    expect(outcome).toMatchObject({ ok: true, ip: '198.51.100.1', consecutiveFailures: 0, at: now() });
    expect(outcome?.message).toBe('Registered 198.51.100.1 as “Home” (profile default).');
    expect(await registrationOutcomeItem.getValue()).toEqual(outcome);
    expect(service?.state.networks).toEqual([{ ip: '198.51.100.1', profile: 'default', label: 'Home' }]);
    expect((await registeredAddressesItem.getValue()).current?.ip).toBe('198.51.100.1');
  });

  it('after an address change the old registration is deleted', async () => {
    const { deps, service, setPublicIp } = await setUp();
    await registerOnce(deps, 'alarm');
    setPublicIp('198.51.100.2');
    const outcome = await registerOnce(deps, 'alarm');
    expect(outcome?.message).toMatch(/removed the previous address 198\.51\.100\.1/);
    expect(service?.state.networks.map((n) => n.ip)).toEqual(['198.51.100.2']);
  });

  it('failures back off with a retry alarm, and the regular alarm does not pile up on it', async () => {
    const { deps, service, setPublicIp, advance, now } = await setUp();
    setPublicIp(new TypeError('offline'));
    const first = await registerOnce(deps, 'alarm');
    expect(first).toMatchObject({
      ok: false,
      reason: 'lookup',
      consecutiveFailures: 1,
      nextAttemptAt: now() + 60_000,
    });
    expect((await fakeBrowser.alarms.get(registrationRetryAlarmOf(await activeId())))?.scheduledTime).toBe(
      now() + 60_000,
    );

    // The regular alarm firing before the retry is due does nothing.
    advance(30_000);
    expect(await registerOnce(deps, 'alarm')).toBeNull();

    advance(30_000);
    const second = await registerOnce(deps, 'retry');
    expect(second).toMatchObject({ consecutiveFailures: 2, nextAttemptAt: now() + 120_000 });

    setPublicIp('198.51.100.1');
    service?.failNext('addNetwork', offline());
    advance(120_000);
    expect(await registerOnce(deps, 'retry')).toMatchObject({
      ok: false,
      reason: 'network',
      consecutiveFailures: 3,
    });
    advance(240_000);
    expect(await registerOnce(deps, 'retry')).toMatchObject({ ok: true, consecutiveFailures: 0 });
    expect(await fakeBrowser.alarms.get(registrationRetryAlarmOf(await activeId()))).toBeUndefined();
  });

  it('a refusal is not retried early: the regular interval and a settings change handle it', async () => {
    const { deps } = await setUp();
    await dynamicIpSettingsItem.setValue({
      ...(await dynamicIpSettingsItem.getValue()),
      label: '\u0007bell',
    });
    const outcome = await registerOnce(deps, 'alarm');
    expect(outcome).toMatchObject({ ok: false, reason: 'invalid-input' });
    expect(outcome?.nextAttemptAt).toBeUndefined();
    expect(await fakeBrowser.alarms.get(registrationRetryAlarmOf(await activeId()))).toBeUndefined();
  });

  it('without a key it says what to do and calls nothing', async () => {
    const { deps } = await setUp({ service: null });
    expect(await registerOnce(deps, 'user')).toMatchObject({
      ok: false,
      reason: 'no-key',
      message: expect.stringMatching(/no API key is saved/),
    });
  });

  it('the alarm does nothing while dynamic IP is off; Register now still works', async () => {
    const { deps } = await setUp({ enabled: false });
    expect(await registerOnce(deps, 'alarm')).toBeNull();
    expect(await registerOnce(deps, 'user')).toMatchObject({ ok: true });
  });

  it('runs one registration at a time: Register now waits for the run in progress', async () => {
    const { deps, service } = await setUp();
    const release = holdAddNetwork(service!);
    const alarmRun = registerOnce(deps, 'alarm');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await registerOnce(deps, 'alarm')).toBeNull();
    const userRun = registerOnce(deps, 'user');
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    expect(await alarmRun).toMatchObject({ ok: true });
    expect(await userRun).toMatchObject({ ok: true });
    expect(service?.calls.filter((call) => call.startsWith('network/add'))).toHaveLength(2);
  });
});

function holdAddNetwork(service: FakeClient): () => void {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const original = service.addNetwork;
  service.addNetwork = async (...args) => {
    await gate;
    return original(...args);
  };
  return release;
}

describe('ensureRegistrationAlarm', () => {
  const ID = '00000000-aaaa-4bbb-8ccc-000000000001';
  it('creates the alarm only when missing or when the period changed', async () => {
    const alarms = fakeBrowser.alarms;
    expect(await ensureRegistrationAlarm(alarms, { enabled: true, intervalMinutes: 15 }, ID)).toBe('created');
    const first = await alarms.get(registrationAlarmOf(ID));
    expect(first?.periodInMinutes).toBe(15);
    expect(await ensureRegistrationAlarm(alarms, { enabled: true, intervalMinutes: 15 }, ID)).toBe('kept');
    expect((await alarms.get(registrationAlarmOf(ID)))?.scheduledTime).toBe(first?.scheduledTime);
    expect(await ensureRegistrationAlarm(alarms, { enabled: true, intervalMinutes: 60 }, ID)).toBe('created');
    expect((await alarms.get(registrationAlarmOf(ID)))?.periodInMinutes).toBe(60);
    expect(await alarms.getAll()).toHaveLength(1);
  });

  it('removes both alarms when dynamic IP is turned off', async () => {
    const alarms = fakeBrowser.alarms;
    await ensureRegistrationAlarm(alarms, { enabled: true, intervalMinutes: 15 }, ID);
    alarms.create(registrationRetryAlarmOf(ID), { delayInMinutes: 1 });
    expect(await ensureRegistrationAlarm(alarms, { enabled: false, intervalMinutes: 15 }, ID)).toBe(
      'cleared',
    );
    expect(await alarms.getAll()).toEqual([]);
  });
});

describe('registerOnce with a private address from the lookup', () => {
  it.each(['10.1.2.3', '192.168.1.20', '100.64.0.1', '127.0.0.1', '169.254.3.4'])(
    '%s: nothing is registered, the previous address stays, and the outcome says why',
    async (ip) => {
      const { deps, service, setPublicIp } = await setUp();
      await registerOnce(deps, 'alarm');
      const callsBefore = service!.calls.length;
      setPublicIp(ip);
      const outcome = await registerOnce(deps, 'user');
      expect(outcome).toMatchObject({ ok: false, reason: 'lookup' });
      expect(outcome?.message).toMatch(/^Not registered: /);
      expect(outcome?.message).toContain(`it answered with ${ip}, an address in the reserved range`);
      expect(service!.calls.slice(callsBefore)).toEqual([]);
      expect(service!.state.networks.map((network) => network.ip)).toEqual(['198.51.100.1']);
      expect((await registeredAddressesItem.getValue()).current?.ip).toBe('198.51.100.1');
    },
  );
});

describe('registerOnce keeps its lease while it runs', () => {
  it('a run longer than the lease (slow lookups, slow deletions) is never joined by a second run', async () => {
    const { deps, service, advance, now } = await setUp();
    const urls = Array.from({ length: 10 }, (_, index) => `https://lookup${index}.example/`);
    await dynamicIpSettingsItem.setValue({ ...(await dynamicIpSettingsItem.getValue()), lookupUrls: urls });
    const earlier = ['198.51.100.11', '198.51.100.12', '198.51.100.13', '198.51.100.14'];
    for (const ip of earlier) await service!.addNetwork({ ip, profile: 'default', label: 'Home' });
    const account = testAccount('A', '0123456789abcdef', 'http://127.0.0.1:9').id;
    await registeredAddressesItem.setValue({
      current: { ip: earlier[0]!, profile: 'default', account, at: 1 },
      stale: earlier.slice(1).map((ip) => ({ ip, profile: 'default', account, at: 1 })),
    });
    // Nine lookups time out (8 s each), the tenth answers; the add and each deletion take 15 s.
    deps.fetch = (async (input: RequestInfo | URL) => {
      advance(8_000);
      if (String(input) !== urls[9]) throw new TypeError('Failed to fetch');
      return new Response('198.51.100.1');
    }) as typeof fetch;
    const secondRuns: (unknown | null)[] = [];
    let probing = false;
    const slow =
      <A extends unknown[]>(call: (...args: A) => Promise<void>) =>
      async (...args: A) => {
        advance(15_000);
        // Whoever comes along now (the periodic alarm) finds the run still holding the lease.
        if (!probing) {
          probing = true;
          secondRuns.push(await registerOnce(deps, 'alarm'));
          probing = false;
        }
        return call(...args);
      };
    const started = now();
    service!.addNetwork = slow(service!.addNetwork.bind(service));
    service!.deleteNetwork = slow(service!.deleteNetwork.bind(service));

    const outcome = await registerOnce(deps, 'user');

    expect(now() - started).toBeGreaterThan(150_000);
    expect(secondRuns).toEqual([null, null, null, null, null]);
    expect(outcome).toMatchObject({ ok: true, ip: '198.51.100.1' });
    expect(outcome?.message).toContain('removed the previous address 198.51.100.11, 198.51.100.12');
    expect(service!.state.networks.map((network) => network.ip)).toEqual(['198.51.100.1']);
  });
});

describe('registrations belong to their account', () => {
  it("never deletes the old account's address from the account configured now", async () => {
    const { deps, service: oldService, setPublicIp } = await setUp();
    await registerOnce(deps, 'user');
    expect(oldService?.state.networks.map((network) => network.ip)).toEqual(['198.51.100.1']);

    // A new key on the same origin, and the address changed meanwhile.
    const newService = createFakeClient('A');
    const newKey = testAccount('A', 'fedcba9876543210', 'http://127.0.0.1:9');
    setPublicIp('198.51.100.2');
    const outcome = await registerOnce({ ...deps, getAccount: accountOf(newService, newKey) }, 'user');
    expect(outcome?.ok).toBe(true);
    expect(newService.calls).toEqual(['network/add 198.51.100.2 default']);
    expect(oldService?.state.networks.map((network) => network.ip)).toEqual(['198.51.100.1']);

    // Back to the old key: its own earlier address goes, from its own account.
    setPublicIp('198.51.100.3');
    await registerOnce(deps, 'user');
    expect(oldService?.state.networks.map((network) => network.ip)).toEqual(['198.51.100.3']);
    expect(newService.state.networks.map((network) => network.ip)).toEqual(['198.51.100.2']);
  });
});
