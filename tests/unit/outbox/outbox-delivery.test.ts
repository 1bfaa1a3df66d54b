/**
 * The outbox under a failing or slow service and a full storage: 5xx/429 answers keep the change
 * (Retry-After honoured), caches give way to queued changes, an options-page edit is not undone
 * by an older queued change, and a click is answered within the stated bound whatever is queued.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { createApiClient } from '@/lib/api/client';
import { ApiError } from '@/lib/api/errors';
import type { DnsFilterApi } from '@/lib/api/types';
import { cachedListsItem } from '@/lib/cache/cached-lists';
import { storeListsWithinBudget } from '@/lib/cache/storage-room';
import { createViewCache } from '@/lib/cache/view-cache';
import type { ChangeOutcome, ListChange } from '@/lib/messaging/protocol';
import { carriesListChange } from '@/lib/messaging/queued-change';
import {
  deliverPending,
  deliverPendingWithin,
  dropQueuedChangesUndoing,
  enqueueChange,
  isRetryable,
  type OutboxDeps,
  outboxAlarmOf,
  RETRY_AFTER_MAX_MS,
  SUBMIT_WAIT_MS,
  submitChange,
} from '@/lib/outbox';
import {
  cachedListsIndexItem,
  outboxItem,
  type SettledChange,
  settledChangesItem,
} from '@/lib/settings/storage';
import { createFakeClient, type FakeClient, offline } from '../../fakes/fake-client';
import { currentAccountOf, testAccount } from '../account-ids';

const ACCOUNT = testAccount('A').id;

beforeEach(() => fakeBrowser.reset());
afterEach(() => vi.useRealTimers());

const change = (domain: string, list: ListChange['list'] = 'whitelist', op: ListChange['op'] = 'add') =>
  ({ op, list, domain, profile: 'default', source: 'popup' }) satisfies ListChange;

/** What the transport makes of a 500 whose body is a JSON failure. */
const serverFailure = () =>
  new ApiError('server', 'Could not do it: the service failed (HTTP 500): Internal error.', {
    httpStatus: 500,
    reason: 'Internal error',
  });
/** What the transport makes of a 429 with `Retry-After: <seconds>`. */
const busy = (seconds: number) =>
  new ApiError('server', 'Could not do it: the service is busy (HTTP 429).', {
    httpStatus: 429,
    reason: 'Too many requests',
    retryAfterMs: seconds * 1000,
  });

function setUp(service: DnsFilterApi | null, start = 1_000_000) {
  let clock = start;
  const reported: { settled: SettledChange; afterRetry: boolean }[] = [];
  const deps: OutboxDeps = {
    getAccount: currentAccountOf(service),
    alarms: fakeBrowser.alarms,
    now: () => clock,
    onSettled: (settled, afterRetry) => reported.push({ settled, afterRetry }),
  };
  return { deps, reported, advance: (ms: number) => (clock += ms), now: () => clock };
}

const alarmTime = async () => (await fakeBrowser.alarms.get(outboxAlarmOf(ACCOUNT)))?.scheduledTime;

