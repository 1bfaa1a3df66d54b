import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import {
  expireTemporaryAllows,
  forgetTemporaryAllowFor,
  placementFromOutbox,
  restoreChange,
  startTemporaryAllow,
  TEMPORARY_ALLOW_ALARM,
  type TemporaryAllowDeps,
} from '@/lib/diagnosis/temporary-allow';
import { TEMPORARY_ALLOW_CHOICES, timeLeftText } from '@/lib/diagnosis/temporary-allow-choices';
import type { CurrentAccount } from '@/lib/identity/current';
import type { ListChange } from '@/lib/messaging/protocol';
import { deliverPending, enqueueChange, type OutboxDeps, submitChange } from '@/lib/outbox';
import { connectionItem, outboxItem, type TemporaryAllow, temporaryAllowsItem } from '@/lib/settings/storage';
import { createFakeClient, type FakeClient, offline } from '../../fakes/fake-client';
import { testAccount } from '../account-ids';

const HOUR = 60 * 60_000;
const T0 = Date.UTC(2026, 4, 1, 12, 0, 0);
const IDENTITY = testAccount('A', '0123456789abcdef', 'http://127.0.0.1:8787');
const ACCOUNT = IDENTITY.id;

const entry = (patch: Partial<TemporaryAllow> = {}): TemporaryAllow => ({
  domain: 'cdn.example',
  profile: 'default',
  account: ACCOUNT,
  createdAt: T0,
  expiresAt: T0 + HOUR,
  before: 'none',
  ...patch,
});

describe('pure parts', () => {
  it.each([
    [8 * HOUR, '8 h'],
    [8 * HOUR - 60_000, '7 h 59 min'],
    [HOUR + 1, '1 h 1 min'],
    [59 * 60_000 + 1, '1 h'],
    [59 * 60_000, '59 min'],
    [60_000, '1 min'],
    [59_001, '60 s'],
    [4_200, '5 s'],
    [1, '1 s'],
    [0, 'no time'],
    [-5, 'no time'],
  ])('time left %i ms reads "%s"', (ms, text) => {
    expect(timeLeftText(ms)).toBe(text);
  });

  it('offers 1, 8 and 24 hours (and no test-only choice in a normal build)', () => {
    expect(TEMPORARY_ALLOW_CHOICES.map((choice) => [choice.label, choice.ms])).toEqual([
      ['1 hour', HOUR],
      ['8 hours', 8 * HOUR],
      ['24 hours', 24 * HOUR],
    ]);
  });

  it.each([
    ['none', { op: 'remove', list: 'whitelist' }],
    ['blocklist', { op: 'add', list: 'blocklist' }],
  ] as const)('ending an allow of a domain that was on %s', (before, expected) => {
    expect(restoreChange(entry({ before }))).toEqual({
      ...expected,
      domain: 'cdn.example',
      profile: 'default',
      source: 'temporary-allow',
    });
  });

  it.each([
    [[], null],
    [[{ op: 'add', list: 'whitelist' }], 'whitelist'],
    [
      [
        { op: 'add', list: 'whitelist' },
        { op: 'remove', list: 'whitelist' },
      ],
      'none',
    ],
    [[{ op: 'add', list: 'blocklist' }], 'blocklist'],
  ] as const)('a waiting change decides where the domain is: %j → %s', (ops, expected) => {
    const changes = ops.map((op) => ({
      account: ACCOUNT,
      change: { ...op, domain: 'CDN.example', profile: 'default', source: 'popup' } satisfies ListChange,
    }));
    const otherProfile: ListChange = {
      op: 'add',
      list: 'whitelist',
      domain: 'cdn.example',
      profile: 'kids',
      source: 'popup',
    };
    // A waiting change of another account says nothing about this account's lists.
    const otherAccount = { ...otherProfile, profile: 'default' };
    expect(
      placementFromOutbox(
        [
          ...changes,
          { account: ACCOUNT, change: otherProfile },
          { account: testAccount('A', 'fedcba9876543210').id, change: otherAccount },
        ],
        { domain: 'cdn.example', profile: 'default', account: ACCOUNT },
      ),
    ).toBe(expected);
  });
});

