import preact from '@preact/preset-vite';
import { defineConfig } from 'wxt';
import { DIAGNOSIS_TEST_BUILD_TEMPLATE, diagnosisManifestEntries } from './lib/diagnosis/manifest';
import { inlinePageCss } from './scripts/build/inline-page-css';
import { MANAGED_TEST_GECKO_ID, MANAGED_TEST_MANIFEST_KEY } from './scripts/build/managed-test-build';
import { buildPopupAlone } from './scripts/build/popup-own-build';
import { preloadPageModule } from './scripts/build/preload-page-module';

// Firefox needs a fixed add-on id so storage survives reinstalls and tests can find it.
const GECKO_ID = 'dns-filter-companion@example.org';

// `npm run bench` (scripts/bench) builds the shipped extension into folders of its own
// (WXT_BENCH=shipped: .output/bench-shipped-<browser>-mv3), so a bench never overwrites
// .output/chrome-mv3 or .output/firefox-mv3.
const BENCH_BUILD = process.env.WXT_BENCH;

// Page diagnosis asks for its permissions at runtime (lib/diagnosis/manifest.ts). Its e2e tests
// need them granted at install, which DIAGNOSIS_PERMISSIONS_AT_INSTALL=1 does, in a folder of its
// own (.output/test-diagnosis-chrome-mv3) that no release is ever packed from.
const DIAGNOSIS_TEST_BUILD = process.env.DIAGNOSIS_PERMISSIONS_AT_INSTALL === '1';
const diagnosis = diagnosisManifestEntries(DIAGNOSIS_TEST_BUILD);

// The fault tests need service calls that give up within seconds rather than after the client's
// 15 s: API_TIMEOUT_FROM_STORAGE=1 builds, into a folder of its own (.output/test-timeout-chrome-mv3),
// an extension that reads that limit from storage (apiTimeoutForTestsItem, lib/settings/storage.ts).
// Every other build, the shipped one included, never reads it.
const TIMEOUT_TEST_BUILD = process.env.API_TIMEOUT_FROM_STORAGE === '1';

// The managed-policy e2e test writes a machine-wide policy file: MANAGED_POLICY_TEST_BUILD=1 builds,
// into a folder of its own (.output/test-managed-chrome-mv3), an extension with an id of its own
// (a manifest `key`, scripts/build/managed-test-build.ts), which no other test loads.
const MANAGED_TEST_BUILD = process.env.MANAGED_POLICY_TEST_BUILD === '1';

