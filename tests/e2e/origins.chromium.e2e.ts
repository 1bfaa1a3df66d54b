/**
 * The key goes only to origins the user confirmed, in a real Chromium: a settings file that names
 * another service origin, and Test connection with a typed, unsaved origin, send nothing there
 * until the user confirms in the page's own dialog (never a native confirm()).
 *
 * `attacker.example` resolves to a local TCP server that counts connections (Chromium's host
 * resolver maps it, port 443 included, to that server): any attempt to send something there,
 * even one that would fail its TLS handshake, is a connection. Each test ends with a positive
 * control, the user confirming, that shows the counter would have seen a request.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { storedValue, watchDialogs } from './harness/extension-storage.ts';
import {
  byRole,
  configureExtension,
  expect,
  launchChromium,
  openSection,
  pressAndWaitForOutcome,
  saveFailureArtifacts,
  showSection,
  test,
  waitForStatus,
} from './harness/index.ts';

const ATTACKER = 'https://attacker.example';
/** BACKUP_FORMAT of lib/backup/format.ts (the e2e runner does not resolve the `@/` imports of lib/). */
const BACKUP_FORMAT = 'dns-filter-companion-settings';
/** How long the worker and the options page get to (wrongly) call a new origin. */
const QUIET_MS = 3000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A TCP server that counts the connections made to it. */
async function connectionCounter(): Promise<{
  port: number;
  count: () => number;
  close: () => Promise<void>;
}> {
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    count: () => connections,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Chromium whose `attacker.example` (any port) reaches `port`; every other name the site server. */
const attackerArgs = (port: number) => [
  `--host-resolver-rules=MAP attacker.example 127.0.0.1:${port},MAP * 127.0.0.1`,
];

/** A Setup field's value (Setup opened through the navigation when it is not shown). */
async function fieldValue(page: Page, name: string): Promise<string> {
  await showSection(page, 'Setup');
  return byRole(page, 'textbox', name)
    .map((element) => (element as HTMLInputElement).value)
    .wait();
}

async function chooseBackupFile(page: Page, file: string): Promise<void> {
  await showSection(page, 'Backup');
  const [chooser] = await Promise.all([
    page.waitForFileChooser(),
    byRole(page, 'button', 'Import settings', { within: { role: 'region', name: 'Backup' } }).click(),
  ]);
  await chooser.accept([file]);
}

test('an imported file that names another service origin sends nothing there until confirmed (Chromium)', async ({
  emulator,
  site,
  task,
}) => {
  const counter = await connectionCounter();
  const folder = await mkdtemp(join(tmpdir(), 'dnsfc-origins-'));
  const session = await launchChromium({ site, args: attackerArgs(counter.port) });
  try {
    const options = await session.openOptions();
    const nativeDialogs = watchDialogs(options);
    expect(
      await configureExtension(options, { baseUrl: emulator.url, key: emulator.key, form: 'A' }),
    ).toMatch(/^Saved/);
    const files = {
      withoutKey: join(folder, 'without-key.json'),
      withKey: join(folder, 'with-key.json'),
    };
    const connection = { baseUrl: ATTACKER, form: 'A' };
    await writeFile(
      files.withoutKey,
      JSON.stringify({ format: BACKUP_FORMAT, version: 1, settings: { connection } }),
    );
    await writeFile(
      files.withKey,
      JSON.stringify({
        format: BACKUP_FORMAT,
        version: 1,
        settings: { connection, apiKey: 'key-from-the-file-42' },
      }),
    );

    for (const file of [files.withoutKey, files.withKey]) {
      await chooseBackupFile(options, file);
      const dialog = await byRole(options, 'dialog', 'Use the addresses in this file?').waitHandle();
      const text = await dialog.evaluate((element) => element.textContent ?? '');
      expect(text).toContain(`now ${emulator.url}; the file says ${ATTACKER}`);
      // While the question is open, nothing is stored, so nothing is sent.
      await sleep(QUIET_MS);
      expect(counter.count()).toBe(0);
      await byRole(options, 'button', 'Cancel', { within: { role: 'dialog' } }).click();
      await waitForStatus(options, { startsWith: 'Not imported' }, { name: 'Backup' });
      await sleep(QUIET_MS);
      expect(counter.count()).toBe(0);
      expect(await fieldValue(options, 'Base URL')).toBe(emulator.url);
      expect(await storedValue(options, 'apiKey')).toBe(emulator.key);
    }
    expect(nativeDialogs).toEqual([]);

    // Positive control: once confirmed, the settings apply and the worker does call the new origin.
    await chooseBackupFile(options, files.withoutKey);
    await byRole(options, 'button', 'Import', { within: { role: 'dialog' } }).click();
    await waitForStatus(options, { startsWith: 'Imported' }, { name: 'Backup' });
    await expect.poll(() => counter.count(), { timeout: 15_000 }).toBeGreaterThan(0);
  } catch (error) {
    await saveFailureArtifacts(task, session).catch(() => undefined);
    throw error;
  } finally {
    await session.close();
    await counter.close();
    await rm(folder, { recursive: true, force: true });
  }
});

test('Test connection sends the key to a typed, unsaved origin only once it is confirmed (Chromium)', async ({
  emulator,
  site,
  task,
}) => {
  const counter = await connectionCounter();
  const session = await launchChromium({ site, args: attackerArgs(counter.port) });
  try {
    const options = await session.openOptions();
    const nativeDialogs = watchDialogs(options);
    expect(
      await configureExtension(options, { baseUrl: emulator.url, key: emulator.key, form: 'A' }),
    ).toMatch(/^Saved/);
    await sleep(1000);
    const callsBefore = emulator.admin.calls().length;

    await openSection(options, 'Setup');
    await byRole(options, 'textbox', 'Base URL').fill(ATTACKER);
    await byRole(options, 'button', 'Test connection').click();
    const dialog = await byRole(options, 'dialog', 'Send your API key to attacker.example?').waitHandle();
    expect(await dialog.evaluate((element) => element.textContent ?? '')).toContain(
      `sends your API key to ${ATTACKER}, which is not the saved service address (${emulator.url})`,
    );
    await sleep(QUIET_MS);
    expect(counter.count()).toBe(0);
    await byRole(options, 'button', 'Cancel', { within: { role: 'dialog' } }).click();
    await waitForStatus(options, `Not tested: the key was not sent to ${ATTACKER}.`);
    expect(counter.count()).toBe(0);
    // What was typed stays; nothing was saved.
    expect(await fieldValue(options, 'Base URL')).toBe(ATTACKER);
    expect(emulator.admin.calls()).toHaveLength(callsBefore);
    expect(nativeDialogs).toEqual([]);

    // Positive control on an origin that needs no host permission (loopback under another name):
    // confirmed, the key goes there and the connection is tested.
    const other = emulator.url.replace('127.0.0.1', 'localhost');
    await byRole(options, 'textbox', 'Base URL').fill(other);
    await byRole(options, 'button', 'Test connection').click();
    await byRole(options, 'dialog', { startsWith: 'Send your API key to localhost' }).wait();
    expect(emulator.admin.calls()).toHaveLength(callsBefore);
    await byRole(options, 'button', 'Send the key', { within: { role: 'dialog' } }).click();
    await waitForStatus(options, { startsWith: 'Connected' });
    expect(emulator.admin.calls().length).toBeGreaterThan(callsBefore);
    // Confirmed once on this page: asked no more.
    expect(await pressAndWaitForOutcome(options, 'Test connection')).toMatch(/^Connected/);
  } catch (error) {
    await saveFailureArtifacts(task, session).catch(() => undefined);
    throw error;
  } finally {
    await session.close();
    await counter.close();
  }
});
