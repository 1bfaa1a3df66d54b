/**
 * The outbox and a clock that jumps (set by hand, corrected by the network, a virtual machine
 * resumed): a wait the service asked for lasts its own length whatever the clock did, and a change
 * is given up only after a week of waiting the outbox counted itself.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { ApiError } from '@/lib/api/errors';
import type { ListChange } from '@/lib/messaging/protocol';
import {
  deliverPending,
  enqueueChange,
  MAX_AGE_MS,
  type OutboxDeps,
  outboxAlarmOf,
  submitChange,
} from '@/lib/outbox';
import { outboxItem, type SettledChange, settledChangesItem } from '@/lib/settings/storage';
import { createFakeClient, offline } from '../../fakes/fake-client';
import { currentAccountOf, testAccount } from '../account-ids';

const ACCOUNT = testAccount('A').id;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

beforeEach(() => fakeBrowser.reset());

const change = (domain: string): ListChange => ({
  op: 'add',
  list: 'whitelist',
  domain,
  profile: 'default',
  source: 'popup',
});

/** What the transport makes of a 429 with `Retry-After: <seconds>`. */
const busy = (seconds: number) =>
  new ApiError('server', 'Could not do it: the service is busy (HTTP 429).', {
    httpStatus: 429,
    reason: 'Too many requests',
    retryAfterMs: seconds * 1000,
  });

function setUp() {
  const service = createFakeClient('A');
  let clock = 1_800_000_000_000;
  const reported: SettledChange[] = [];
  const deps: OutboxDeps = {
    getAccount: currentAccountOf(service),
    alarms: fakeBrowser.alarms,
    now: () => clock,
    onSettled: (settled) => reported.push(settled),
  };
  const clockTo = (ms: number) => {
    clock = ms;
  };
  return { service, deps, reported, now: () => clock, clockTo, advance: (ms: number) => clockTo(clock + ms) };
}

const whitelisted = (service: ReturnType<typeof createFakeClient>, domain: string) =>
  service.state.lists.whitelist.default?.has(domain) ?? false;
const alarmTime = async () => (await fakeBrowser.alarms.get(outboxAlarmOf(ACCOUNT)))?.scheduledTime;

describe('the clock set back two days after a one-minute Retry-After', () => {
  it('the change goes a minute later, when the alarm rings', async () => {
    const { service, deps, now, clockTo, advance } = setUp();
    service.failNext('deleteDomain', busy(60));
    expect((await submitChange(change('example.com'), deps)).state).toBe('pending');

    clockTo(now() - 2 * DAY);
    // Whatever runs the outbox meanwhile (a storage change, the worker starting) sends nothing yet,
    // and sets the alarm within the minute asked for.
    await deliverPending(deps, { force: false });
    expect(whitelisted(service, 'example.com')).toBe(false);
    expect(await alarmTime()).toBeLessThanOrEqual(now() + MINUTE);

    advance(MINUTE);
    await deliverPending(deps, { force: false });
    expect(whitelisted(service, 'example.com')).toBe(true);
    expect(await outboxItem.getValue()).toEqual([]);
  });
});

describe('the clock set forward eight days', () => {
  it('a change queued a minute before is sent, not given up', async () => {
    const { service, deps, reported, advance } = setUp();
    service.failNext('deleteDomain', offline());
    expect((await submitChange(change('example.com'), deps)).state).toBe('pending');
    advance(MINUTE);

    advance(8 * DAY);
    await deliverPending(deps, { force: false });

    expect(reported).toEqual([expect.objectContaining({ state: 'delivered' })]);
    expect(whitelisted(service, 'example.com')).toBe(true);
  });

  it('a change not yet tried is not given up either', async () => {
    const { service, deps, advance } = setUp();
    await enqueueChange(change('example.com'), ACCOUNT, deps.now);
    advance(8 * DAY);
    await deliverPending(deps, { force: false });
    expect(whitelisted(service, 'example.com')).toBe(true);
  });

  it('a change that really waited a week, tried all along, is still given up', async () => {
    const { service, deps, reported, advance, now } = setUp();
    service.failNext('deleteDomain', offline(), 1_000);
    await submitChange(change('example.com'), deps);
    const queuedAt = now();
    // The alarm rings as the backoff asks (at most every 30 minutes); the browser runs all week.
    while (reported.length === 0 && now() - queuedAt < MAX_AGE_MS + DAY) {
      advance(30 * MINUTE);
      await deliverPending(deps, { force: false });
    }
    expect(now() - queuedAt).toBeGreaterThan(MAX_AGE_MS);
    expect(now() - queuedAt).toBeLessThanOrEqual(MAX_AGE_MS + HOUR);
    expect(reported).toEqual([
      expect.objectContaining({ state: 'failed', message: expect.stringMatching(/gave up|7 days/i) }),
    ]);
    expect(await settledChangesItem.getValue()).toHaveLength(1);
  });
});