describe('a 5xx or 429 answer keeps the change', () => {
  it("kind 'server' is transient", () => {
    expect(isRetryable(serverFailure())).toBe(true);
    expect(isRetryable(busy(60))).toBe(true);
  });

  it('a 500 with a failure body: pending, kept, retried with backoff and delivered', async () => {
    const service = createFakeClient('A');
    service.failNext('deleteDomain', serverFailure());
    const { deps, advance, now, reported } = setUp(service);
    const outcome = await submitChange(change('example.com'), deps);
    expect(outcome).toMatchObject({ state: 'pending', message: expect.stringMatching(/Internal error/) });
    expect(await outboxItem.getValue()).toEqual([
      expect.objectContaining({ attempts: 1, nextAttemptAt: now() + 30_000 }),
    ]);
    expect(await alarmTime()).toBe(now() + 30_000);
    expect(await settledChangesItem.getValue()).toEqual([]);

    advance(30_000);
    await deliverPending(deps, { force: false });
    expect(await outboxItem.getValue()).toEqual([]);
    expect(service.state.lists.whitelist.default?.has('example.com')).toBe(true);
    expect(reported).toEqual([
      { settled: expect.objectContaining({ state: 'delivered' }), afterRetry: true },
    ]);
  });

  it('a 429 with Retry-After: nothing is sent before the time asked, not even on a click', async () => {
    const service = createFakeClient('A');
    service.failNext('deleteDomain', busy(600));
    const { deps, advance, now } = setUp(service);
    const start = now();
    expect((await submitChange(change('example.com'), deps)).state).toBe('pending');
    expect(await outboxItem.getValue()).toEqual([
      expect.objectContaining({ attempts: 1, nextAttemptAt: start + 600_000, notBefore: start + 600_000 }),
    ]);
    expect(await alarmTime()).toBe(start + 600_000);
    const callsAfterRefusal = service.calls.length;

    // "Retry now", and a click on another site, five minutes later: the service asked for ten.
    advance(300_000);
    await deliverPending(deps, { force: true });
    const other = await submitChange(change('other.example', 'blocklist'), deps);
    expect(other).toMatchObject({
      state: 'pending',
      message: expect.stringMatching(/Waiting to add other\.example.*busy \(HTTP 429\)/),
    });
    expect(service.calls).toHaveLength(callsAfterRefusal);
    expect(await outboxItem.getValue()).toHaveLength(2);

    advance(300_000);
    await deliverPending(deps, { force: false });
    expect(await outboxItem.getValue()).toEqual([]);
    expect(service.state.lists.whitelist.default?.has('example.com')).toBe(true);
    expect(service.state.lists.blocklist.default?.has('other.example')).toBe(true);
  });

  it('a Retry-After longer than the maximum is bounded by it', async () => {
    const service = createFakeClient('A');
    service.failNext('deleteDomain', busy(24 * 60 * 60));
    const { deps, now } = setUp(service);
    await submitChange(change('example.com'), deps);
    expect((await outboxItem.getValue())[0]).toMatchObject({
      nextAttemptAt: now() + RETRY_AFTER_MAX_MS,
      notBefore: now() + RETRY_AFTER_MAX_MS,
    });
  });

  it('a Retry-After shorter than the backoff waits for the backoff', async () => {
    const service = createFakeClient('A');
    service.failNext('deleteDomain', busy(1));
    const { deps, now } = setUp(service);
    await submitChange(change('example.com'), deps);
    expect((await outboxItem.getValue())[0]).toMatchObject({ nextAttemptAt: now() + 30_000 });
  });

  it('the alarm is created only when missing or due at another time', async () => {
    const service = createFakeClient('A');
    service.failNext('deleteDomain', busy(600));
    const { deps, advance } = setUp(service);
    await submitChange(change('example.com'), deps);
    const create = vi.spyOn(fakeBrowser.alarms, 'create');
    // Worker restarts and storage changes run the outbox again and again meanwhile.
    advance(1_000);
    await deliverPending(deps, { force: true });
    advance(1_000);
    await deliverPending(deps, { force: false });
    expect(create).not.toHaveBeenCalled();
    await fakeBrowser.alarms.clear(outboxAlarmOf(ACCOUNT));
    await deliverPending(deps, { force: false });
    expect(create).toHaveBeenCalledTimes(1);
  });
});

describe('through the real client: what the service answers', () => {
  /** Answers every call with `status` and a JSON failure body, until `recover` is called. */
  function failingService(status: number, headers: Record<string, string>) {
    let failing = true;
    const fetch = vi.fn(async (input: RequestInfo | URL) => {
      const action = new URL(String(input)).searchParams.get('action');
      if (failing)
        return new Response(JSON.stringify({ status: 'error', message: 'Internal error' }), {
          status,
          headers: { 'content-type': 'application/json', ...headers },
        });
      if (action?.endsWith('/delete')) return Response.json({ status: 'error', message: 'Domain not found' });
      return Response.json({ status: 'success' });
    });
    const client = createApiClient({ baseUrl: 'https://dns.example', form: 'A', key: 'k-123', fetch });
    return { client, fetch, recover: () => (failing = false) };
  }

  it.each([
    { name: '500 with a failure body', status: 500, headers: {} as Record<string, string>, waitMs: 30_000 },
    { name: '503 with a failure body', status: 503, headers: {}, waitMs: 30_000 },
    { name: '429 with Retry-After: 120', status: 429, headers: { 'retry-after': '120' }, waitMs: 120_000 },
  ])(
    '$name: the change stays queued and goes through after the wait',
    async ({ status, headers, waitMs }) => {
      const { client, recover } = failingService(status, headers);
      const { deps, advance, now } = setUp(client);
      const outcome = await submitChange(change('example.com'), deps);
      expect(outcome).toMatchObject({ state: 'pending', message: expect.stringMatching(/Internal error/) });
      expect(await outboxItem.getValue()).toEqual([
        expect.objectContaining({ nextAttemptAt: now() + waitMs }),
      ]);
      expect(await alarmTime()).toBe(now() + waitMs);

      recover();
      advance(waitMs);
      await deliverPending(deps, { force: false });
      expect(await outboxItem.getValue()).toEqual([]);
      expect((await settledChangesItem.getValue())[0]).toMatchObject({ state: 'delivered' });
    },
  );
});

