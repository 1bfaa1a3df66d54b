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
 * - The passphrase lock locks again by itself after the idle time (docs/lock.md, "When it locks"):
 *   turned on with one minute, the options page left alone turns into the passphrase field once the
 *   worker's idle alarm finds the minute passed.
 */
import type { Page } from 'puppeteer-core';
import { startEmulator } from '../../emulator/index.ts';
import { popupTextOf } from './harness/firefox-popup-roles.ts';
import { byRole, configureExtension, expect, test, textOf } from './harness/index.ts';
import { englishClock, saveSchedule, sentAt, spaced, until } from './schedules-steps.ts';

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
  expect(spaced(saved)).toContain(`“Homework time” starts at ${englishClock(new Date(start))}`);
  // Nothing is sent before the window.
  expect(sentAt(emulator, 'category/block')).toBeNull();

  const blockedAt = await until(() => sentAt(emulator, 'category/block'), start + 60_000, 'The block');
  expect(blockedAt).toBeGreaterThanOrEqual(start - 1_000);

  expect(spaced(await popupLine())).toContain(
    `Homework time: Gaming blocked until ${englishClock(new Date(end))}`,
  );

  const allowedAt = await until(() => sentAt(emulator, 'category/allow'), end + 60_000, 'The allow');
  expect(allowedAt).toBeGreaterThanOrEqual(end - 1_000);
}

const PASSPHRASE = 'correct horse battery staple';

/** The lock turned on with an idle time of one minute, then the page left alone until it locks. */
async function locksWhenIdle(options: Page, emulator: { url: string; key: string }): Promise<number> {
  await configureExtension(options, { baseUrl: emulator.url, key: emulator.key, form: 'A' });
  await byRole(options, 'link', 'Lock').click();
  await byRole(options, 'textbox', 'Passphrase').fill(PASSPHRASE);
  await byRole(options, 'textbox', 'Repeat passphrase').fill(PASSPHRASE);
  await byRole(options, 'spinbutton', 'Lock again after this many minutes without use').fill('1');
  // Taken before the click: the worker counts the idle minute from the moment it turns the lock
  // on, which under load can be a second or more before the page shows "Lock now".
  const turnedOnNoEarlierThan = Date.now();
  await byRole(options, 'button', 'Turn on lock').click();
  await byRole(options, 'button', 'Lock now').wait();
  // The idle alarm rings every minute: the first ring at least a minute after the last use locks.
  await byRole(options, 'button', 'Unlock').setTimeout(200_000).wait();
  expect(await options.evaluate(() => document.body.textContent)).toContain('This page is locked.');
  return Date.now() - turnedOnNoEarlierThan;
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

test.concurrent('the lock locks again after the idle time, with nothing touched (Chromium and Firefox)', {
  timeout: 300_000,
}, async ({ chromium, firefox, onTestFinished }) => {
  const [forChromium, forFirefox] = await twoEmulators(onTestFinished);
  const [inChromium, inFirefox] = await Promise.all([
    chromium.openOptions().then((options) => locksWhenIdle(options, forChromium!)),
    locksWhenIdle(firefox.optionsPage, forFirefox!),
  ]);
  // Not before the minute was up.
  expect(inChromium).toBeGreaterThanOrEqual(60_000);
  expect(inFirefox).toBeGreaterThanOrEqual(60_000);
});
