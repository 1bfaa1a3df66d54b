import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { ApiError } from '@/lib/api/errors';
import type { ListChange } from '@/lib/messaging/protocol';
import {
  backoffDelayMs,
  changesForOtherAccounts,
  deliverPending,
  discardForAccount,
  enqueueChange,
  keepForAccount,
  MAX_AGE_MS,
  type OutboxDeps,
  outboxAlarmOf,
  outboxLeaseOf,
  submitChange,
  tryAcquireLease,
} from '@/lib/outbox';
import { OUTBOX_LIMIT, outboxItem, type SettledChange, settledChangesItem } from '@/lib/settings/storage';
import { createFakeClient, type FakeClient, offline, refused, timedOut } from '../../fakes/fake-client';
import { currentAccountOf as accountOf, testAccount } from '../account-ids';

const ACCOUNT = testAccount('A').id;

beforeEach(() => fakeBrowser.reset());

const whitelist = (domain: string, profile = 'default'): ListChange => ({
  op: 'add',
  list: 'whitelist',
  domain,
  profile,
  source: 'popup',
});

function setUp(service: FakeClient | null, start = 1_000_000) {
  let clock = start;
  const reported: { settled: SettledChange; afterRetry: boolean }[] = [];
  const deps: OutboxDeps = {
    getAccount: accountOf(service),
    alarms: fakeBrowser.alarms,
    now: () => clock,
    onSettled: (settled, afterRetry) => reported.push({ settled, afterRetry }),
  };
  return { deps, reported, advance: (ms: number) => (clock += ms), now: () => clock };
}

describe('delivering a change', () => {
  it('adding to the whitelist removes the domain from the blocklist first', async () => {
    const service = createFakeClient('A');
    service.state.lists.blocklist.default = new Set(['example.com']);
    const { deps } = setUp(service);
    const outcome = await submitChange(whitelist('example.com'), deps);
    expect(outcome).toMatchObject({ state: 'delivered' });
    expect(outcome.message).toMatch(
      /added to the whitelist of profile default and removed from the blocklist/,
    );
    expect(outcome.message).toMatch(/30 to 45 minutes/);
    expect(service.calls).toEqual([
      'blocklist/delete example.com default',
      'whitelist/add example.com default',
    ]);
    expect([...service.state.lists.blocklist.default!]).toEqual([]);
    expect(await outboxItem.getValue()).toEqual([]);
  });

  it('a "not found" refusal on the other list does not stop the add', async () => {
    const service = createFakeClient('A');
    const { deps } = setUp(service);
    const outcome = await submitChange({ ...whitelist('example.com'), list: 'blocklist' }, deps);
    expect(outcome.state).toBe('delivered');
    expect([...service.state.lists.blocklist.default!]).toEqual(['example.com']);
  });

  it('a refusal of the change itself is final and carries the service reason', async () => {
    const service = createFakeClient('A');
    service.failNext('addDomain', refused('Profile kids does not exist'));
    const { deps } = setUp(service);
    const outcome = await submitChange(whitelist('example.com', 'kids'), deps);
    expect(outcome).toEqual({ state: 'failed', message: 'Could not do it: Profile kids does not exist' });
    expect(await outboxItem.getValue()).toEqual([]);
    expect((await settledChangesItem.getValue())[0]).toMatchObject({ state: 'failed' });
    expect(await fakeBrowser.alarms.get(outboxAlarmOf(ACCOUNT))).toBeUndefined();
  });

  it('a retry of a change the service already applied counts as delivered, not refused', async () => {
    const service = createFakeClient('A');
    service.state.lists.whitelist.default = new Set(['example.com']);
    const { deps } = setUp(service);
    const outcome = await submitChange({ ...whitelist('example.com'), op: 'remove' }, deps);
    expect(outcome.state).toBe('delivered');
    // Removed now; the retry after a lost answer finds it gone, and says so without failing.
    service.loseAnswerNext('deleteDomain');
    service.state.lists.whitelist.default!.add('example.com');
    const lost = await submitChange({ ...whitelist('example.com'), op: 'remove' }, deps);
    expect(lost.state).toBe('pending');
    const retried = await deliverPending(deps, { force: true });
    expect(retried.remaining).toEqual([]);
    expect((await settledChangesItem.getValue())[0]).toMatchObject({
      state: 'delivered',
      message: 'example.com is not on the whitelist of profile default.',
    });
  });

  it('an invalid domain is refused without queueing anything', async () => {
    const { deps } = setUp(createFakeClient('A'));
    const outcome = await submitChange(whitelist('not a domain'), deps);
    expect(outcome.state).toBe('failed');
    expect(await outboxItem.getValue()).toEqual([]);
  });
});

