/**
 * The passphrase lock locks again by itself after the idle time (docs/lock.md, "When it locks"), in
 * Chromium and Firefox: turned on with one minute, the options page left alone turns into the
 * passphrase field once the worker's idle alarm finds the minute passed, and the key is gone from
 * the session. Both browsers mostly wait for real minutes, so they run side by side in one test,
 * each against an emulator of its own.
 */
import type { Page } from 'puppeteer-core';
import { startEmulator } from '../../emulator/index.ts';
import { byRole, configureExtension, expect, test } from './harness/index.ts';

const PASSPHRASE = 'correct horse battery staple';

/** The lock turned on with an idle time of one minute, then the page left alone until it locks. */
async function locksWhenIdle(options: Page, emulator: { url: string; key: string }): Promise<number> {
  await configureExtension(options, { baseUrl: emulator.url, key: emulator.key, form: 'A' });
  await byRole(options, 'link', 'Lock').click();
  await byRole(options, 'textbox', 'Passphrase').fill(PASSPHRASE);
  await byRole(options, 'textbox', 'Repeat passphrase').fill(PASSPHRASE);
  await byRole(options, 'spinbutton', 'Lock again after this many minutes without use').fill('1');
  await byRole(options, 'button', 'Turn on lock').click();
  await byRole(options, 'button', 'Lock now').wait();
  const unlockedAt = Date.now();
  // The idle alarm rings every minute: the first ring at least a minute after the last use locks.
  await byRole(options, 'button', 'Unlock').setTimeout(200_000).wait();
  expect(await options.evaluate(() => document.body.textContent)).toContain('This page is locked.');
  return Date.now() - unlockedAt;
}

test('locked again after the idle time, with nothing touched (Chromium and Firefox)', {
  timeout: 300_000,
}, async ({ chromium, firefox, emulator, onTestFinished }) => {
  const second = await startEmulator();
  onTestFinished(() => second.close());
  const [inChromium, inFirefox] = await Promise.all([
    chromium.openOptions().then((options) => locksWhenIdle(options, emulator)),
    locksWhenIdle(firefox.optionsPage, second),
  ]);
  // Not before the minute was up.
  expect(inChromium).toBeGreaterThanOrEqual(59_000);
  expect(inFirefox).toBeGreaterThanOrEqual(59_000);
});
