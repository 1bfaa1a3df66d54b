/**
 * Managed deployment in a real Chromium (docs/managed-deployment.md): a policy file in
 * /etc/chromium/policies/managed/ sets up an account and requires the lock; the options page says
 * who manages it, shows the account as managed and refuses to change it, and the worker refuses
 * its removal.
 *
 * A policy file reaches every Chromium on the machine. Its policy names only the managed test
 * build's own extension id (scripts/build/managed-test-build.ts), which no other test loads, and
 * the file is removed after the test, whatever its outcome. Writing it needs root (as in CI).
 */
import { existsSync, mkdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll } from 'vitest';
import { MANAGED_TEST_EXTENSION_ID } from '../../scripts/build/managed-test-build.ts';
import {
  byRole,
  describe,
  expect,
  launchChromium,
  openSection,
  saveFailureArtifacts,
  test,
} from './harness/index.ts';
import { buildManagedTestBuild } from './harness/test-builds.ts';
import { expectManagedOfficeAccount } from './managed-policy-steps.ts';

const POLICY_DIR = '/etc/chromium/policies/managed';
const POLICY_FILE = join(POLICY_DIR, `dns-filter-companion-e2e-${process.pid}.json`);
const IS_ROOT = process.getuid?.() === 0;

/** Writes the policy; returns what removes it again (and the folders it had to create). */
function writePolicy(policy: Record<string, unknown>): () => void {
  const created = ['/etc/chromium', '/etc/chromium/policies', POLICY_DIR].filter((dir) => !existsSync(dir));
  mkdirSync(POLICY_DIR, { recursive: true });
  writeFileSync(
    POLICY_FILE,
    JSON.stringify({ '3rdparty': { extensions: { [MANAGED_TEST_EXTENSION_ID]: policy } } }, null, 2),
  );
  return () => {
    rmSync(POLICY_FILE, { force: true });
    for (const dir of created.reverse()) rmdirSync(dir);
  };
}

describe('Managed deployment (Chromium)', () => {
  let buildDir = '';
  beforeAll(() => {
    if (IS_ROOT) buildDir = buildManagedTestBuild();
  }, 180_000);

  test.skipIf(!IS_ROOT)(
    'a policy file sets up the account and requires the lock; the options page shows them as managed and refuses changes (needs root to write /etc/chromium/policies/managed; skipped otherwise)',
    async ({ emulator, site, task }) => {
      const removePolicy = writePolicy({
        accounts: [{ name: 'Office', baseUrl: emulator.url, form: 'A', key: emulator.key }],
        lockRequired: true,
        closedOptionsSections: ['whitelist'],
      });
      try {
        const session = await launchChromium({ site, extensionDir: buildDir });
        try {
          expect(session.extensionId).toBe(MANAGED_TEST_EXTENSION_ID);
          const page = await session.openOptions();
          await expectManagedOfficeAccount(page);

          // Setup of the managed active account: its fields cannot be changed.
          await openSection(page, 'Setup');
          const setup = await byRole(page, 'region', 'Setup').waitHandle();
          const enabledFields = await setup.evaluate(
            (region) =>
              [...region.querySelectorAll('input, select, textarea, button')].filter(
                (control) => !(control as HTMLInputElement).matches(':disabled'),
              ).length,
          );
          expect(enabledFields).toBe(0);

          // The closed Whitelist section: its list is shown, nothing in it can be used.
          await openSection(page, 'Whitelist');
          const whitelist = await byRole(page, 'region', 'Whitelist').waitHandle();
          await expect
            .poll(() =>
              whitelist.evaluate((region) =>
                [...region.querySelectorAll('input, button')].every((control) =>
                  (control as HTMLInputElement).matches(':disabled'),
                ),
              ),
            )
            .toBe(true);

          // The worker refuses what the page does not offer: removing the managed account.
          const refused = await page.evaluate(`(async () => {
            const { accounts } = await chrome.storage.local.get('accounts');
            const office = accounts.accounts.find((entry) => entry.name === 'Office');
            return chrome.runtime.sendMessage({ type: 'remove-account', accountId: office.id });
          })()`);
          expect(refused).toEqual({ removed: false, discarded: 0 });
        } catch (error) {
          await saveFailureArtifacts(task, session);
          throw error;
        } finally {
          await session.close();
        }
      } finally {
        removePolicy();
      }
      expect(existsSync(POLICY_FILE)).toBe(false);
    },
    180_000,
  );
});