describe('retry rules', () => {
  it.each([
    { name: 'network', error: offline(), expected: 'pending' },
    { name: 'timeout', error: timedOut(), expected: 'pending' },
    {
      name: 'unexpected answer (HTTP 502 page)',
      error: new ApiError('unexpected', 'Unexpected response (HTTP 502).'),
      expected: 'pending',
    },
    {
      name: 'bad key (fixed later in Setup)',
      error: new ApiError('bad-key', 'The API key was refused.'),
      expected: 'pending',
    },
    { name: 'service refusal', error: refused('Invalid domain'), expected: 'failed' },
    { name: 'input refused', error: new ApiError('invalid-input', 'Not a domain.'), expected: 'failed' },
  ] as const)('$name → $expected', async ({ error, expected }) => {
    const service = createFakeClient('A');
    service.failNext('addDomain', error);
    const { deps } = setUp(service);
    const outcome = await submitChange(whitelist('example.com'), deps);
    expect(outcome.state).toBe(expected);
    expect(await outboxItem.getValue()).toHaveLength(expected === 'pending' ? 1 : 0);
  });

  it('backs off 30 s, 1 min, 2 min … up to 30 min', () => {
    expect([1, 2, 3, 4, 6, 7, 30].map(backoffDelayMs)).toEqual([
      30_000, 60_000, 120_000, 240_000, 960_000, 1_800_000, 1_800_000,
    ]);
  });

  it('a pending change is kept, retried by the alarm at its time, and reported when it goes through', async () => {
    const service = createFakeClient('A');
    service.failNext('deleteDomain', offline(), 2);
    const { deps, advance, now, reported } = setUp(service);
    const first = await submitChange(whitelist('example.com'), deps);
    expect(first.state).toBe('pending');
    expect(first.message).toMatch(
      /Waiting to add example\.com to the whitelist.*could not be reached.*sent automatically/,
    );
    const [entry] = await outboxItem.getValue();
    expect(entry).toMatchObject({ attempts: 1, nextAttemptAt: now() + 30_000 });
    expect((await fakeBrowser.alarms.get(outboxAlarmOf(ACCOUNT)))?.scheduledTime).toBe(now() + 30_000);

    // The alarm before its time (e.g. the safety wake-up) does not send early.
    advance(10_000);
    await deliverPending(deps, { force: false });
    expect(service.calls).toHaveLength(1);

    advance(20_000);
    await deliverPending(deps, { force: false });
    expect((await outboxItem.getValue())[0]).toMatchObject({ attempts: 2, nextAttemptAt: now() + 60_000 });

    advance(60_000);
    const report = await deliverPending(deps, { force: false });
    expect(report.remaining).toEqual([]);
    expect(service.state.lists.whitelist.default?.has('example.com')).toBe(true);
    expect(reported).toEqual([
      { settled: expect.objectContaining({ state: 'delivered' }), afterRetry: true },
    ]);
    expect(await fakeBrowser.alarms.get(outboxAlarmOf(ACCOUNT))).toBeUndefined();
  });

  it('keeps the order: a change waits behind an earlier one that cannot be sent yet', async () => {
    const service = createFakeClient('A');
    service.failNext('addDomain', offline());
    const { deps } = setUp(service);
    await submitChange(whitelist('example.com'), deps);
    const second = await submitChange({ ...whitelist('example.com'), op: 'remove' }, deps);
    // The service is back for the second click: the first change goes first, then the second.
    expect(second.state).toBe('delivered');
    expect(service.calls.filter((call) => call.startsWith('whitelist/'))).toEqual([
      'whitelist/add example.com default',
      'whitelist/add example.com default',
      'whitelist/delete example.com default',
    ]);
    expect(service.state.lists.whitelist.default?.has('example.com')).toBe(false);
  });

  it('the same change clicked twice while waiting is queued once', async () => {
    const service = createFakeClient('A');
    service.failNext('deleteDomain', offline(), 10);
    const { deps } = setUp(service);
    await submitChange(whitelist('example.com'), deps);
    await submitChange(whitelist('example.com'), deps);
    expect(await outboxItem.getValue()).toHaveLength(1);
  });

  it('gives up after a week and reports it', async () => {
    const { deps, advance, reported } = setUp(null);
    await enqueueChange(whitelist('example.com'), ACCOUNT, deps.now);
    // Waiting all week for a key, tried as the alarm rings (a single jump of a week gives up
    // nothing: tests/unit/outbox/outbox-clock.test.ts).
    let waited = 0;
    while (reported.length === 0 && waited <= MAX_AGE_MS + 60 * 60_000) {
      advance(30 * 60_000);
      waited += 30 * 60_000;
      await deliverPending(deps, { force: false });
    }
    expect(waited).toBeGreaterThan(MAX_AGE_MS);
    expect(await outboxItem.getValue()).toEqual([]);
    expect((await settledChangesItem.getValue())[0]?.message).toMatch(/^Gave up after 7 days/);
    expect(reported).toHaveLength(1);
  });

  it('without a key the change waits, and goes once a key is there', async () => {
    const service = createFakeClient('A');
    let client: FakeClient | null = null;
    const { deps } = setUp(service);
    const outcome = await submitChange(whitelist('example.com'), {
      ...deps,
      getAccount: async () => ({ identity: testAccount('A'), client }),
    });
    expect(outcome).toMatchObject({
      state: 'pending',
      message: expect.stringMatching(/No API key is saved/),
    });
    client = service;
    await deliverPending(
      { ...deps, getAccount: async () => ({ identity: testAccount('A'), client }) },
      { force: true },
    );
    expect(await outboxItem.getValue()).toEqual([]);
  });
});