/** What `limitStorage` counts: each key and its value's JSON. */
const storedSize = (items: Record<string, unknown>) =>
  Object.entries(items).reduce((sum, [key, value]) => sum + key.length + JSON.stringify(value).length, 0);

/** A storage.local that refuses writes past `limit` characters, like Chrome's 10 MB quota. */
function limitStorage(limit: number) {
  const area = fakeBrowser.storage.local;
  const write = area.set.bind(area);
  const read = area.get.bind(area);
  return vi.spyOn(area, 'set').mockImplementation(async (items: Record<string, unknown>) => {
    const size = storedSize({ ...(await read(null)), ...items });
    if (size > limit) throw new Error('QUOTA_BYTES quota exceeded');
    await write(items);
  });
}

const bigLists = (count: number, tag: string) => ({
  whitelist: Array.from({ length: count }, (_, i) => `w${i}-${tag}.example`),
  blocklist: Array.from({ length: count }, (_, i) => `b${i}-${tag}.example`),
});

describe('storage running out', () => {
  it('cached lists give way: a change is queued even when the caches filled the storage', async () => {
    const cache = createViewCache({ now: () => 1_000 });
    await cache.saveLists('A:default', ACCOUNT, bigLists(2_000, 'default'));
    await cache.saveLists('A:kids', ACCOUNT, bigLists(2_000, 'kids'));
    limitStorage(storedSize(await fakeBrowser.storage.local.get(null)) + 100);
    const service = createFakeClient('A');
    service.failNext('deleteDomain', offline());
    const { deps } = setUp(service);

    const outcome = await submitChange(change('example.com'), deps);
    expect(outcome.state).toBe('pending');
    expect(await outboxItem.getValue()).toEqual([
      expect.objectContaining({ change: expect.objectContaining({ domain: 'example.com' }) }),
    ]);
    expect(await cachedListsItem('A:default').getValue()).toBeNull();
    expect(await cachedListsItem('A:kids').getValue()).toBeNull();
  });

  it('a change that cannot be stored at all is refused with a message, and nothing is sent', async () => {
    limitStorage(0);
    const service = createFakeClient('A');
    const { deps } = setUp(service);
    const outcome = await submitChange(change('example.com'), deps);
    expect(outcome).toEqual({
      state: 'failed',
      message: expect.stringMatching(
        /^Could not add example\.com to the whitelist.*storage for this extension is full.*Nothing was sent/,
      ),
    });
    expect(service.calls).toEqual([]);
    expect(await outboxItem.getValue()).toEqual([]);
  });

  it('a delivered change the cached view cannot take: the view goes (fetched again), no error', async () => {
    const cache = createViewCache({ now: () => 1_000 });
    await cache.saveLists('A:default', ACCOUNT, { whitelist: ['keep.org'], blocklist: [] });
    limitStorage(0);
    await expect(
      cache.applyChanges('A:default', ACCOUNT, [{ op: 'add', list: 'whitelist', domain: 'new.org' }]),
    ).resolves.toBeUndefined();
    expect(await cache.readLists('A:default', ACCOUNT)).toBeNull();
  });

  it('cached lists are kept within a budget: the scopes fetched least recently go first', async () => {
    const view = (fetchedAt: number, size: number) => ({
      account: ACCOUNT,
      fetchedAt,
      whitelist: 'x'.repeat(size),
      blocklist: '',
    });
    expect(await storeListsWithinBudget('A:old', view(1, 400), 1_200)).toBe(true);
    expect(await storeListsWithinBudget('A:recent', view(2, 400), 1_200)).toBe(true);
    expect(await storeListsWithinBudget('A:new', view(3, 400), 1_200)).toBe(true);
    expect(await cachedListsItem('A:old').getValue()).toBeNull();
    expect(await cachedListsItem('A:recent').getValue()).not.toBeNull();
    expect(await cachedListsItem('A:new').getValue()).not.toBeNull();
    expect(Object.keys(await cachedListsIndexItem.getValue()).sort()).toEqual(['A:new', 'A:recent']);

    // One view larger than the whole budget is not kept, and pushes nothing else out.
    expect(await storeListsWithinBudget('A:huge', view(4, 2_000), 1_200)).toBe(false);
    expect(await cachedListsItem('A:huge').getValue()).toBeNull();
    expect(await cachedListsItem('A:new').getValue()).not.toBeNull();
  });
});

