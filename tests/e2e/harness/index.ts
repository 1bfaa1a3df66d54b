export {
  allByRole,
  byRole,
  chooseOption,
  readVisibleText,
  type TextMatch,
  textOf,
  waitForStatus,
} from './aria.ts';
export { type ChromiumSession, launchChromium } from './chromium.ts';
export { saveFailureArtifacts } from './failure-artifacts.ts';
export type { FirefoxSession } from './firefox.ts';
export {
  type ApiFormName,
  configureExtension,
  hourlyChartOf,
  openSection,
  pressAndWaitForOutcome,
  showSection,
  testConnection,
} from './options-page.ts';
export { builtExtensionDirs } from './paths.ts';
export type { SiteServer } from './site-server.ts';
export { describe, expect, test } from './test.ts';
