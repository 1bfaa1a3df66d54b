/**
 * One change to several profiles from the popup a real click on the toolbar opens (Firefox):
 * whitelisted for two profiles, both found at the emulator; a refusal for one profile shows one
 * failed outcome, and Retry sends only that one again.
 */
import { clickInPopup, popupStatus, popupTextOf } from './harness/firefox-popup-roles.ts';
import { configureExtension, expect, test } from './harness/index.ts';
import {
  failFirstWhitelistAdd,
  PROFILES,
  profilesWhitelisting,
  SITE,
  whitelistAddsFor,
} from './several-profiles-steps.ts';

const OUTCOME = 'Outcome for several profiles';

test('whitelists a site for two profiles; a failed one is retried alone (Firefox)', {
  timeout: 150_000,
}, async ({ firefox, emulator }) => {
  await configureExtension(firefox.optionsPage, { baseUrl: emulator.url, key: emulator.key, form: 'A' });

  const popup = await firefox.openPopup(await firefox.openSiteTab(`www.${SITE}`, '/page'));
  await popupStatus(popup, { startsWith: 'Not blocked' }, 'Verdict');
  await clickInPopup(popup, 'button', 'Several profiles');
  await clickInPopup(popup, 'checkbox', 'kids1');
  await clickInPopup(popup, 'button', 'Whitelist for 2 profiles');
  expect(await popupTextOf(popup, 'list', 'Preview per profile')).toContain('kids1');
  expect(whitelistAddsFor(emulator, 'default') + whitelistAddsFor(emulator, 'kids1')).toBe(0);

  failFirstWhitelistAdd(emulator);
  await clickInPopup(popup, 'button', 'Send to 2 profiles');
  expect(await popupStatus(popup, { startsWith: 'Done for' }, OUTCOME)).toBe(
    'Done for 1 of 2 profiles. Not done: default.',
  );
  expect(profilesWhitelisting(emulator)).toEqual(['kids1']);

  await clickInPopup(popup, 'button', 'Retry the failed profile');
  expect(await popupStatus(popup, 'Done for 2 of 2 profiles.', OUTCOME)).toBe('Done for 2 of 2 profiles.');
  expect(profilesWhitelisting(emulator)).toEqual([...PROFILES]);
  expect([whitelistAddsFor(emulator, 'default'), whitelistAddsFor(emulator, 'kids1')]).toEqual([2, 1]);
});
