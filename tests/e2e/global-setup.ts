import { spawnSync } from 'node:child_process';
import { REPO_ROOT } from './harness/paths.ts';

const BUILDS = [
  ['npm', 'run', 'build'],
  ['npm', 'run', 'build:firefox'],
] as const;

/**
 * The e2e tests drive the built extension in .output/, so build both browsers' versions once per
 * run (about two seconds each): a stale build would test yesterday's code. E2E_SKIP_BUILD=1 skips
 * this when the caller has just built, as scripts/test-all.mjs does.
 */
export default function buildExtensions(): void {
  if (process.env.E2E_SKIP_BUILD === '1') return;
  for (const command of BUILDS) {
    const [program, ...args] = command;
    const result = spawnSync(program, args, { cwd: REPO_ROOT, encoding: 'utf8' });
    if (result.status !== 0) {
      throw new Error(
        `e2e setup: \`${command.join(' ')}\` failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`,
      );
    }
  }
}
