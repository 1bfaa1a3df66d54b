/**
 * Schedules through the options page and the real background's alarms (Firefox) (docs/schedules.md): a schedule
 * whose window starts about two minutes after it is saved, sent with no lead, blocks its category
 * at the emulator when the window starts and allows it when it ends; meanwhile the popup on a site
 * says which schedule holds and until when. Real minutes pass: the window is one minute long.
 */
import { popupTextOf } from './harness/firefox-popup-roles.ts';
import { configureExtension, expect, test } from './harness/index.ts';
import { hhmm, saveSchedule, sentAt, until } from './schedules-steps.ts';

test('a window two minutes ahead blocks its category at its start and allows it at its end; the popup says why (Firefox)', {
  timeout: 300_000,
}, async ({ firefox, emulator }) => {
  await configureExtension(firefox.optionsPage, { baseUrl: emulator.url, key: emulator.key, form: 'A' });
  const { start, end, saved } = await saveSchedule(firefox.optionsPage);
  expect(saved).toContain(`“Homework time” starts at ${hhmm(new Date(start))}`);
  expect(sentAt(emulator, 'category/block')).toBeNull();

  const blockedAt = await until(() => sentAt(emulator, 'category/block'), start + 60_000, 'The block');
  expect(blockedAt).toBeGreaterThanOrEqual(start - 1_000);

  const tab = await firefox.openSiteTab('games.example', '/page');
  const popup = await firefox.openPopup(tab);
  expect(await popupTextOf(popup, 'region', 'Schedules')).toContain(
    `Homework time: Gaming blocked until ${hhmm(new Date(end))}`,
  );
  await popup.close();

  const allowedAt = await until(() => sentAt(emulator, 'category/allow'), end + 60_000, 'The allow');
  expect(allowedAt).toBeGreaterThanOrEqual(end - 1_000);
});