describe('allowing for a while, and the end of it', () => {
  let service: FakeClient;
  let clock: number;
  let notified: string[];
  let deps: TemporaryAllowDeps;
  /** The account configured now; a test may switch it. */
  let current: CurrentAccount;

  beforeEach(async () => {
    fakeBrowser.reset();
    service = createFakeClient('A');
    clock = T0;
    notified = [];
    current = { identity: IDENTITY, client: service };
    const outboxDeps: OutboxDeps = {
      getAccount: async () => current,
      alarms: fakeBrowser.alarms,
      now: () => clock,
    };
    deps = {
      getAccount: async () => current,
      submit: (change) => submitChange(change, outboxDeps),
      enqueue: (change, account) => enqueueChange(change, account, () => clock),
      deliver: () => deliverPending(outboxDeps, { force: true }),
      alarms: fakeBrowser.alarms,
      notify: async (_title, message) => {
        notified.push(message);
      },
      now: () => clock,
    };
    await connectionItem.setValue({ baseUrl: 'http://127.0.0.1:8787', form: 'A' });
  });

  const whitelisted = (profile = 'default') => [...(service.state.lists.whitelist[profile] ?? [])];
  const blocklisted = (profile = 'default') => [...(service.state.lists.blocklist[profile] ?? [])];
  const alarm = () => fakeBrowser.alarms.get(TEMPORARY_ALLOW_ALARM);

  it('whitelists now, wakes at the end, and takes it off the whitelist then', async () => {
    const answer = await startTemporaryAllow(deps, {
      domain: 'CDN.Example',
      profile: 'default',
      durationMs: 8 * HOUR,
      before: 'none',
    });
    expect(answer.state).toBe('delivered');
    expect(answer.expiresAt).toBe(T0 + 8 * HOUR);
    expect(answer.message).toMatch(
      /^cdn\.example was added to the whitelist of profile default\..* It goes off the whitelist at /,
    );
    expect(whitelisted()).toEqual(['cdn.example']);
    expect((await alarm())?.scheduledTime).toBe(T0 + 8 * HOUR);

    clock = T0 + 8 * HOUR - 1;
    expect(await expireTemporaryAllows(deps)).toEqual([]);
    expect(whitelisted()).toEqual(['cdn.example']);

    clock = T0 + 8 * HOUR;
    expect((await expireTemporaryAllows(deps)).map((gone) => gone.domain)).toEqual(['cdn.example']);
    expect(whitelisted()).toEqual([]);
    expect(await temporaryAllowsItem.getValue()).toEqual([]);
    expect(await alarm()).toBeUndefined();
  });

  it('wakes for the earliest end and ends only what is due then', async () => {
    const allow = (domain: string, durationMs: number) =>
      startTemporaryAllow(deps, { domain, profile: 'default', durationMs, before: 'none' });
    await allow('later.example', 8 * HOUR);
    await allow('soon.example', HOUR);
    expect((await alarm())?.scheduledTime).toBe(T0 + HOUR);

    clock = T0 + HOUR;
    expect((await expireTemporaryAllows(deps)).map((gone) => gone.domain)).toEqual(['soon.example']);
    expect(whitelisted()).toEqual(['later.example']);
    expect((await alarm())?.scheduledTime).toBe(T0 + 8 * HOUR);
  });

  it('a blocklisted domain goes back on the blocklist at the end', async () => {
    service.state.lists.blocklist.default = new Set(['cdn.example']);
    await startTemporaryAllow(deps, {
      domain: 'cdn.example',
      profile: 'default',
      durationMs: HOUR,
      before: 'none',
    });
    expect([whitelisted(), blocklisted()]).toEqual([['cdn.example'], []]);
    clock += HOUR;
    await expireTemporaryAllows(deps);
    expect([whitelisted(), blocklisted()]).toEqual([[], ['cdn.example']]);
  });

  it('a domain the user had whitelisted for good is left alone, then and at the end', async () => {
    service.state.lists.whitelist.default = new Set(['cdn.example']);
    const answer = await startTemporaryAllow(deps, {
      domain: 'cdn.example',
      profile: 'default',
      durationMs: HOUR,
      before: 'none',
    });
    expect(answer.message).toMatch(/already on the whitelist of profile default for good/);
    expect(await temporaryAllowsItem.getValue()).toEqual([]);
    clock += 2 * HOUR;
    await expireTemporaryAllows(deps);
    expect(whitelisted()).toEqual(['cdn.example']);
  });

  it("offline, the popup's view of the lists decides, and the change waits in the outbox", async () => {
    service.failNext('listDomains', offline(), 2);
    service.failNext('deleteDomain', offline());
    const kept = await startTemporaryAllow(deps, {
      domain: 'cdn.example',
      profile: 'default',
      durationMs: HOUR,
      before: 'whitelist',
    });
    expect(kept.message).toMatch(/already on the whitelist/);

    service.failNext('listDomains', offline(), 2);
    service.failNext('deleteDomain', offline());
    const pending = await startTemporaryAllow(deps, {
      domain: 'cdn.example',
      profile: 'default',
      durationMs: HOUR,
      before: 'none',
    });
    expect(pending.state).toBe('pending');
    expect((await temporaryAllowsItem.getValue()).map((allow) => allow.domain)).toEqual(['cdn.example']);
  });

  it('allowing again moves the end instead of stacking a second one', async () => {
    await startTemporaryAllow(deps, {
      domain: 'cdn.example',
      profile: 'default',
      durationMs: HOUR,
      before: 'none',
    });
    clock += 30 * 60_000;
    const again = await startTemporaryAllow(deps, {
      domain: 'cdn.example',
      profile: 'default',
      durationMs: 24 * HOUR,
      before: 'whitelist',
    });
    expect(again.message).toMatch(/^cdn\.example stays on the whitelist of profile default until /);
    expect((await temporaryAllowsItem.getValue()).map((allow) => allow.expiresAt)).toEqual([
      clock + 24 * HOUR,
    ]);
  });

  it('a refused whitelisting leaves nothing to undo later', async () => {
    service.failNext(
      'addDomain',
      new (await import('@/lib/api/errors')).ApiError('service', 'Could not add: quota', {}),
    );
    const answer = await startTemporaryAllow(deps, {
      domain: 'cdn.example',
      profile: 'default',
      durationMs: HOUR,
      before: 'none',
    });
    expect(answer.state).toBe('failed');
    expect(await temporaryAllowsItem.getValue()).toEqual([]);
    expect(await alarm()).toBeUndefined();
  });

  it('the user deciding about the domain meanwhile ends the allow without undoing the choice', async () => {
    await startTemporaryAllow(deps, {
      domain: 'cdn.example',
      profile: 'default',
      durationMs: HOUR,
      before: 'none',
    });
    const keep: ListChange = {
      op: 'add',
      list: 'whitelist',
      domain: 'cdn.example',
      profile: 'default',
      source: 'popup',
    };
    expect(await forgetTemporaryAllowFor(deps, { ...keep, profile: 'kids' })).toBe(false);
    expect(await forgetTemporaryAllowFor(deps, { ...keep, source: 'temporary-allow' })).toBe(false);
    expect(await forgetTemporaryAllowFor(deps, keep)).toBe(true);
    clock += 2 * HOUR;
    await expireTemporaryAllows(deps);
    expect(whitelisted()).toEqual(['cdn.example']);
  });

  it('an allow made in another account is not ended in this one; the user is told', async () => {
    const other = testAccount('B', '0123456789abcdef', 'https://other.example');
    await temporaryAllowsItem.setValue([entry({ account: other.id, expiresAt: T0 - 1 })]);
    service.state.lists.whitelist.default = new Set(['cdn.example']);
    await expireTemporaryAllows(deps);
    expect(whitelisted()).toEqual(['cdn.example']);
    expect(notified).toEqual([
      expect.stringMatching(/^The time for cdn\.example is up, but .* another account/),
    ]);
    expect(await temporaryAllowsItem.getValue()).toEqual([]);
    // Its end waits in the outbox for its own account.
    expect(await outboxItem.getValue()).toMatchObject([
      { account: other.id, change: { op: 'remove', list: 'whitelist', domain: 'cdn.example' } },
    ]);
  });

  it('an allow of another account of this browser ends there, while this one stays active', async () => {
    const other = testAccount('B', '0123456789abcdef', 'https://other.example');
    const otherService = createFakeClient('B');
    otherService.state.lists.whitelist.account = new Set(['cdn.example']);
    const accounts = async () => [current, { identity: other, client: otherService }];
    const outboxDeps: OutboxDeps = {
      getAccount: async () => current,
      getAccounts: accounts,
      alarms: fakeBrowser.alarms,
      now: () => clock,
    };
    const withBoth: TemporaryAllowDeps = {
      ...deps,
      getAccounts: accounts,
      deliver: () => deliverPending(outboxDeps, { force: true }),
    };
    await temporaryAllowsItem.setValue([entry({ account: other.id, profile: undefined, expiresAt: T0 - 1 })]);
    service.state.lists.whitelist.default = new Set(['cdn.example']);
    await expireTemporaryAllows(withBoth);
    expect([...(otherService.state.lists.whitelist.account ?? [])]).toEqual([]);
    expect(whitelisted()).toEqual(['cdn.example']);
    expect(service.calls).toEqual([]);
    expect(notified).toEqual([]);
    expect(await outboxItem.getValue()).toEqual([]);
  });

  it("an allow's expiry goes to its own account: not the new key's, and there once it is back", async () => {
    await startTemporaryAllow(deps, {
      domain: 'cdn.example',
      profile: 'default',
      durationMs: HOUR,
      before: 'none',
    });
    expect(whitelisted()).toEqual(['cdn.example']);

    // A new key is saved on the same origin; its account has the same domain whitelisted for good.
    const newService = createFakeClient('A');
    newService.state.lists.whitelist.default = new Set(['cdn.example']);
    current = { identity: testAccount('A', 'fedcba9876543210', 'http://127.0.0.1:8787'), client: newService };
    clock = T0 + HOUR;
    await expireTemporaryAllows(deps);
    expect([...(newService.state.lists.whitelist.default ?? [])]).toEqual(['cdn.example']);
    expect(newService.calls).toEqual([]);
    expect(whitelisted()).toEqual(['cdn.example']);

    // The first key again: the end is carried out there.
    current = { identity: IDENTITY, client: service };
    await deps.deliver();
    expect(whitelisted()).toEqual([]);
    expect(await outboxItem.getValue()).toEqual([]);
  });

  it('ends noted before a restart are carried out on the next run, in the order they were due', async () => {
    await temporaryAllowsItem.setValue([
      entry({ domain: 'a.example', expiresAt: T0 - HOUR }),
      entry({ domain: 'b.example', expiresAt: T0 - 1, before: 'blocklist' }),
      entry({ domain: 'c.example', expiresAt: T0 + HOUR }),
    ]);
    service.state.lists.whitelist.default = new Set(['a.example', 'b.example', 'c.example']);
    await expireTemporaryAllows(deps);
    expect(whitelisted()).toEqual(['c.example']);
    expect(blocklisted()).toEqual(['b.example']);
    expect((await alarm())?.scheduledTime).toBe(T0 + HOUR);
  });
});
