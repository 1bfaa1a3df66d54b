/**
 * One change to several profiles (lib/profile-groups/several.ts): one outbox change per profile,
 * queued together, one outcome per profile, a retry of the failed ones only, and nothing queued
 * for any profile when the outbox cannot take all of them.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import type { ListChange } from '@/lib/messaging/protocol';
import { carriesListChange } from '@/lib/messaging/queued-change';
import { deliverPending } from '@/lib/outbox';
import { failedProfiles, previewForProfiles, summaryOf } from '@/lib/profile-groups/preview';
import { type SeveralDeps, submitToProfiles } from '@/lib/profile-groups/several';
import { OUTBOX_LIMIT, outboxItem, settledChangesItem } from '@/lib/settings/storage';
import { createFakeClient, type FakeClient, offline, refused } from '../../fakes/fake-client';
import { currentAccountOf as accountOf, testAccount } from '../account-ids';

beforeEach(() => fakeBrowser.reset());

const whitelist: ListChange = { op: 'add', list: 'whitelist', domain: 'games.example', source: 'popup' };

function setUp(service: FakeClient) {
  let groups = 0;
  const deps: SeveralDeps = {
    getAccount: accountOf(service),
    alarms: fakeBrowser.alarms,
    now: () => 1_000_000,
    newGroupId: () => `group-000${++groups}`,
  };
  return deps;
}

describe('a change to several profiles', () => {
  it('adds the domain for each profile and answers one outcome per profile, in order', async () => {
    const service = createFakeClient('A');
    const answer = await submitToProfiles(whitelist, ['kids1', 'kids2'], setUp(service));
    expect(answer.outcomes.map(({ profile, state }) => [profile, state])).toEqual([
      ['kids1', 'delivered'],
      ['kids2', 'delivered'],
    ]);
    expect([...(service.state.lists.whitelist.kids1 ?? [])]).toEqual(['games.example']);
    expect([...(service.state.lists.whitelist.kids2 ?? [])]).toEqual(['games.example']);
    // Each profile's change settled with the group they share.
    const groups = new Set(
      (await settledChangesItem.getValue()).filter(carriesListChange).map((settled) => settled.change.group),
    );
    expect(groups).toEqual(new Set(['group-0001']));
  });

  it('a refusal for one profile fails that one only; a retry sends only that one again', async () => {
    const service = createFakeClient('A');
    const deps = setUp(service);
    service.failNext('addDomain', refused('Profile kids1 does not exist'));
    const first = await submitToProfiles(whitelist, ['kids1', 'kids2'], deps);
    expect(first.outcomes.map(({ state }) => state)).toEqual(['failed', 'delivered']);
    expect(first.outcomes[0]?.message).toContain('Profile kids1 does not exist');
    expect(summaryOf(first.outcomes)).toEqual({
      state: 'failed',
      text: 'Done for 1 of 2 profiles. Not done: kids1.',
    });

    service.calls.length = 0;
    const retry = await submitToProfiles(whitelist, failedProfiles(first.outcomes), deps);
    expect(retry.outcomes).toMatchObject([{ profile: 'kids1', state: 'delivered' }]);
    expect(service.calls.filter((call) => call.startsWith('whitelist/add'))).toEqual([
      'whitelist/add games.example kids1',
    ]);
  });

  it('while the service cannot be reached, every profile is reported as waiting and stays queued until sent', async () => {
    const service = createFakeClient('A');
    service.failWith(offline());
    const deps = setUp(service);
    const answer = await submitToProfiles(whitelist, ['kids1', 'kids2'], deps);
    expect(answer.outcomes.map(({ profile, state }) => [profile, state])).toEqual([
      ['kids1', 'pending'],
      ['kids2', 'pending'],
    ]);
    expect(summaryOf(answer.outcomes)).toEqual({
      state: 'pending',
      text: 'Done for 0 of 2 profiles. Waiting (retried automatically): kids1, kids2.',
    });
    expect((await outboxItem.getValue()).map((entry) => entry.change.profile)).toEqual(['kids1', 'kids2']);

    service.failWith(null);
    await deliverPending(deps, { force: true });
    expect(await outboxItem.getValue()).toEqual([]);
    expect([...(service.state.lists.whitelist.kids2 ?? [])]).toEqual(['games.example']);
  });

  it('queues nothing for any profile when the outbox cannot take them all', async () => {
    const service = createFakeClient('A');
    const account = testAccount('A').id;
    await outboxItem.setValue(
      Array.from({ length: OUTBOX_LIMIT - 1 }, (_, index) => ({
        id: `waiting-${index}`,
        change: { ...whitelist, domain: `d${index}.example`, profile: 'default' },
        account,
        createdAt: 1,
        attempts: 0,
        nextAttemptAt: 1,
      })),
    );
    const before = await outboxItem.getValue();
    const deps = setUp(service);
    const answer = await submitToProfiles(whitelist, ['kids1', 'kids2'], {
      ...deps,
      getAccount: accountOf(null),
    });
    expect(answer.outcomes.map(({ state }) => state)).toEqual(['failed', 'failed']);
    expect(answer.outcomes[0]?.message).toMatch(/outbox|waiting/i);
    expect(await outboxItem.getValue()).toEqual(before);
  });

  it('is refused for each profile in a form without profiles (Form B), sending nothing', async () => {
    const service = createFakeClient('B');
    const answer = await submitToProfiles(whitelist, ['kids1', 'kids2'], setUp(service));
    expect(answer.outcomes.map(({ state }) => state)).toEqual(['failed', 'failed']);
    expect(service.calls).toEqual([]);
    expect(await outboxItem.getValue()).toEqual([]);
  });
});

describe('the preview', () => {
  it('says per profile whether the domain goes on, moves, is there already, or is not known here', () => {
    const where = { kids1: 'none', kids2: 'blocklist', work: 'whitelist' } as const;
    const preview = previewForProfiles(
      'whitelist',
      'games.example',
      ['kids1', 'kids2', 'work', 'guest'],
      (profile) => where[profile as keyof typeof where] ?? null,
    );
    expect(preview.map(({ profile, effect }) => [profile, effect])).toEqual([
      ['kids1', 'add'],
      ['kids2', 'move'],
      ['work', 'already'],
      ['guest', 'unknown'],
    ]);
    expect(preview[1]?.text).toBe('games.example comes off the blocklist and goes on the whitelist.');
  });
});
