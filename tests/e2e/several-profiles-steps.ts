/**
 * What the several-profiles end-to-end tests check the same way in Chromium and Firefox
 * (docs/several-profiles.md): the site, the profiles, the fault that makes one profile's change
 * fail once, and what the emulator then holds.
 */
import type { EmulatorHandle } from '../../emulator/index.ts';

/** Opened on a page of this site; whitelisted for the profiles `default` and `kids1` of the demo account. */
export const SITE = 'homework-help.example';
export const PROFILES = ['default', 'kids1'] as const;

/** Each profile's change goes in the order of the account's profiles: `default` first, then `kids1`. */
export function failFirstWhitelistAdd(emulator: EmulatorHandle): void {
  emulator.admin.injectFault({
    kind: 'odd-reason',
    action: 'whitelist/add',
    count: 1,
    reason: 'Profile is being edited elsewhere',
  });
}

/** The profiles whose whitelist holds the site at the emulator. */
export function profilesWhitelisting(emulator: EmulatorHandle): string[] {
  const { profiles } = emulator.admin.state();
  return PROFILES.filter((profile) => profiles[profile]?.whitelist.includes(SITE));
}

/** How many times the emulator was asked to whitelist the site for `profile`. */
export function whitelistAddsFor(emulator: EmulatorHandle, profile: string): number {
  return emulator.admin
    .calls()
    .filter(
      (call) =>
        call.action === 'whitelist/add' &&
        call.params.domain_name === SITE &&
        (call.params.profile_name ?? 'default') === profile,
    ).length;
}
