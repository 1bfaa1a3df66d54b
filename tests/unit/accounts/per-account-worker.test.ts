/**
 * The worker with several accounts: each account's queued changes go to that account (active or
 * not) and nowhere else, with its own key at its own origin; each account has its own outbox and
 * registration alarms and leases, so one failing or busy account holds nothing of another back;
 * removing an account forgets everything of it and nothing of the others.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { createAccounts } from '@/lib/accounts';
import { forgetAccount } from '@/lib/accounts/forget';
import { activateAccount, readAccounts } from '@/lib/accounts/store';
import { cachedListsItem } from '@/lib/cache/cached-lists';
import { history, journal } from '@/lib/history';
import type { ConfiguredAccount } from '@/lib/identity/current';
import { readConfiguredAccounts, readCurrentAccount } from '@/lib/identity/current';
import type { ListChange } from '@/lib/messaging/protocol';
import {
  registerOnce,
  registrationAlarmOf,
  registrationLeaseOf,
  registrationRetryAlarmOf,
  syncRegistrationAlarms,
} from '@/lib/network';
import { deliverPending, enqueueChange, type OutboxDeps, outboxAlarmOf, outboxLeaseOf } from '@/lib/outbox';
import { tryAcquireLease } from '@/lib/outbox/lease';
import {
  apiKeyItem,
  cachedBlockedTodayItem,
  cachedListsIndexItem,
  connectionItem,
  dynamicIpSettingsItem,
  leasesItem,
  outboxItem,
  registrationOutcomeItem,
  temporaryAllowsItem,
} from '@/lib/settings/storage';
import { createFakeClient, type FakeClient, offline } from '../../fakes/fake-client';
import { testAccount } from '../account-ids';

beforeEach(() => fakeBrowser.reset());
afterEach(() => vi.unstubAllGlobals());

const home = testAccount('A', '1111111111111111', 'https://home.example');
const office = testAccount('B', '2222222222222222', 'https://office.example');

const whitelist = (domain: string, profile?: string): ListChange => ({
  op: 'add',
  list: 'whitelist',
  domain,
  ...(profile === undefined ? {} : { profile }),
  source: 'popup',
});

function twoAccounts() {
  const homeService = createFakeClient('A');
  const officeService = createFakeClient('B');
  let clock = 1_000_000;
  const accounts = (): ConfiguredAccount[] => [
    { identity: home, client: homeService, accountId: 'home-0000', active: true },
    { identity: office, client: officeService, accountId: 'office-0000', active: false },
  ];
  const deps: OutboxDeps = {
    getAccount: async () => accounts()[0]!,
    getAccounts: async () => accounts(),
    alarms: fakeBrowser.alarms,
    now: () => clock,
  };
  return { homeService, officeService, deps, advance: (ms: number) => (clock += ms), now: () => clock };
}

const listed = (service: FakeClient, scope: string) => [...(service.state.lists.whitelist[scope] ?? [])];

describe('queued changes go to their own account', () => {
  it('a change of the account that is not active is delivered to it and not to the active one', async () => {
    const { homeService, officeService, deps } = twoAccounts();
    await enqueueChange(whitelist('office-only.example'), office.id);
    await enqueueChange(whitelist('home-only.example', 'default'), home.id);
    const report = await deliverPending(deps, { force: true });
    expect(report.remaining).toEqual([]);
    expect(listed(officeService, 'account')).toEqual(['office-only.example']);
    expect(listed(homeService, 'default')).toEqual(['home-only.example']);
    expect(homeService.calls.join(' ')).not.toContain('office-only');
    expect(officeService.calls.join(' ')).not.toContain('home-only');
  });

  it('an account that is down keeps its changes on its own alarm and holds nothing of the other', async () => {
    const { homeService, officeService, deps, now } = twoAccounts();
    officeService.failNext('deleteDomain', offline());
    await enqueueChange(whitelist('office.example'), office.id);
    await enqueueChange(whitelist('home.example', 'default'), home.id);
    const report = await deliverPending(deps, { force: true });
    expect(report.remaining).toMatchObject([{ account: office.id, attempts: 1 }]);
    expect(listed(homeService, 'default')).toEqual(['home.example']);
    expect((await fakeBrowser.alarms.get(outboxAlarmOf(office.id)))?.scheduledTime).toBe(now() + 30_000);
    expect(await fakeBrowser.alarms.get(outboxAlarmOf(home.id))).toBeUndefined();
  });

  it('each account has its own lease: a delivery running for one does not stop the other', async () => {
    const { homeService, officeService, deps, now } = twoAccounts();
    await enqueueChange(whitelist('office.example'), office.id);
    await enqueueChange(whitelist('home.example', 'default'), home.id);
    const held = await tryAcquireLease(outboxLeaseOf(office.id), { ttlMs: 60_000, now });
    await deliverPending(deps, { force: true });
    expect(listed(homeService, 'default')).toEqual(['home.example']);
    expect(officeService.calls).toEqual([]);
    await held?.release();
    await deliverPending(deps, { force: true });
    expect(listed(officeService, 'account')).toEqual(['office.example']);
  });
});

describe('one account’s key never goes to another’s origin', () => {
  it('every request carries the key of the account whose origin it goes to, active or not', async () => {
    await apiKeyItem.setValue('key-of-home');
    await connectionItem.setValue({ baseUrl: 'https://home.example', form: 'A' });
    const api = createAccounts({
      confirm: async () => true,
      permissions: { request: async () => true, remove: async () => true },
      removeInWorker: async () => ({ removed: true, discarded: 0 }),
    });
    const officeId = await api.add({
      name: 'Office',
      key: 'key-of-office',
      baseUrl: 'https://office.example',
      form: 'B',
    });
    const requests: URL[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string | URL) => {
        requests.push(new URL(String(input)));
        return new Response(JSON.stringify({ status: 'success' }), {
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    const identities = Object.fromEntries(
      (await readConfiguredAccounts()).map((account) => [account.accountId, account.identity.id]),
    );
    await enqueueChange(whitelist('a.example', 'default'), identities[(await readAccounts()).activeId]!);
    await enqueueChange(whitelist('b.example'), identities[officeId]!);
    const deps: OutboxDeps = {
      getAccount: () => readCurrentAccount(),
      getAccounts: readConfiguredAccounts,
      alarms: fakeBrowser.alarms,
    };
    await deliverPending(deps, { force: true });
    // Switched: the same holds the other way round.
    await activateAccount(officeId);
    await enqueueChange(
      whitelist('c.example', 'default'),
      identities[Object.keys(identities).find((id) => id !== officeId)!]!,
    );
    await deliverPending(deps, { force: true });

    const keyAt = new Map<string, Set<string>>();
    for (const url of requests) {
      const keys = keyAt.get(url.origin) ?? new Set();
      keys.add(url.searchParams.get('apikey') ?? '');
      keyAt.set(url.origin, keys);
    }
    expect(Object.fromEntries([...keyAt].map(([origin, keys]) => [origin, [...keys]]))).toEqual({
      'https://home.example': ['key-of-home'],
      'https://office.example': ['key-of-office'],
    });
    expect(
      requests.some((url) => url.search.includes('c.example') && url.origin === 'https://home.example'),
    ).toBe(true);
  });
});

describe('dynamic IP per account', () => {
  async function twoRegisteringAccounts() {
    await apiKeyItem.setValue('key-of-home');
    await connectionItem.setValue({ baseUrl: 'https://home.example', form: 'A' });
    await dynamicIpSettingsItem.setValue({
      ...dynamicIpSettingsItem.fallback,
      enabled: true,
      intervalMinutes: 15,
      lookupUrls: ['https://lookup.example/'],
    });
    const homeId = (await readAccounts()).activeId;
    const api = createAccounts({
      confirm: async () => true,
      permissions: { request: async () => true, remove: async () => true },
      removeInWorker: async () => ({ removed: true, discarded: 0 }),
    });
    const officeId = await api.add({
      name: 'Office',
      key: 'key-of-office',
      baseUrl: 'https://office.example',
      form: 'B',
    });
    // The office's own settings, written while it is active, parked when home is active again.
    await activateAccount(officeId);
    await dynamicIpSettingsItem.setValue({
      ...dynamicIpSettingsItem.fallback,
      enabled: true,
      intervalMinutes: 60,
      label: 'Office link',
      lookupUrls: ['https://lookup.example/'],
    });
    await activateAccount(homeId);
    const homeService = createFakeClient('A');
    const officeService = createFakeClient('B');
    const clients: Record<string, FakeClient> = { [homeId]: homeService, [officeId]: officeService };
    const getAccounts = async () =>
      (await readConfiguredAccounts()).map((account) => ({
        ...account,
        client: clients[account.accountId]!,
      }));
    let clock = 5_000_000;
    const deps = {
      getAccount: async () => (await getAccounts()).find((account) => account.active)!,
      getAccounts,
      fetch: (async () => new Response('198.51.100.1')) as unknown as typeof fetch,
      alarms: fakeBrowser.alarms,
      now: () => clock,
    };
    return { homeId, officeId, homeService, officeService, deps, advance: (ms: number) => (clock += ms) };
  }

  it('each enabled account has its own alarm at its own interval; a removed or disabled one has none', async () => {
    const { homeId, officeId } = await twoRegisteringAccounts();
    await fakeBrowser.alarms.create('dynamic-ip', { periodInMinutes: 15 });
    await syncRegistrationAlarms(fakeBrowser.alarms, (await readAccounts()).accounts);
    expect((await fakeBrowser.alarms.get(registrationAlarmOf(homeId)))?.periodInMinutes).toBe(15);
    expect((await fakeBrowser.alarms.get(registrationAlarmOf(officeId)))?.periodInMinutes).toBe(60);
    // The single alarm of the version before several accounts is gone.
    expect(await fakeBrowser.alarms.get('dynamic-ip')).toBeUndefined();

    const accounts = (await readAccounts()).accounts.filter((account) => account.id !== officeId);
    await syncRegistrationAlarms(fakeBrowser.alarms, accounts);
    expect((await fakeBrowser.alarms.getAll()).map((alarm) => alarm.name)).toEqual([
      registrationAlarmOf(homeId),
    ]);
  });

  it('registers each account with its own client and settings; a failure of one stops nothing of the other', async () => {
    const { homeId, officeId, homeService, officeService, deps } = await twoRegisteringAccounts();
    officeService.failNext('addNetwork', offline());
    const officeOutcome = await registerOnce(deps, 'alarm', officeId);
    const homeOutcome = await registerOnce(deps, 'alarm', homeId);
    expect(officeOutcome).toMatchObject({ ok: false, reason: 'network', consecutiveFailures: 1 });
    expect(homeOutcome).toMatchObject({ ok: true, ip: '198.51.100.1' });
    expect(homeService.state.networks).toEqual([
      { ip: '198.51.100.1', profile: 'default', label: 'Dynamic IP (this browser)' },
    ]);
    expect(officeService.state.networks).toEqual([]);
    // Each outcome is kept with its account: the active one's in the item pages read.
    expect(await registrationOutcomeItem.getValue()).toEqual(homeOutcome);
    const office = (await readAccounts()).accounts.find((account) => account.id === officeId);
    expect(office?.registrationOutcome).toEqual(officeOutcome);
    expect(await fakeBrowser.alarms.get(registrationRetryAlarmOf(officeId))).toBeDefined();
    expect(await fakeBrowser.alarms.get(registrationRetryAlarmOf(homeId))).toBeUndefined();

    // Office again, now working: it registers with its own label, and home's address stays.
    await registerOnce(deps, 'retry', officeId);
    expect(officeService.state.networks).toEqual([{ ip: '198.51.100.1', label: 'Office link' }]);
    expect(homeService.state.networks).toHaveLength(1);
  });

  it('each account has its own registration lease', async () => {
    const { homeId, officeId, deps } = await twoRegisteringAccounts();
    const held = await tryAcquireLease(registrationLeaseOf(officeId), { ttlMs: 90_000 });
    expect(await registerOnce(deps, 'alarm', officeId)).toBeNull();
    expect(await registerOnce(deps, 'alarm', homeId)).toMatchObject({ ok: true });
    await held?.release();
  });
});

describe('removing an account', () => {
  it('forgets its key, settings, queued changes, caches, temporary allows, alarms and leases, and nothing of the other', async () => {
    await apiKeyItem.setValue('key-of-home');
    await connectionItem.setValue({ baseUrl: 'https://home.example', form: 'A' });
    const api = createAccounts({
      confirm: async () => true,
      permissions: { request: async () => true, remove: async () => true },
      removeInWorker: async () => ({ removed: true, discarded: 0 }),
    });
    const officeId = await api.add({
      name: 'Office',
      key: 'key-of-office',
      baseUrl: 'https://office.example',
      form: 'B',
    });
    const [homeAccount, officeAccount] = await readConfiguredAccounts();
    const homeIdentity = homeAccount!.identity.id;
    const officeIdentity = officeAccount!.identity.id;
    await enqueueChange(whitelist('home.example', 'default'), homeIdentity);
    await enqueueChange(whitelist('office.example'), officeIdentity);
    await enqueueChange(whitelist('office2.example'), officeIdentity);
    await cachedListsItem('A:default').setValue({
      account: homeIdentity,
      fetchedAt: 1,
      whitelist: '',
      blocklist: '',
    });
    await cachedListsItem('B:account').setValue({
      account: officeIdentity,
      fetchedAt: 1,
      whitelist: '',
      blocklist: '',
    });
    await cachedListsIndexItem.setValue({
      'A:default': { fetchedAt: 1, size: 10 },
      'B:account': { fetchedAt: 1, size: 10 },
    });
    await cachedBlockedTodayItem.setValue({
      account: officeIdentity,
      date: '2026-11-24',
      fetchedAt: 1,
      blocked: {},
    });
    const allow = { domain: 'x.example', createdAt: 1, expiresAt: 2, before: 'none' as const };
    await temporaryAllowsItem.setValue([
      { ...allow, account: homeIdentity, profile: 'default' },
      { ...allow, account: officeIdentity },
    ]);
    await fakeBrowser.alarms.create(outboxAlarmOf(officeIdentity), { when: Date.now() + 60_000 });
    await fakeBrowser.alarms.create(outboxAlarmOf(homeIdentity), { when: Date.now() + 60_000 });
    await fakeBrowser.alarms.create(registrationAlarmOf(officeId), { periodInMinutes: 15 });
    await tryAcquireLease(outboxLeaseOf(officeIdentity), { ttlMs: 60_000, instance: 'gone' });
    const snapshotOf = (domain: string) => ({
      takenAt: 1,
      reason: 'manual' as const,
      sections: { 'whitelist\taccount': [domain] },
    });
    await history.add(homeIdentity, snapshotOf('home-history.example'), 90);
    await history.add(officeIdentity, snapshotOf('office-history.example'), 90);
    const madeHere = (entry: string) => [
      {
        at: Date.now(),
        kind: 'whitelist' as const,
        scope: 'account',
        entry,
        op: 'add' as const,
        surface: 'options',
      },
    ];
    await journal.record(homeIdentity, madeHere('home-history.example'));
    await journal.record(officeIdentity, madeHere('office-history.example'));

    const outcome = await forgetAccount(officeId, {
      alarms: fakeBrowser.alarms,
      alarmsOf: (id, identity) => [
        registrationAlarmOf(id),
        registrationRetryAlarmOf(id),
        outboxAlarmOf(identity),
      ],
      leasesOf: (id, identity) => [registrationLeaseOf(id), outboxLeaseOf(identity)],
    });

    expect(outcome).toEqual({ removed: true, discarded: 2 });
    expect((await readAccounts()).accounts.map((account) => account.key)).toEqual(['key-of-home']);
    const local = await fakeBrowser.storage.local.get(null);
    expect(JSON.stringify(local)).not.toContain('key-of-office');
    expect(JSON.stringify(local)).not.toContain('office.example"');
    expect(await outboxItem.getValue()).toMatchObject([{ account: homeIdentity }]);
    expect(await cachedListsItem('B:account').getValue()).toBeNull();
    expect(await cachedListsItem('A:default').getValue()).not.toBeNull();
    expect(Object.keys(await cachedListsIndexItem.getValue())).toEqual(['A:default']);
    expect(await cachedBlockedTodayItem.getValue()).toBeNull();
    expect(await temporaryAllowsItem.getValue()).toMatchObject([{ account: homeIdentity }]);
    expect((await fakeBrowser.alarms.getAll()).map((alarm) => alarm.name)).toEqual([
      outboxAlarmOf(homeIdentity),
    ]);
    expect(Object.keys(await leasesItem.getValue())).toEqual([]);
    // Its history goes with it (lib/history); the other account's stays.
    expect(await history.list(officeIdentity)).toEqual([]);
    expect(Object.keys(local).filter((key) => key.includes(officeIdentity))).toEqual([]);
    expect(await history.list(homeIdentity)).toHaveLength(1);
    expect(await journal.read(homeIdentity)).toHaveLength(1);
  });

  it('removing the active account hands over to the other one', async () => {
    await apiKeyItem.setValue('key-of-home');
    await connectionItem.setValue({ baseUrl: 'https://home.example', form: 'A' });
    const homeId = (await readAccounts()).activeId;
    const api = createAccounts({
      confirm: async () => true,
      permissions: { request: async () => true, remove: async () => true },
      removeInWorker: async () => ({ removed: true, discarded: 0 }),
    });
    const officeId = await api.add({
      name: 'Office',
      key: 'key-of-office',
      baseUrl: 'https://office.example',
      form: 'B',
    });
    await forgetAccount(homeId, { alarms: fakeBrowser.alarms, alarmsOf: () => [], leasesOf: () => [] });
    expect((await readAccounts()).activeId).toBe(officeId);
    expect(await apiKeyItem.getValue()).toBe('key-of-office');
    expect(JSON.stringify(await fakeBrowser.storage.local.get(null))).not.toContain('key-of-home');
  });
});
