import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  CHROME_EXTENSION_DIR,
  E2E_BUILD_SNAPSHOTS_DIR,
  type ExtensionDirs,
  FIREFOX_EXTENSION_DIR,
  REPO_ROOT,
} from './harness/paths.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    e2eExtensionDirs: ExtensionDirs;
  }
}

const BUILDS = [
  ['npm', 'run', 'build'],
  ['npm', 'run', 'build:firefox'],
] as const;

function build(): void {
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

function snapshot(from: string, to: string): void {
  if (!existsSync(join(from, 'manifest.json'))) {
    throw new Error(
      `e2e setup: no built extension in ${from} (run \`npm run build && npm run build:firefox\`)`,
    );
  }
  cpSync(from, to, { recursive: true });
  if (!existsSync(join(to, 'manifest.json'))) {
    throw new Error(`e2e setup: ${from} changed while it was copied (a build running at the same time?)`);
  }
}

/**
 * The e2e tests drive the built extension, so both browsers' versions are built once per run
 * (about two seconds each): a stale build would test yesterday's code. E2E_SKIP_BUILD=1 skips
 * this when the caller has just built, as scripts/test-all.mjs does.
 *
 * The tests then load a private copy of the builds: a rebuild of .output/ during the run (an
 * editor's watcher, another terminal) would otherwise pull the extension out from under them.
 */
export default function setup(project: TestProject): () => void {
  if (process.env.E2E_SKIP_BUILD !== '1') build();
  mkdirSync(E2E_BUILD_SNAPSHOTS_DIR, { recursive: true });
  const runDir = mkdtempSync(join(E2E_BUILD_SNAPSHOTS_DIR, 'run-'));
  const dirs: ExtensionDirs = { chrome: join(runDir, 'chrome-mv3'), firefox: join(runDir, 'firefox-mv3') };
  try {
    snapshot(CHROME_EXTENSION_DIR, dirs.chrome);
    snapshot(FIREFOX_EXTENSION_DIR, dirs.firefox);
  } catch (error) {
    rmSync(runDir, { recursive: true, force: true });
    throw error;
  }
  project.provide('e2eExtensionDirs', dirs);
  return () => rmSync(runDir, { recursive: true, force: true });
}