describe('an options-page edit is not undone by an older queued change', () => {
  it('drops the queued changes that would set the same list the other way, and says why', async () => {
    const { now } = setUp(null);
    await enqueueChange(change('example.com', 'blocklist'), ACCOUNT, now);
    await enqueueChange(change('agrees.example', 'whitelist'), ACCOUNT, now);
    await enqueueChange({ ...change('example.com', 'blocklist'), profile: 'kids' }, ACCOUNT, now);
    await enqueueChange(change('removed.example', 'whitelist', 'remove'), ACCOUNT, now);

    // On the options page: example.com added to the whitelist of profile default,
    // agrees.example taken off the blocklist, removed.example added to the whitelist.
    const dropped = await dropQueuedChangesUndoing(ACCOUNT, [
      { op: 'add', list: 'whitelist', domain: 'example.com', profile: 'default' },
      { op: 'remove', list: 'blocklist', domain: 'agrees.example', profile: 'default' },
      { op: 'add', list: 'whitelist', domain: 'removed.example', profile: 'default' },
    ]);

    expect(dropped.map((c) => `${c.op} ${c.list} ${c.domain} ${c.profile}`)).toEqual([
      'add blocklist example.com default',
      'remove whitelist removed.example default',
    ]);
    expect(
      (await outboxItem.getValue())
        .filter(carriesListChange)
        .map((entry) => `${entry.change.domain} ${entry.change.profile}`),
    ).toEqual(['agrees.example default', 'example.com kids']);
    expect((await settledChangesItem.getValue()).map((settled) => settled.message)).toEqual([
      expect.stringMatching(/^Not sent: remove removed\.example from the whitelist.*replaced it/),
      expect.stringMatching(/^Not sent: add example\.com to the blocklist.*replaced it/),
    ]);
  });

  it('a dropped change is never sent', async () => {
    const service = createFakeClient('A');
    service.failNext('deleteDomain', offline(), 5);
    const { deps } = setUp(service);
    await submitChange(change('example.com', 'blocklist'), deps);
    await dropQueuedChangesUndoing(ACCOUNT, [
      { op: 'remove', list: 'blocklist', domain: 'example.com', profile: 'default' },
    ]);
    await deliverPending(deps, { force: true });
    expect(service.state.lists.blocklist.default?.has('example.com') ?? false).toBe(false);
    expect(await outboxItem.getValue()).toEqual([]);
  });
});

/** Each call of the service takes `ms` (of fake time). */
function slowed(service: FakeClient, ms: number): FakeClient {
  for (const method of ['addDomain', 'deleteDomain', 'listDomains'] as const) {
    const original = service[method] as (...args: unknown[]) => Promise<unknown>;
    Object.assign(service, {
      [method]: async (...args: unknown[]) => {
        await new Promise((resolve) => setTimeout(resolve, ms));
        return original(...args);
      },
    });
  }
  return service;
}

/** Runs fake time until `answer` settles; returns its value and the time it took. */
async function timeToAnswer(answer: Promise<ChangeOutcome>, limitMs = 10 * 60_000) {
  const started = Date.now();
  let outcome: ChangeOutcome | undefined;
  void answer.then((value) => {
    outcome = value;
  });
  while (outcome === undefined && Date.now() - started < limitMs) await vi.advanceTimersByTimeAsync(100);
  return { outcome, tookMs: Date.now() - started };
}

