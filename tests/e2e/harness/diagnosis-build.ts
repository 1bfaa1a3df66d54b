import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './paths.ts';

/** The page-diagnosis test build: its optional permissions granted at install (lib/diagnosis/manifest.ts). */
export const DIAGNOSIS_TEST_BUILD_DIR = join(REPO_ROOT, '.output', 'test-diagnosis-chrome-mv3');

/**
 * Builds it, for a file's beforeAll: the global setup's E2E_SKIP_BUILD covers only the shipped
 * builds, and a stale test build would test yesterday's code. E2E_SKIP_DIAGNOSIS_BUILD=1 reuses the
 * one already there (quick reruns while developing). Returns its folder.
 */
export function buildDiagnosisTestBuild(): string {
  const reuse = process.env.E2E_SKIP_DIAGNOSIS_BUILD === '1';
  if (reuse && existsSync(join(DIAGNOSIS_TEST_BUILD_DIR, 'manifest.json'))) return DIAGNOSIS_TEST_BUILD_DIR;
  const result = spawnSync('npx', ['wxt', 'build'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, DIAGNOSIS_PERMISSIONS_AT_INSTALL: '1' },
  });
  if (result.status !== 0) throw new Error(`test build failed:\n${result.stdout}\n${result.stderr}`);
  return DIAGNOSIS_TEST_BUILD_DIR;
}
