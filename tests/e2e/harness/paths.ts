import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const CHROME_EXTENSION_DIR = fileURLToPath(new URL('../../../.output/chrome-mv3/', import.meta.url));
export const FIREFOX_EXTENSION_DIR = fileURLToPath(new URL('../../../.output/firefox-mv3/', import.meta.url));
/** Ignored by git; one folder per failed test. */
export const E2E_RESULTS_DIR = fileURLToPath(new URL('../../../test-results/e2e/', import.meta.url));

export const CHROMIUM_EXECUTABLE = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const FIREFOX_EXECUTABLE = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