describe('one delivery at a time, across worker restarts', () => {
  it('does nothing while a delivery of this worker holds the lease', async () => {
    const service = createFakeClient('A');
    const { deps, now } = setUp(service);
    await enqueueChange(whitelist('example.com'), ACCOUNT, deps.now);
    const lease = await tryAcquireLease(outboxLeaseOf(ACCOUNT), { ttlMs: 60_000, now });
    const report = await deliverPending(deps, { force: true });
    expect(report.ran).toBe(false);
    expect(service.calls).toEqual([]);
    await lease?.release();
    expect((await deliverPending(deps, { force: true })).ran).toBe(true);
    expect(service.calls).toHaveLength(2);
  });

  it('a lease left by a stopped worker is taken over at once, and the change is delivered', async () => {
    const service = createFakeClient('A');
    const { deps, now } = setUp(service);
    await enqueueChange(whitelist('example.com'), ACCOUNT, deps.now);
    // A previous worker instance was stopped mid-delivery, holding the lease.
    await tryAcquireLease(outboxLeaseOf(ACCOUNT), { ttlMs: 60_000, now, instance: 'stopped-worker' });
    const report = await deliverPending(deps, { force: false });
    expect(report).toMatchObject({ ran: true, remaining: [] });
    expect(service.state.lists.whitelist.default?.has('example.com')).toBe(true);
  });

  it('concurrent submissions each get their own outcome and nothing is sent twice', async () => {
    const service = createFakeClient('A');
    const { deps } = setUp(service);
    const outcomes = await Promise.all([
      submitChange(whitelist('a.example'), deps),
      submitChange(whitelist('b.example'), deps),
      submitChange({ ...whitelist('c.example'), list: 'blocklist' }, deps),
    ]);
    expect(outcomes.map((outcome) => outcome.state)).toEqual(['delivered', 'delivered', 'delivered']);
    expect(service.calls.filter((call) => call.includes('/add'))).toHaveLength(3);
  });

  it('before sending, an alarm is set that wakes a restarted worker', async () => {
    const service = createFakeClient('A');
    const { deps, now } = setUp(service);
    let alarmDuringSend: number | undefined;
    const original = service.addDomain;
    service.addDomain = async (...args) => {
      alarmDuringSend = (await fakeBrowser.alarms.get(outboxAlarmOf(ACCOUNT)))?.scheduledTime;
      return original(...args);
    };
    await submitChange(whitelist('example.com'), deps);
    expect(alarmDuringSend).toBe(now() + 30_000);
  });
});

describe('a full outbox', () => {
  it('refuses a new change with a clear message and keeps every waiting one', async () => {
    const { deps, now } = setUp(null);
    const waiting = Array.from({ length: OUTBOX_LIMIT }, (_, i) => ({
      id: `w${i}`,
      change: whitelist(`site${i}.example`),
      account: ACCOUNT,
      createdAt: now(),
      attempts: 1,
      nextAttemptAt: now() + 60_000,
    }));
    await outboxItem.setValue(waiting);
    const outcome = await submitChange(whitelist('one-more.example'), deps);
    expect(outcome).toEqual({
      state: 'failed',
      message: expect.stringMatching(
        /^Could not add one-more\.example to the whitelist.*: 500 changes are already waiting to be sent, so this one was not queued\./,
      ),
    });
    expect(await outboxItem.getValue()).toEqual(waiting);
  });

  it('still absorbs a repeat of the last waiting change', async () => {
    const { now } = setUp(null);
    const last = whitelist('last.example');
    const waiting = Array.from({ length: OUTBOX_LIMIT }, (_, i) => ({
      id: `w${i}`,
      change: i === OUTBOX_LIMIT - 1 ? last : whitelist(`site${i}.example`),
      account: ACCOUNT,
      createdAt: now(),
      attempts: 0,
      nextAttemptAt: now(),
    }));
    await outboxItem.setValue(waiting);
    expect((await enqueueChange(last, ACCOUNT, now)).id).toBe(`w${OUTBOX_LIMIT - 1}`);
  });
});

