// @vitest-environment node
/**
 * Copying a profile (lib/profile-groups/copy.ts) with a real client against the emulator: a new
 * profile made from kids1 lists the same blocked categories and lists; copied onto an existing
 * profile, that one ends with kids1's settings too.
 */
import { describe, expect, it } from 'vitest';
import { applyCopy, planCopy, readProfileSettings } from '@/lib/profile-groups/copy';
import { useEmulator } from './helpers';

const ctx = useEmulator();

const settingsAtEmulator = (profile: string) => {
  const state = ctx.emulator.admin.state().profiles[profile];
  return {
    blocked: [...(state?.blockedCategories ?? [])].sort(),
    whitelist: [...(state?.whitelist ?? [])].sort(),
    blocklist: [...(state?.blocklist ?? [])].sort(),
  };
};

describe('Form A against the emulator: copying a profile', () => {
  it('into a new profile', async () => {
    const api = ctx.client('A');
    const source = await readProfileSettings(api, 'kids1', null);
    const outcomes = await applyCopy(api, planCopy('kids1', source, 'teens2024', null));
    expect(outcomes.filter(({ ok }) => !ok)).toEqual([]);
    expect(await api.listProfiles()).toContain('teens2024');
    expect(settingsAtEmulator('teens2024')).toEqual(settingsAtEmulator('kids1'));
  });

  it('onto an existing profile, after reading both', async () => {
    const api = ctx.client('A');
    const [source, target] = await Promise.all([
      readProfileSettings(api, 'kids1', null),
      readProfileSettings(api, 'office', null),
    ]);
    expect(settingsAtEmulator('office')).not.toEqual(settingsAtEmulator('kids1'));
    const outcomes = await applyCopy(api, planCopy('kids1', source, 'office', target));
    expect(outcomes.filter(({ ok }) => !ok)).toEqual([]);
    expect(settingsAtEmulator('office')).toEqual(settingsAtEmulator('kids1'));
  });
});
