import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Where `npm run build` / `npm run build:firefox` write. */
export const CHROME_EXTENSION_DIR = fileURLToPath(new URL('../../../.output/chrome-mv3/', import.meta.url));
export const FIREFOX_EXTENSION_DIR = fileURLToPath(new URL('../../../.output/firefox-mv3/', import.meta.url));
/** Ignored by git; one folder per failed test. */
export const E2E_RESULTS_DIR = fileURLToPath(new URL('../../../test-results/e2e/', import.meta.url));
/** Ignored by git; each e2e run's private copy of the builds, removed when the run ends. */
export const E2E_BUILD_SNAPSHOTS_DIR = fileURLToPath(
  new URL('../../../test-results/e2e-builds/', import.meta.url),
);

export const CHROMIUM_EXECUTABLE = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const FIREFOX_EXECUTABLE = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

export interface ExtensionDirs {
  chrome: string;
  firefox: string;
}

/**
 * The builds the browsers load: this run's copy made by tests/e2e/global-setup.ts, or .output/
 * when the harness runs without that setup.
 */
export function builtExtensionDirs(): ExtensionDirs {
  let provided: ExtensionDirs | undefined;
  try {
    provided = inject('e2eExtensionDirs');
  } catch {
    provided = undefined;
  }
  return provided ?? { chrome: CHROME_EXTENSION_DIR, firefox: FIREFOX_EXTENSION_DIR };
}
