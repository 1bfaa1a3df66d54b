/**
 * One change to several profiles from the real toolbar popup (Chromium): whitelisted for two
 * profiles, both found at the emulator; a refusal for one profile shows one failed outcome, and
 * Retry sends only that one again.
 */
import { byRole, configureExtension, expect, test, textOf, waitForStatus } from './harness/index.ts';
import {
  failFirstWhitelistAdd,
  PROFILES,
  profilesWhitelisting,
  SITE,
  whitelistAddsFor,
} from './several-profiles-steps.ts';

const OUTCOME = 'Outcome for several profiles';

test('whitelists a site for two profiles; a failed one is retried alone (Chromium)', async ({
  chromium,
  emulator,
}) => {
  const options = await chromium.openOptions();
  await configureExtension(options, { baseUrl: emulator.url, key: emulator.key, form: 'A' });

  const popup = await chromium.openPopup(await chromium.openSiteTab(`www.${SITE}`, '/page'));
  await waitForStatus(popup, { startsWith: 'Not blocked' }, { name: 'Verdict' });
  await byRole(popup, 'button', 'Several profiles').click();
  await byRole(popup, 'checkbox', 'kids1').click();
  await byRole(popup, 'button', 'Whitelist for 2 profiles').click();
  // The preview names each profile before anything is sent.
  expect(await textOf(popup, 'list', 'Preview per profile')).toContain('kids1');
  expect(whitelistAddsFor(emulator, 'default') + whitelistAddsFor(emulator, 'kids1')).toBe(0);

  failFirstWhitelistAdd(emulator);
  await byRole(popup, 'button', 'Send to 2 profiles').click();
  expect(await waitForStatus(popup, { startsWith: 'Done for' }, { name: OUTCOME })).toBe(
    'Done for 1 of 2 profiles. Not done: default.',
  );
  expect(await textOf(popup, 'listitem', undefined, { text: { startsWith: 'default:' } })).toContain(
    'failed',
  );
  expect(profilesWhitelisting(emulator)).toEqual(['kids1']);

  await byRole(popup, 'button', 'Retry the failed profile').click();
  expect(await waitForStatus(popup, 'Done for 2 of 2 profiles.', { name: OUTCOME })).toBe(
    'Done for 2 of 2 profiles.',
  );
  expect(profilesWhitelisting(emulator)).toEqual([...PROFILES]);
  // The retry went to the failed profile only.
  expect([whitelistAddsFor(emulator, 'default'), whitelistAddsFor(emulator, 'kids1')]).toEqual([2, 1]);
});