describe('changes belong to the account they were made for', () => {
  const formA = testAccount('A');
  const formB = testAccount('B');
  const newKey = testAccount('A', 'fedcba9876543210');

  it('a Form A change for profile kids is not sent account-wide once Form B is chosen', async () => {
    const serviceA = createFakeClient('A');
    serviceA.failNext('deleteDomain', offline());
    const { deps } = setUp(serviceA);
    const outcome = await submitChange(whitelist('games.example', 'kids'), deps);
    expect(outcome.state).toBe('pending');

    // Setup now says Form B, same key and origin: the whole account's lists.
    const serviceB = createFakeClient('B');
    const report = await deliverPending({ ...deps, getAccount: accountOf(serviceB, formB) }, { force: true });
    expect(serviceB.calls).toEqual([]);
    expect(serviceB.state.lists.whitelist.account?.has('games.example') ?? false).toBe(false);
    expect(report.remaining).toMatchObject([{ account: formA.id, change: { profile: 'kids' } }]);
    expect(changesForOtherAccounts(report.remaining, formB.id)).toMatchObject([
      { account: { id: formA.id, form: 'A' }, undecided: true },
    ]);

    // Back to Form A: it goes to profile kids there.
    await deliverPending({ ...deps, getAccount: accountOf(serviceA, formA) }, { force: true });
    expect(serviceA.state.lists.whitelist.kids?.has('games.example')).toBe(true);
    expect(await outboxItem.getValue()).toEqual([]);
    expect((await settledChangesItem.getValue())[0]).toMatchObject({ account: formA.id, state: 'delivered' });
  });

  it('after a new key on the same origin, the old change is not sent with it', async () => {
    const oldAccount = createFakeClient('A');
    oldAccount.failNext('deleteDomain', offline());
    const { deps } = setUp(oldAccount);
    await submitChange(whitelist('example.com'), deps);

    const newAccount = createFakeClient('A');
    await deliverPending({ ...deps, getAccount: accountOf(newAccount, newKey) }, { force: true });
    expect(newAccount.calls).toEqual([]);
    expect(await outboxItem.getValue()).toMatchObject([{ account: formA.id }]);
  });

  it("another account's waiting changes hold nothing of the account configured now", async () => {
    const oldAccount = createFakeClient('A');
    oldAccount.failNext('deleteDomain', offline());
    const { deps } = setUp(oldAccount);
    await submitChange(whitelist('old.example'), deps);

    const newAccount = createFakeClient('A');
    const withNewKey = { ...deps, getAccount: accountOf(newAccount, newKey) };
    const outcome = await submitChange(whitelist('new.example'), withNewKey);
    expect(outcome.state).toBe('delivered');
    expect(newAccount.state.lists.whitelist.default).toEqual(new Set(['new.example']));
    expect(await outboxItem.getValue()).toMatchObject([
      { account: formA.id, change: { domain: 'old.example' } },
    ]);
    expect(await fakeBrowser.alarms.get(outboxAlarmOf(newKey.id))).toBeUndefined();
  });

  it('a run that began for the account before still serves the account Setup ends in', async () => {
    const service = createFakeClient('A');
    const { deps } = setUp(service);
    await enqueueChange(whitelist('example.com'), formA.id, deps.now);
    // The key was written first (another account for a moment), the connection right after.
    let reads = 0;
    const getAccount = async () => ({ identity: reads++ === 0 ? newKey : formA, client: service });
    const report = await deliverPending({ ...deps, getAccount }, { force: true });
    expect(report.remaining).toEqual([]);
    expect(service.state.lists.whitelist.default?.has('example.com')).toBe(true);
  });

  it('kept changes wait for their account past the age limit; discarding removes only the ones named', async () => {
    const { deps, advance } = setUp(null);
    const kept = await enqueueChange(whitelist('kept.example'), formA.id, deps.now);
    const other = await enqueueChange(whitelist('other.example'), formB.id, deps.now);
    const later = await enqueueChange(whitelist('later.example'), formB.id, deps.now);
    expect(await keepForAccount(formA.id, [kept.id])).toBe(1);
    expect(await discardForAccount(formB.id, [other.id, kept.id])).toBe(1);
    expect((await outboxItem.getValue()).map((entry) => entry.id)).toEqual([kept.id, later.id]);

    advance(MAX_AGE_MS + 1);
    const service = createFakeClient('A');
    await deliverPending({ ...deps, getAccount: accountOf(service, formA) }, { force: false });
    expect(service.state.lists.whitelist.default?.has('kept.example')).toBe(true);
    expect((await settledChangesItem.getValue())[0]).toMatchObject({ state: 'delivered' });
  });
});
