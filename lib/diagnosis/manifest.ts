/**
 * The manifest entries of page diagnosis, for wxt.config.ts (imported there by a relative path,
 * so this file imports nothing).
 *
 * - `webRequest`: the errors of a page's requests (`onErrorOccurred`), main frame and
 *   sub-resources alike; observing only, never blocking.
 * - `webNavigation`: when a tab shows a new page (`onCommitted`), which clears its failed hosts,
 *   and main-frame failures (`onErrorOccurred`).
 * - host access to every site: webRequest reports only requests to hosts the extension may access,
 *   and the host a page fails on can be any host.
 *
 * They are optional: asked for at runtime when the user turns "Diagnose pages" on, never at install.
 * The e2e test build (`DIAGNOSIS_PERMISSIONS_AT_INSTALL=1`) grants them at install instead, because
 * a headless browser cannot accept a permission prompt; it is built into a folder of its own.
 */
export const DIAGNOSIS_API_PERMISSIONS = ['webRequest', 'webNavigation'] as const;
export const DIAGNOSIS_HOST_PERMISSIONS = ['<all_urls>'] as const;

export function diagnosisManifestEntries(atInstall: boolean) {
  const apis: string[] = [...DIAGNOSIS_API_PERMISSIONS];
  const hosts: string[] = [...DIAGNOSIS_HOST_PERMISSIONS];
  return {
    permissions: atInstall ? apis : [],
    optional_permissions: atInstall ? [] : apis,
    host_permissions: atInstall ? hosts : [],
    optional_host_permissions: atInstall ? [] : hosts,
  };
}

/** The folder the test build is written to, next to .output/chrome-mv3. */
export const DIAGNOSIS_TEST_BUILD_TEMPLATE = 'test-diagnosis-{{browser}}-mv{{manifestVersion}}{{modeSuffix}}';
