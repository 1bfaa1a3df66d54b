// @vitest-environment node
/**
 * One change to several profiles (lib/profile-groups/several.ts) through the real outbox and a real
 * client, against the emulator: each profile's change reaches the service as its own call; a
 * profile the service refuses fails alone, and its retry sends that profile's change only.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { accountIdentity } from '@/lib/identity/identity';
import type { ListChange } from '@/lib/messaging/protocol';
import { failedProfiles } from '@/lib/profile-groups/preview';
import { type SeveralDeps, submitToProfiles } from '@/lib/profile-groups/several';
import { outboxItem } from '@/lib/settings/storage';
import { useEmulator } from './helpers';

const ctx = useEmulator();
beforeEach(() => fakeBrowser.reset());

const SITE = 'homework-help.example';
const change: ListChange = { op: 'add', list: 'whitelist', domain: SITE, source: 'popup' };

async function deps(): Promise<SeveralDeps> {
  const client = ctx.client('A');
  const identity = await accountIdentity({
    key: ctx.emulator.key,
    connection: { baseUrl: ctx.emulator.url, form: 'A' },
  });
  let groups = 0;
  return {
    getAccount: async () => ({ identity, client }),
    alarms: fakeBrowser.alarms,
    newGroupId: () => `group-contract-${++groups}`,
  };
}

const whitelisting = () =>
  Object.entries(ctx.emulator.admin.state().profiles)
    .filter(([, profile]) => profile.whitelist.includes(SITE))
    .map(([name]) => name)
    .sort();

const addsFor = (profile: string) =>
  ctx.emulator.admin
    .calls()
    .filter((call) => call.action === 'whitelist/add' && call.params.profile_name === profile).length;

describe('Form A against the emulator: one change to several profiles', () => {
  it('whitelists the site in each profile, one call per profile', async () => {
    const answer = await submitToProfiles(change, ['kids1', 'office'], await deps());
    expect(answer.outcomes.map(({ profile, state }) => [profile, state])).toEqual([
      ['kids1', 'delivered'],
      ['office', 'delivered'],
    ]);
    expect(whitelisting()).toEqual(['kids1', 'office']);
    expect([addsFor('kids1'), addsFor('office')]).toEqual([1, 1]);
    expect(await outboxItem.getValue()).toEqual([]);
  });

  it('a profile the service does not have fails alone; once it exists, the retry sends it alone', async () => {
    const several = await deps();
    const first = await submitToProfiles(change, ['kids1', 'teens2024'], several);
    expect(first.outcomes.map(({ profile, state }) => [profile, state])).toEqual([
      ['kids1', 'delivered'],
      ['teens2024', 'failed'],
    ]);
    expect(whitelisting()).toEqual(['kids1']);
    // Nothing is left half-done in the outbox: the refused change settled, reported above.
    expect(await outboxItem.getValue()).toEqual([]);

    await ctx.client('A').addProfile('teens2024');
    const retry = await submitToProfiles(change, failedProfiles(first.outcomes), several);
    expect(retry.outcomes).toMatchObject([{ profile: 'teens2024', state: 'delivered' }]);
    expect(whitelisting()).toEqual(['kids1', 'teens2024']);
    expect([addsFor('kids1'), addsFor('teens2024')]).toEqual([1, 2]);
  });
});
