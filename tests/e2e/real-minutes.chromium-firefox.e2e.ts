/**
 * The end-to-end tests that wait for real minutes, in Chromium and Firefox. Each browser mostly
 * waits, so the tests run side by side (`test.concurrent`), and in each the two browsers run side
 * by side, each against an emulator of its own (none uses the file's shared one, which a test that
 * asks for it resets).
 *
 * - Schedules through the options page and the real worker's alarms (docs/schedules.md): a
 *   schedule whose window starts about two minutes after it is saved, sent with no lead, blocks its
 *   category at the emulator when the window starts and allows it when it ends; meanwhile the popup
 *   on a site says which schedule holds and until when.
 */
import type { Page } from 'puppeteer-core';
import { startEmulator } from '../../emulator/index.ts';
import { popupTextOf } from './harness/firefox-popup-roles.ts';
import { configureExtension, expect, test, textOf } from './harness/index.ts';
import { hhmm, saveSchedule, sentAt, until } from './schedules-steps.ts';

/** Two emulators of the test's own, closed when it ends. */
async function twoEmulators(onTestFinished: (fn: () => Promise<void>) => void) {
  const emulators = await Promise.all([startEmulator(), startEmulator()]);
  onTestFinished(async () => {
    await Promise.all(emulators.map((emulator) => emulator.close()));
  });
  return emulators;
}

type Emulator = { url: string; key: string; admin: { calls(): unknown[] } };

async function scheduleStory(
  emulator: Emulator,
  options: Page,
  popupLine: () => Promise<string>,
): Promise<void> {
  await configureExtension(options, { baseUrl: emulator.url, key: emulator.key, form: 'A' });
  const { start, end, saved } = await saveSchedule(options);
  expect(saved).toContain(`“Homework time” starts at ${hhmm(new Date(start))}`);
  // Nothing is sent before the window.
  expect(sentAt(emulator, 'category/block')).toBeNull();

  const blockedAt = await until(() => sentAt(emulator, 'category/block'), start + 60_000, 'The block');
  expect(blockedAt).toBeGreaterThanOrEqual(start - 1_000);

  expect(await popupLine()).toContain(`Homework time: Gaming blocked until ${hhmm(new Date(end))}`);

  const allowedAt = await until(() => sentAt(emulator, 'category/allow'), end + 60_000, 'The allow');
  expect(allowedAt).toBeGreaterThanOrEqual(end - 1_000);
}

test.concurrent('a window two minutes ahead blocks its category at its start and allows it at its end; the popup says why (Chromium and Firefox)', {
  timeout: 300_000,
}, async ({ chromium, firefox, onTestFinished }) => {
  const [forChromium, forFirefox] = await twoEmulators(onTestFinished);
  await Promise.all([
    scheduleStory(forChromium!, await chromium.openOptions(), async () => {
      const popup = await chromium.openPopup(await chromium.openSiteTab('games.example', '/page'));
      const line = await textOf(popup, 'region', 'Schedules');
      await popup.close();
      return line;
    }),
    scheduleStory(forFirefox!, firefox.optionsPage, async () => {
      const popup = await firefox.openPopup(await firefox.openSiteTab('games.example', '/page'));
      const line = await popupTextOf(popup, 'region', 'Schedules');
      await popup.close();
      return line;
    }),
  ]);
});