export default defineConfig({
  manifestVersion: 3,
  // @wxt-dev/i18n: locales/<lang>.yml become _locales/<lang>/messages.json, with typed keys.
  modules: ['@wxt-dev/webextension-polyfill', '@wxt-dev/i18n/module'],
  ...(BENCH_BUILD === 'shipped'
    ? { outDirTemplate: 'bench-shipped-{{browser}}-mv{{manifestVersion}}{{modeSuffix}}' }
    : {}),
  ...(DIAGNOSIS_TEST_BUILD ? { outDirTemplate: DIAGNOSIS_TEST_BUILD_TEMPLATE } : {}),
  ...(TIMEOUT_TEST_BUILD
    ? { outDirTemplate: 'test-timeout-{{browser}}-mv{{manifestVersion}}{{modeSuffix}}' }
    : {}),
  ...(MANAGED_TEST_BUILD
    ? { outDirTemplate: 'test-managed-{{browser}}-mv{{manifestVersion}}{{modeSuffix}}' }
    : {}),
  // `npm run zip`: the store archives (.output/*-chrome.zip, *-firefox.zip) and, for Firefox's
  // review, the sources to rebuild it from (*-sources.zip: `npm ci && npm run build:firefox`).
  // The sources leave out what only tests, benchmarks and the demo use, and their outputs.
  zip: {
    excludeSources: [
      // What tests, checks, benchmarks and the demo write.
      'test-results/**',
      'bench-results/**',
      'demo-screenshots/**',
      'stats.html',
      '**/*.log',
      // What only tests, checks, benchmarks and the demo read (tests/unit/build/sources-zip.test.ts
      // checks that each of these still names something).
      'tests/**',
      'emulator/**',
      'scripts/bench/**',
      'scripts/demo.ts',
      'scripts/test-all.mjs',
      'scripts/check-cycles.mjs',
      'vitest.config.ts',
      'vitest.e2e.config.ts',
      'knip.json',
    ],
  },
  hooks: {
    // The popup is built on its own, so it opens with one module (scripts/build/popup-own-build.ts).
    'entrypoints:grouped': (_wxt, groups) => buildPopupAlone(groups),
    // A bench or test build must never become a store archive.
    'zip:start': () => {
      if (BENCH_BUILD || DIAGNOSIS_TEST_BUILD || TIMEOUT_TEST_BUILD || MANAGED_TEST_BUILD)
        throw new Error(
          'Unset WXT_BENCH, DIAGNOSIS_PERMISSIONS_AT_INSTALL, API_TIMEOUT_FROM_STORAGE and MANAGED_POLICY_TEST_BUILD before `npm run zip`.',
        );
    },
  },
  vite: () => ({
    // The popup's stylesheet goes into popup.html, and its module is asked for before its first
    // script (scripts/build/inline-page-css.ts and preload-page-module.ts say why).
    plugins: [preact(), inlinePageCss(['popup/index.html']), preloadPageModule(['popup/index.html'])],
    // The diagnosis test build offers a 10-second temporary allow (lib/diagnosis/temporary-allow.ts);
    // the timeout test build reads the client's time limit from storage (lib/settings/storage.ts).
    define: {
      'import.meta.env.DIAGNOSIS_TEST_BUILD': JSON.stringify(DIAGNOSIS_TEST_BUILD),
      'import.meta.env.API_TIMEOUT_FROM_STORAGE': JSON.stringify(TIMEOUT_TEST_BUILD),
    },
  }),
  manifest: ({ browser }) => ({
    // The browser's language picks the locale (locales/*.yml); English when it has none.
    default_locale: 'en',
    name: '__MSG_extName__',
    description: '__MSG_extDescription__',
    permissions: [
      'storage',
      // Background worker: the dynamic IP re-registration timer and the outbox's retry with backoff.
      'alarms',
      // Background worker: "Whitelist / Blocklist this site" and "… link's domain" on right-click.
      'contextMenus',
      // Background worker: the outcome of a right-click or shortcut action, which has no page to show it.
      'notifications',
      // The popup and keyboard shortcuts read the current tab's address: clicking the toolbar
      // button or invoking a shortcut grants access to that tab only (no `tabs` permission).
      'activeTab',
      ...diagnosis.permissions,
    ],
    // "Diagnose pages" (options page): request errors and navigations of the pages the user visits,
    // asked for only when the user turns it on (lib/diagnosis/manifest.ts says why each is needed).
    optional_permissions: diagnosis.optional_permissions,
    // Background worker: whitelist / blocklist the current site for the last chosen profile.
    commands: {
      'whitelist-site': {
        suggested_key: { default: 'Alt+Shift+W' },
        description: '__MSG_commandWhitelistSite__',
      },
      'blocklist-site': {
        suggested_key: { default: 'Alt+Shift+B' },
        description: '__MSG_commandBlocklistSite__',
      },
    },
    // The default service; other origins are asked for when the user saves one.
    host_permissions: ['https://my.cleanbrowsing.org/*', ...diagnosis.host_permissions],
    // Custom service origins are asked for at runtime, when the user configures one; every site
    // when the user turns "Diagnose pages" on.
    optional_host_permissions: ['https://*/*', ...diagnosis.optional_host_permissions],
    action: { default_title: '__MSG_extName__' },
    // What an administrator's policy may set (docs/managed-deployment.md). Chrome checks the
    // policy against it; Firefox has no such key and hands over policies.json's "3rdparty"
    // section as it is (lib/policy/policy.ts checks both alike).
    ...(browser === 'firefox' ? {} : { storage: { managed_schema: 'managed_schema.json' } }),
    ...(MANAGED_TEST_BUILD && browser !== 'firefox' ? { key: MANAGED_TEST_MANIFEST_KEY } : {}),
    ...(browser === 'firefox'
      ? {
          browser_specific_settings: {
            gecko: {
              id: MANAGED_TEST_BUILD ? MANAGED_TEST_GECKO_ID : GECKO_ID,
              strict_min_version: '140.0',
              // Firefox's install-time data consent (required on addons.mozilla.org): the API key
              // goes to the service the user configured, and so do the domains of visited sites
              // the user whitelists or blocklists (PRIVACY.md). No analytics, nothing else.
              data_collection_permissions: { required: ['authenticationInfo', 'browsingActivity'] },
            },
          },
        }
      : {}),
  }),
});
