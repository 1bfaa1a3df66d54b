/**
 * A change the outbox delivered stays this browser's in History's "What changed" for as long as
 * the history keeps it (docs/history.md, "Who made it"), however many changes came after it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { readHistory, snapshotAccount } from '@/lib/history/service';
import type { ListChange } from '@/lib/messaging/protocol';
import { deliverPending, enqueueChange, type OutboxDeps, submitChange } from '@/lib/outbox';
import { settledChangesItem } from '@/lib/settings/storage';
import { createFakeClient, refused } from '../../fakes/fake-client';
import { currentAccountOf, testAccount } from '../account-ids';

const ACCOUNT = testAccount('A').id;
const T0 = Date.UTC(2026, 10, 1, 9, 0, 0);

beforeEach(() => {
  fakeBrowser.reset();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(T0);
});
afterEach(() => vi.useRealTimers());

const later = (ms = 1000) => vi.setSystemTime(Date.now() + ms);

describe('outbox changes in the history', () => {
  it("a removal made from the popup 25 changes ago still shows as this browser's, with its page", async () => {
    const service = createFakeClient('A');
    service.state.lists.blocklist.default = new Set(['news.example', 'moved.example']);
    const deps: OutboxDeps = { getAccount: currentAccountOf(service), alarms: fakeBrowser.alarms };
    await snapshotAccount(ACCOUNT, service, 'manual');

    later();
    const removal: ListChange = {
      op: 'remove',
      list: 'blocklist',
      domain: 'news.example',
      profile: 'default',
      source: 'popup',
      page: 'news.example',
    };
    expect(await submitChange(removal, deps)).toMatchObject({ state: 'delivered' });
    later();
    // Whitelisting a blocklisted domain from the menu takes it off the blocklist too.
    const move: ListChange = {
      op: 'add',
      list: 'whitelist',
      domain: 'moved.example',
      profile: 'default',
      source: 'menu',
    };
    expect(await submitChange(move, deps)).toMatchObject({ state: 'delivered' });
    for (let index = 0; index < 25; index++) {
      later();
      await submitChange(
        {
          op: 'add',
          list: 'whitelist',
          domain: `site${index}.example`,
          profile: 'default',
          source: 'shortcut',
        },
        deps,
      );
    }
    expect(
      (await settledChangesItem.getValue()).some(
        (settled) => 'domain' in settled.change && settled.change.domain === 'news.example',
      ),
    ).toBe(false);
    later();
    await snapshotAccount(ACCOUNT, service, 'manual');

    const { rows } = await readHistory(ACCOUNT, service);
    const made = (kind: string, entry: string) =>
      rows.find((row) => row.kind === kind && row.entry === entry);
    expect(made('blocklist', 'news.example')).toMatchObject({
      change: 'removed',
      madeHere: { surface: 'popup', page: 'news.example' },
    });
    expect(made('blocklist', 'moved.example')).toMatchObject({
      change: 'removed',
      madeHere: { surface: 'menu' },
    });
    expect(made('whitelist', 'site0.example')?.madeHere?.surface).toBe('shortcut');
    expect(rows.filter((row) => row.madeHere === undefined)).toEqual([]);
  });

  it('a refused change is not taken for one made here', async () => {
    const service = createFakeClient('A');
    const deps: OutboxDeps = { getAccount: currentAccountOf(service), alarms: fakeBrowser.alarms };
    service.state.lists.whitelist.default = new Set(['kept.example']);
    await snapshotAccount(ACCOUNT, service, 'manual');
    later();
    service.failNext('deleteDomain', refused('not on the list'));
    service.failNext('listDomains', refused('no'));
    await submitChange(
      { op: 'remove', list: 'whitelist', domain: 'kept.example', profile: 'default', source: 'popup' },
      deps,
    );
    // The dashboard removes it after all.
    later();
    await service.deleteDomain('whitelist', 'kept.example', 'default');
    later();
    await snapshotAccount(ACCOUNT, service, 'manual');
    const { rows } = await readHistory(ACCOUNT, service);
    expect(rows).toMatchObject([{ entry: 'kept.example', change: 'removed' }]);
    expect(rows[0]!.madeHere).toBeUndefined();
  });

  it("a schedule's category, sent through the outbox, shows as the schedule's however many changes follow", async () => {
    const service = createFakeClient('A');
    const deps: OutboxDeps = { getAccount: currentAccountOf(service), alarms: fakeBrowser.alarms };
    await snapshotAccount(ACCOUNT, service, 'manual');
    later();
    const now = () => Date.now();
    await enqueueChange(
      { op: 'set-category', category: 'gaming', blocked: true, profile: 'default', source: 'schedule' },
      ACCOUNT,
      now,
    );
    await enqueueChange(
      { op: 'set-default-block', enabled: true, profile: 'default', source: 'schedule' },
      ACCOUNT,
      now,
    );
    await deliverPending(deps, { force: false });
    for (let index = 0; index < 25; index++) {
      later();
      await submitChange(
        { op: 'add', list: 'blocklist', domain: `late${index}.example`, profile: 'default', source: 'popup' },
        deps,
      );
    }
    later();
    await snapshotAccount(ACCOUNT, service, 'manual');
    const { rows } = await readHistory(ACCOUNT, service);
    expect(rows.find((row) => row.kind === 'categories' && row.entry === 'gaming')).toMatchObject({
      change: 'added',
      madeHere: { surface: 'schedule' },
    });
  });
});
