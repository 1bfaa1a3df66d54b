/**
 * Managed deployment in a real Firefox ESR (docs/managed-deployment.md): the "3rdparty" section of
 * the ESR install's policies.json sets up an account and requires the lock; the options page says
 * who manages it and shows the account as managed, without Rename or Remove.
 *
 * policies.json reaches every Firefox ESR on the machine. Its section names only the managed test
 * build's own add-on id (scripts/build/managed-test-build.ts), which no other test loads, and the
 * file is removed after the test, whatever its outcome. The test does not run when a policies.json
 * is there already (it is not this test's to replace), nor without root.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { beforeAll } from 'vitest';
import { MANAGED_TEST_GECKO_ID } from '../../scripts/build/managed-test-build.ts';
import { launchFirefox } from './harness/firefox.ts';
import { describe, expect, saveFailureArtifacts, test } from './harness/index.ts';
import { buildManagedTestBuild } from './harness/test-builds.ts';
import { expectManagedOfficeAccount } from './managed-policy-steps.ts';

const POLICIES_FILE = '/usr/lib/firefox-esr/distribution/policies.json';
const CAN_WRITE =
  process.getuid?.() === 0 && existsSync(dirname(POLICIES_FILE)) && !existsSync(POLICIES_FILE);

describe('Managed deployment (Firefox ESR)', () => {
  let buildDir = '';
  beforeAll(() => {
    if (CAN_WRITE) buildDir = buildManagedTestBuild('firefox');
  }, 180_000);

  test.skipIf(!CAN_WRITE)(
    'policies.json sets up the account and requires the lock; the options page shows them as managed (needs root and no policies.json of its own in the ESR install; skipped otherwise)',
    async ({ emulator, site, task }) => {
      mkdirSync(dirname(POLICIES_FILE), { recursive: true });
      writeFileSync(
        POLICIES_FILE,
        JSON.stringify({
          policies: {
            '3rdparty': {
              Extensions: {
                [MANAGED_TEST_GECKO_ID]: {
                  accounts: [{ name: 'Office', baseUrl: emulator.url, form: 'B', key: emulator.key }],
                  lockRequired: true,
                },
              },
            },
          },
        }),
      );
      try {
        const session = await launchFirefox({ site, extensionDir: buildDir });
        try {
          expect(session.extensionId).toBe(MANAGED_TEST_GECKO_ID);
          const page = session.optionsPage;
          await expectManagedOfficeAccount(page);
        } catch (error) {
          await saveFailureArtifacts(task, session);
          throw error;
        } finally {
          await session.close();
        }
      } finally {
        rmSync(POLICIES_FILE, { force: true });
      }
      expect(existsSync(POLICIES_FILE)).toBe(false);
    },
    180_000,
  );
});
