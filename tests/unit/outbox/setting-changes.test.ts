/**
 * Setting changes in the outbox (docs/schedules.md, "Sending"): a schedule's category or default
 * block is queued, sent with the account's client, kept and retried while the service fails,
 * recorded in the settled log with its source; a newer state of the same setting replaces an
 * older one still queued; and an outbox stored before setting changes existed reads as it was.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { ApiError } from '@/lib/api/errors';
import type { SettingChange } from '@/lib/messaging/protocol';
import { deliverPending, dropQueuedSettingChanges, enqueueChange, type OutboxDeps } from '@/lib/outbox';
import { outboxItem, settledChangesItem } from '@/lib/settings/storage';
import { createFakeClient, type FakeClient, offline, refused } from '../../fakes/fake-client';
import { currentAccountOf, testAccount } from '../account-ids';

const ACCOUNT = testAccount('A').id;

beforeEach(() => fakeBrowser.reset());

const blockGaming = (blocked = true): SettingChange => ({
  op: 'set-category',
  category: 'category_gaming',
  blocked,
  profile: 'kids',
  source: 'schedule',
});
const defaultBlock = (enabled: boolean): SettingChange => ({
  op: 'set-default-block',
  enabled,
  profile: 'kids',
  source: 'schedule',
});

function setUp(service: FakeClient) {
  let clock = 1_000_000;
  const deps: OutboxDeps = {
    getAccount: currentAccountOf(service),
    alarms: fakeBrowser.alarms,
    now: () => clock,
  };
  return { deps, advance: (ms: number) => (clock += ms), now: () => clock };
}

const gamingBlocked = (service: FakeClient) => service.state.blocked.kids?.has('category_gaming') ?? false;

describe('a setting change in the outbox', () => {
  it('is sent with the client and recorded in the settled log with its source', async () => {
    const service = createFakeClient('A', { profiles: ['default', 'kids'] });
    const { deps, now } = setUp(service);
    await enqueueChange(blockGaming(), ACCOUNT, now);
    await deliverPending(deps, { force: false });
    expect(gamingBlocked(service)).toBe(true);
    expect(service.calls).toEqual(['category/block category_gaming kids']);
    expect(await outboxItem.getValue()).toEqual([]);
    expect(await settledChangesItem.getValue()).toEqual([
      expect.objectContaining({
        change: blockGaming(),
        account: ACCOUNT,
        state: 'delivered',
        message: expect.stringMatching(/^Done: block the category Gaming for profile kids\./),
      }),
    ]);
  });

  it('sets default block with the client', async () => {
    const service = createFakeClient('A', { profiles: ['default', 'kids'] });
    const { deps, now } = setUp(service);
    await enqueueChange(defaultBlock(true), ACCOUNT, now);
    await deliverPending(deps, { force: false });
    expect(service.state.defaultBlock.kids).toBe(true);
  });

  it('a failing service keeps it queued with the backoff; a later delivery sends it', async () => {
    const service = createFakeClient('A', { profiles: ['default', 'kids'] });
    const { deps, advance, now } = setUp(service);
    service.failWith(offline());
    await enqueueChange(blockGaming(), ACCOUNT, now);
    await deliverPending(deps, { force: false });
    expect(gamingBlocked(service)).toBe(false);
    expect(await outboxItem.getValue()).toEqual([
      expect.objectContaining({
        change: blockGaming(),
        attempts: 1,
        nextAttemptAt: now() + 30_000,
        lastError: offline().message,
      }),
    ]);
    expect(await settledChangesItem.getValue()).toEqual([]);
    service.failWith(null);
    // Not before its backoff.
    await deliverPending(deps, { force: false });
    expect(gamingBlocked(service)).toBe(false);
    advance(30_000);
    await deliverPending(deps, { force: false });
    expect(gamingBlocked(service)).toBe(true);
    expect(await outboxItem.getValue()).toEqual([]);
  });

  it('a refusal with a reason is final, and recorded as failed', async () => {
    const service = createFakeClient('A', { profiles: ['default', 'kids'] });
    const { deps, now } = setUp(service);
    service.failNext('setCategoryBlocked', refused('no such category'));
    await enqueueChange(blockGaming(), ACCOUNT, now);
    await deliverPending(deps, { force: false });
    expect(await outboxItem.getValue()).toEqual([]);
    expect((await settledChangesItem.getValue())[0]).toMatchObject({ state: 'failed' });
  });

  it('waits for the Retry-After the service asked for', async () => {
    const service = createFakeClient('A', { profiles: ['default', 'kids'] });
    const { deps, advance, now } = setUp(service);
    service.failNext(
      'setDefaultBlock',
      new ApiError('server', 'Could not do it: the service is busy (HTTP 429).', {
        httpStatus: 429,
        retryAfterMs: 600_000,
      }),
    );
    await enqueueChange(defaultBlock(true), ACCOUNT, now);
    await deliverPending(deps, { force: true });
    advance(60_000);
    await deliverPending(deps, { force: true });
    expect(service.state.defaultBlock.kids).toBeUndefined();
    advance(540_000);
    await deliverPending(deps, { force: true });
    expect(service.state.defaultBlock.kids).toBe(true);
  });
});

describe('queueing a setting change', () => {
  it('the same state already queued is not queued twice', async () => {
    await enqueueChange(blockGaming(), ACCOUNT);
    await enqueueChange(blockGaming(), ACCOUNT);
    expect(await outboxItem.getValue()).toHaveLength(1);
  });

  it('a newer state replaces an older one still queued: a flapping schedule never sends a stale value', async () => {
    const service = createFakeClient('A', { profiles: ['default', 'kids'] });
    const { deps, now } = setUp(service);
    service.failWith(offline());
    await enqueueChange(defaultBlock(true), ACCOUNT, now);
    await deliverPending(deps, { force: true });
    await enqueueChange(defaultBlock(false), ACCOUNT, now);
    await enqueueChange(blockGaming(), ACCOUNT, now);
    expect((await outboxItem.getValue()).map((entry) => entry.change)).toEqual([
      defaultBlock(false),
      blockGaming(),
    ]);
    service.failWith(null);
    service.calls.length = 0;
    await deliverPending(deps, { force: true });
    expect(service.calls).toEqual(['default-block/disable kids', 'category/block category_gaming kids']);
  });

  it('leaves the same setting of another profile or account alone', async () => {
    await enqueueChange(blockGaming(true), ACCOUNT);
    await enqueueChange({ ...blockGaming(false), profile: 'default' }, ACCOUNT);
    await enqueueChange(blockGaming(false), testAccount('A', 'fedcba9876543210').id);
    expect(await outboxItem.getValue()).toHaveLength(3);
  });
});

describe('a setting changed on the options page', () => {
  it("drops the schedule's queued change of it, in that account only", async () => {
    const other = testAccount('A', 'fedcba9876543210').id;
    await enqueueChange(defaultBlock(true), ACCOUNT);
    await enqueueChange(defaultBlock(true), other);
    await enqueueChange(blockGaming(), ACCOUNT);
    expect(await dropQueuedSettingChanges(ACCOUNT, { ...defaultBlock(false), source: 'options' })).toBe(1);
    expect((await outboxItem.getValue()).map((entry) => [entry.account, entry.change.op])).toEqual([
      [other, 'set-default-block'],
      [ACCOUNT, 'set-category'],
    ]);
  });
});

describe('an outbox stored before setting changes', () => {
  it('reads as it was, and takes a setting change beside its list changes', async () => {
    const fixture = JSON.parse(
      readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'storage', 'outbox', 'v2.json'), 'utf8'),
    ) as { stored: unknown[]; expected: unknown[]; version: number };
    await fakeBrowser.storage.local.set({ outbox: fixture.stored, outbox$: { v: fixture.version } });
    expect(await outboxItem.getValue()).toEqual(fixture.expected);
    await enqueueChange(blockGaming(), ACCOUNT);
    const stored = await outboxItem.getValue();
    expect(stored.slice(0, -1)).toEqual(fixture.expected);
    expect(stored.at(-1)?.change).toEqual(blockGaming());
  });
});
