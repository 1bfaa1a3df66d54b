import { test as base } from 'vitest';
import { startEmulator } from '../../../emulator/index.ts';
import { launchChromium } from './chromium.ts';
import { saveFailureArtifacts } from './failure-artifacts.ts';
import { launchFirefox } from './firefox.ts';
import { startSiteServer } from './site-server.ts';

/**
 * `test` with e2e fixtures; ask for the ones a test needs and only those are started:
 *
 * - `emulator`: the service stand-in, one per test file, reset to its seeded state before every
 *   test that asks for it (`emulator.url`, `emulator.key`, `emulator.admin`).
 * - `site`: the local server behind site tabs, one per test file.
 * - `chromium`: a fresh Chromium with the built extension installed, one per test.
 * - `firefox`: a fresh Firefox ESR with the built extension installed and its first-run options
 *   page found, one per test.
 *
 * When a test fails, each browser it used saves screenshots of every open page and the console
 * output of the extension under test-results/e2e/<test>/<browser>/ before closing.
 */
export const test = base
  // biome-ignore lint/correctness/noEmptyPattern: vitest requires a destructuring pattern here
  .extend('emulatorServer', { scope: 'file' }, async ({}, { onCleanup }) => {
    const emulator = await startEmulator();
    onCleanup(() => emulator.close());
    return emulator;
  })
  // biome-ignore lint/correctness/noEmptyPattern: vitest requires a destructuring pattern here
  .extend('site', { scope: 'file' }, async ({}, { onCleanup }) => {
    const site = await startSiteServer();
    onCleanup(() => site.close());
    return site;
  })
  .extend('emulator', async ({ emulatorServer }) => {
    emulatorServer.admin.reset();
    return emulatorServer;
  })
  .extend('chromium', async ({ site, task }, { onCleanup }) => {
    const session = await launchChromium({ site });
    onCleanup(async () => {
      if (task.result?.state === 'fail') await saveFailureArtifacts(task, session);
      await session.close();
    });
    return session;
  })
  .extend('firefox', async ({ site, task }, { onCleanup }) => {
    const session = await launchFirefox({ site });
    onCleanup(async () => {
      if (task.result?.state === 'fail') await saveFailureArtifacts(task, session);
      await session.close();
    });
    return session;
  });

export { describe, expect } from 'vitest';
