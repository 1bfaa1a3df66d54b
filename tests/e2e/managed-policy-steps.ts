/**
 * What a policy that sets up the account "Office" and requires the lock shows in the options page,
 * the same in Chromium and Firefox (docs/managed-deployment.md): who manages it, and the account
 * marked as managed, without Rename or Remove.
 */
import type { Page } from 'puppeteer-core';
import { allByRole, byRole, expect, openSection, readVisibleText } from './harness/index.ts';

export async function expectManagedOfficeAccount(page: Page): Promise<void> {
  await byRole(page, 'heading', 'Managed by your organization').wait();
  const notice = await byRole(page, 'region', 'Managed by your organization').map(readVisibleText).wait();
  expect(notice).toContain('Your organization requires the passphrase lock.');

  // The account the policy set up, with its key: the page is set up, not the welcome.
  await openSection(page, 'Accounts');
  const accounts = await byRole(page, 'list', 'Your accounts').map(readVisibleText).wait();
  expect(accounts).toContain('Office');
  expect(accounts).toContain('Managed');
  expect(await allByRole(page, 'button', 'Rename Office')).toHaveLength(0);
  expect(await allByRole(page, 'button', 'Remove Office')).toHaveLength(0);
}