describe('a click is answered within the bound, whatever is queued', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: 1_000_000 });
  });

  function slowDeps(service: FakeClient) {
    const reported: { settled: SettledChange; afterRetry: boolean }[] = [];
    const deps: OutboxDeps = {
      getAccount: currentAccountOf(service),
      alarms: fakeBrowser.alarms,
      now: () => Date.now(),
      onSettled: (settled, afterRetry) => reported.push({ settled, afterRetry }),
    };
    return { deps, reported };
  }

  it('with ten slow changes being sent, the clicked one is delivered and answered first', async () => {
    const service = slowed(createFakeClient('A'), 3_000);
    const { deps } = slowDeps(service);
    for (let i = 0; i < 10; i++) await enqueueChange(change(`queued${i}.example`), ACCOUNT, deps.now);
    // The alarm's delivery is on its way through the ten (about 6 s each).
    const background = deliverPending(deps, { force: false });
    await vi.advanceTimersByTimeAsync(1_000);

    const { outcome, tookMs } = await timeToAnswer(
      submitChange(change('clicked.example', 'blocklist'), deps),
    );
    expect(outcome).toMatchObject({ state: 'delivered', message: expect.stringMatching(/clicked\.example/) });
    expect(tookMs).toBeLessThanOrEqual(SUBMIT_WAIT_MS);
    expect((await outboxItem.getValue()).length).toBeGreaterThanOrEqual(8);

    // The rest goes on without the sender.
    await vi.advanceTimersByTimeAsync(120_000);
    await background;
    expect(await outboxItem.getValue()).toEqual([]);
    expect(service.state.lists.whitelist.default?.size).toBe(10);
  });

  it('"Retry now" answers what is left within the bound, and the delivery goes on', async () => {
    const service = slowed(createFakeClient('A'), 3_000);
    const { deps } = slowDeps(service);
    for (let i = 0; i < 10; i++) await enqueueChange(change(`queued${i}.example`), ACCOUNT, deps.now);
    const started = Date.now();
    let left: number | undefined;
    void deliverPendingWithin(deps).then((remaining) => {
      left = remaining.length;
    });
    while (left === undefined) await vi.advanceTimersByTimeAsync(100);
    expect(Date.now() - started).toBeLessThanOrEqual(SUBMIT_WAIT_MS);
    expect(left).toBeGreaterThan(0);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(await outboxItem.getValue()).toEqual([]);
  });

  it('a click waiting for a change that an options-page edit replaced hears why', async () => {
    const service = slowed(createFakeClient('A'), 5_000);
    const { deps } = slowDeps(service);
    await enqueueChange(change('example.com', 'whitelist', 'remove'), ACCOUNT, deps.now);
    const answer = submitChange(change('example.com', 'blocklist'), deps);
    await vi.advanceTimersByTimeAsync(1_000);
    // Meanwhile on the options page: example.com added to the whitelist, confirmed by the service.
    await dropQueuedChangesUndoing(ACCOUNT, [
      { op: 'add', list: 'whitelist', domain: 'example.com', profile: 'default' },
    ]);
    const { outcome } = await timeToAnswer(answer);
    expect(outcome).toEqual({
      state: 'failed',
      message: expect.stringMatching(/^Not sent: add example\.com to the blocklist.*replaced it/),
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(service.state.lists.blocklist.default?.has('example.com') ?? false).toBe(false);
  });

  it('behind a slow change of the same domain: "pending" within the bound, the outcome reported later', async () => {
    const service = slowed(createFakeClient('A'), 12_000);
    const { deps, reported } = slowDeps(service);
    await enqueueChange(change('example.com', 'blocklist'), ACCOUNT, deps.now);

    const { outcome, tookMs } = await timeToAnswer(submitChange(change('example.com'), deps));
    expect(outcome).toMatchObject({
      state: 'pending',
      message: expect.stringMatching(/^Waiting to add example\.com to the whitelist.*slow to answer/),
    });
    expect(tookMs).toBeLessThanOrEqual(SUBMIT_WAIT_MS + 500);

    await vi.advanceTimersByTimeAsync(120_000);
    expect(await outboxItem.getValue()).toEqual([]);
    expect(service.state.lists.whitelist.default?.has('example.com')).toBe(true);
    expect(reported.at(-1)).toEqual({
      settled: expect.objectContaining({
        state: 'delivered',
        change: expect.objectContaining({ list: 'whitelist' }),
      }),
      afterRetry: true,
    });
  });
});
