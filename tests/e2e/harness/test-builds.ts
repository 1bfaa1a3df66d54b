import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './paths.ts';

/**
 * The test builds (wxt.config.ts), each in a folder of its own next to .output/chrome-mv3 that no
 * release is packed from: what sets each one apart is the variable it is built with.
 *   - diagnosis: page diagnosis's optional permissions granted at install (lib/diagnosis/manifest.ts);
 *   - timeout: the client's time limit read from storage, for the fault tests (lib/settings/storage.ts);
 *   - managed: an extension id of its own, for the managed-policy test (scripts/build/managed-test-build.ts).
 * Each for Chromium (`chrome`, the default) or Firefox (`firefox`), as `wxt build -b` names them.
 */
const TEST_BUILDS = {
  diagnosis: { variable: 'DIAGNOSIS_PERMISSIONS_AT_INSTALL', folder: 'test-diagnosis' },
  timeout: { variable: 'API_TIMEOUT_FROM_STORAGE', folder: 'test-timeout' },
  managed: { variable: 'MANAGED_POLICY_TEST_BUILD', folder: 'test-managed' },
} as const;
type TestBuild = keyof typeof TEST_BUILDS;
type BuildBrowser = 'chrome' | 'firefox';

const folderOf = (build: TestBuild, browser: BuildBrowser = 'chrome') =>
  join(REPO_ROOT, '.output', `${TEST_BUILDS[build].folder}-${browser}-mv3`);

export const DIAGNOSIS_TEST_BUILD_DIR = folderOf('diagnosis');
export const DIAGNOSIS_FIREFOX_TEST_BUILD_DIR = folderOf('diagnosis', 'firefox');
export const TIMEOUT_TEST_BUILD_DIR = folderOf('timeout');

/**
 * Builds one, for a file's beforeAll: the global setup's E2E_SKIP_BUILD covers only the shipped
 * builds, and a stale test build would test yesterday's code. E2E_SKIP_DIAGNOSIS_BUILD=1 reuses the
 * one already there (quick reruns while developing). Returns its folder.
 */
function buildTestBuild(build: TestBuild, browser: BuildBrowser = 'chrome'): string {
  const folder = folderOf(build, browser);
  const reuse = process.env.E2E_SKIP_DIAGNOSIS_BUILD === '1';
  if (reuse && existsSync(join(folder, 'manifest.json'))) return folder;
  const result = spawnSync('npx', ['wxt', 'build', '-b', browser], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, [TEST_BUILDS[build].variable]: '1' },
  });
  if (result.status !== 0) throw new Error(`test build failed:\n${result.stdout}\n${result.stderr}`);
  return folder;
}

export const buildDiagnosisTestBuild = (browser: BuildBrowser = 'chrome') =>
  buildTestBuild('diagnosis', browser);
export const buildTimeoutTestBuild = () => buildTestBuild('timeout');
export const buildManagedTestBuild = (browser: BuildBrowser = 'chrome') => buildTestBuild('managed', browser);
