/**
 * Copying a profile (lib/profile-groups/copy.ts): the diff the user confirms, and its sending,
 * one outcome per step, stopping when the new profile cannot be made.
 */
import { describe, expect, it } from 'vitest';
import { applyCopy, countSteps, type ProfileSettings, planCopy } from '@/lib/profile-groups/copy';
import { createFakeClient, refused } from '../../fakes/fake-client';

const kids: ProfileSettings = {
  categories: ['adult', 'gambling', 'social'],
  blockedCategories: ['adult', 'gambling'],
  whitelist: ['school.example', 'games.example'],
  blocklist: ['casino.example'],
  defaultBlock: true,
};

describe('the plan of a copy', () => {
  it('into a new profile: makes it, then everything of the source, default block last', () => {
    const plan = planCopy('kids1', kids, 'teens2024', null);
    expect(plan.steps).toEqual([
      { kind: 'add-profile', profile: 'teens2024' },
      { kind: 'category', category: 'adult', blocked: true },
      { kind: 'category', category: 'gambling', blocked: true },
      { kind: 'list', op: 'add', list: 'whitelist', domain: 'school.example' },
      { kind: 'list', op: 'add', list: 'whitelist', domain: 'games.example' },
      { kind: 'list', op: 'add', list: 'blocklist', domain: 'casino.example' },
      { kind: 'default-block', enabled: true },
    ]);
  });

  it('onto an existing profile: only the differences, removals before additions', () => {
    const target: ProfileSettings = {
      categories: kids.categories,
      blockedCategories: ['adult', 'social'],
      whitelist: ['school.example', 'casino.example'],
      blocklist: ['games.example'],
      defaultBlock: true,
    };
    const plan = planCopy('kids1', kids, 'kids2', target);
    expect(plan.steps).toEqual([
      { kind: 'category', category: 'gambling', blocked: true },
      { kind: 'category', category: 'social', blocked: false },
      { kind: 'list', op: 'remove', list: 'whitelist', domain: 'casino.example' },
      { kind: 'list', op: 'remove', list: 'blocklist', domain: 'games.example' },
      { kind: 'list', op: 'add', list: 'whitelist', domain: 'games.example' },
      { kind: 'list', op: 'add', list: 'blocklist', domain: 'casino.example' },
    ]);
    expect(countSteps(plan.steps)).toEqual({ categories: 2, additions: 2, removals: 2, defaultBlock: false });
  });

  it('leaves the default block alone when this browser does not know the source’s, and says so', () => {
    const plan = planCopy('kids1', { ...kids, defaultBlock: null }, 'teens2024', null);
    expect(plan.defaultBlockUnknown).toBe(true);
    expect(plan.steps.some((step) => step.kind === 'default-block')).toBe(false);
  });
});

describe('sending a copy', () => {
  it('sends each step to the target and answers one outcome per step', async () => {
    const service = createFakeClient('A');
    service.state.profiles.push('kids2');
    service.failNext('addDomain', refused('Domain not allowed'));
    const plan = planCopy('kids1', kids, 'kids2', {
      ...kids,
      whitelist: [],
      blocklist: [],
      defaultBlock: true,
    });
    const progress: number[] = [];
    const outcomes = await applyCopy(service, plan, (done) => progress.push(done));
    expect(outcomes.map(({ ok }) => ok)).toEqual([false, true, true]);
    expect(outcomes[0]?.message).toContain('Domain not allowed');
    expect(progress).toEqual([1, 2, 3]);
    expect([...(service.state.lists.whitelist.kids2 ?? [])]).toEqual(['games.example']);
    expect([...(service.state.lists.blocklist.kids2 ?? [])]).toEqual(['casino.example']);

    // A retry sends the failed step only.
    service.calls.length = 0;
    const failed = outcomes.filter(({ ok }) => !ok).map(({ step }) => step);
    expect((await applyCopy(service, { to: 'kids2', steps: failed })).map(({ ok }) => ok)).toEqual([true]);
    expect(service.calls).toEqual(['whitelist/add school.example kids2']);
  });

  it('sends nothing more when the new profile cannot be made', async () => {
    const service = createFakeClient('A');
    service.failNext('addProfile', refused('Too many profiles'));
    const outcomes = await applyCopy(service, planCopy('kids1', kids, 'teens2024', null));
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({ ok: false });
    expect(service.calls.filter((call) => !call.startsWith('profile/add'))).toEqual([]);
  });
});
