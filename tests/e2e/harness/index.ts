export {
  allByRole,
  byRole,
  chooseOption,
  type RoleOptions,
  readVisibleText,
  roleSelector,
  statusTexts,
  type TextMatch,
  textOf,
  waitForStatus,
} from './aria.ts';
export { type ChromiumSession, type LaunchChromiumOptions, launchChromium } from './chromium.ts';
export { saveFailureArtifacts } from './failure-artifacts.ts';
export { type FirefoxSession, type LaunchFirefoxOptions, launchFirefox } from './firefox.ts';
export {
  type ApiFormName,
  configureExtension,
  type ExtensionSetup,
  pressAndWaitForOutcome,
  testConnection,
} from './options-page.ts';
export { builtExtensionDirs, CHROME_EXTENSION_DIR, FIREFOX_EXTENSION_DIR } from './paths.ts';
export { type SiteServer, startSiteServer } from './site-server.ts';
export { describe, expect, test } from './test.ts';
