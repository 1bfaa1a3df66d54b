/**
 * The history story, the same in Chromium and Firefox (the options page is a puppeteer Page in
 * both): a snapshot taken from the History section, the account changed at the emulator behind
 * the extension's back, the change shown as made elsewhere, rolled back, and the emulator found
 * in the snapshot's state; then a removal in the options page's whitelist view, shown as made
 * from this browser.
 */
import type { Page } from 'puppeteer-core';
import type { EmulatorHandle } from '../../emulator/index.ts';
import { byRole, configureExtension, expect, openSection, textOf, waitForStatus } from './harness/index.ts';

const HISTORY = { role: 'region', name: 'History' };
const ELSEWHERE = 'history-elsewhere.example';

/** A call of Form A made straight to the service, as the dashboard or another browser would. */
async function changeElsewhere(emulator: EmulatorHandle, action: string, domain: string): Promise<void> {
  const url = new URL('/api', emulator.url);
  for (const [name, value] of Object.entries({
    apikey: emulator.key,
    action,
    domain_name: domain,
    profile_name: 'default',
  }))
    url.searchParams.set(name, value);
  const answer = await fetch(url);
  expect(answer.ok).toBe(true);
}

export async function historyStory(options: Page, emulator: EmulatorHandle): Promise<void> {
  await configureExtension(options, { baseUrl: emulator.url, key: emulator.key, form: 'A' });
  const before = structuredClone(emulator.admin.state().profiles);

  await openSection(options, 'History');
  await byRole(options, 'button', 'Take snapshot', { within: HISTORY }).click();
  await waitForStatus(options, 'Snapshot taken.', { within: HISTORY });

  // Elsewhere: the dashboard or another browser, straight to the service.
  const removed = before.default!.blocklist[0]!;
  await changeElsewhere(emulator, 'whitelist/add', ELSEWHERE);
  await changeElsewhere(emulator, 'blocklist/delete', removed);

  await byRole(options, 'button', 'Take snapshot', { within: HISTORY }).click();
  await waitForStatus(options, 'Snapshot taken.', { within: HISTORY });
  const row = await textOf(options, 'row', undefined, { within: HISTORY, text: { contains: ELSEWHERE } });
  expect(row).toContain('elsewhere');

  // The older snapshot, compared with now, then rolled back.
  const compares = byRole(options, 'button', { startsWith: 'Compare with now' }, { within: HISTORY });
  await compares.wait();
  const buttons = await options.$$('button[aria-label^="Compare with now"]');
  await buttons.at(-1)!.click();
  await byRole(options, 'button', { startsWith: 'Roll back' }, { within: HISTORY }).click();
  const dialog = { role: 'dialog', name: { startsWith: 'Roll back to the snapshot of' } };
  expect(await textOf(options, 'dialog', { startsWith: 'Roll back to the snapshot of' })).toContain(
    '2 changes, in these profiles: default.',
  );
  await byRole(options, 'button', { startsWith: 'Roll back 2 changes' }, { within: dialog }).click();
  await waitForStatus(options, 'Rollback done: 2 of 2 changes made.', { within: HISTORY });

  const after = emulator.admin.state().profiles.default!;
  expect(after.whitelist).not.toContain(ELSEWHERE);
  expect(after.blocklist).toContain(removed);
  expect([...after.whitelist].sort()).toEqual([...before.default!.whitelist].sort());
  expect([...after.blocklist].sort()).toEqual([...before.default!.blocklist].sort());

  // From this browser: a removal in the options page's whitelist view is named as this browser's.
  const mine = before.default!.whitelist[0]!;
  const WHITELIST = { role: 'region', name: 'Whitelist' };
  await openSection(options, 'Whitelist');
  await byRole(options, 'button', `Remove ${mine} from the whitelist`, { within: WHITELIST }).click();
  await waitForStatus(options, { startsWith: `Removed ${mine}` }, { within: WHITELIST });
  expect(emulator.admin.state().profiles.default!.whitelist).not.toContain(mine);
  await openSection(options, 'History');
  await byRole(options, 'button', 'Take snapshot', { within: HISTORY }).click();
  const mineRow = await textOf(options, 'row', undefined, { within: HISTORY, text: { contains: mine } });
  expect(mineRow).toContain('this browser, from the options page');
}
