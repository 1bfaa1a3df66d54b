/**
 * Host permissions the settings need, asked for when a setting needs one and given back when no
 * setting of any account needs it any more (the README's promise: turning a feature off gives its permission
 * back). Two features hold host permissions: a service origin other than the default, and the IP
 * lookup services while dynamic IP registration is on. Page diagnosis holds `<all_urls>`, asked
 * and given back by its own switch (lib/diagnosis/permissions.ts).
 */

import { readAccounts } from '@/lib/accounts/store';
import { lookupPermissionOrigins } from '@/lib/network/settings-form';
import { type ConnectionSettings, DEFAULT_BASE_URL, type DynamicIpSettings } from '@/lib/settings/storage';
import { LOOPBACK_HOST } from '@/lib/validation';

/**
 * The default service origin is granted at install (host_permissions). A loopback server used for
 * local testing answers with CORS headers, so it needs nothing. Any other origin is asked for at
 * runtime, when the user saves it: the extension never holds access to hosts the user did not choose.
 */
export function hostPermissionFor(origin: string): string | null {
  const url = new URL(origin);
  if (url.origin === new URL(DEFAULT_BASE_URL).origin) return null;
  if (LOOPBACK_HOST.test(url.hostname)) return null;
  return `${url.origin}/*`;
}

/** The settings that hold host permissions. */
export interface HostPermissionSettings {
  connection: Pick<ConnectionSettings, 'baseUrl'>;
  dynamicIp: Pick<DynamicIpSettings, 'enabled' | 'lookupUrls'>;
}

/**
 * Match patterns these settings need: the service's origin (unless default or loopback), the
 * lookup services' origins while dynamic IP is on. "Find this browser's address" asks the lookup
 * services without a permission of its own (they answer with CORS headers), so it holds none. A
 * setting that is absent (from a backup file) needs nothing.
 */
export function originsNeeded(settings: readonly Partial<HostPermissionSettings>[]): string[] {
  const origins = new Set<string>();
  for (const { connection, dynamicIp } of settings) {
    if (connection) {
      try {
        const service = hostPermissionFor(connection.baseUrl);
        if (service !== null) origins.add(service);
      } catch {
        // An unusable base URL needs nothing; Setup (or an import's validateBaseUrl) reports it.
      }
    }
    if (dynamicIp?.enabled) {
      for (const origin of lookupPermissionOrigins(dynamicIp.lookupUrls)) origins.add(origin);
    }
  }
  return [...origins];
}

/** The part of `browser.permissions` used here; tests pass a stand-in. */
export interface HostPermissionsApi {
  remove(permissions: { origins: string[] }): Promise<boolean>;
}

/**
 * The settings of every account of this browser (lib/accounts): a permission one account needs
 * is kept while another account's settings change, or another account becomes active.
 */
export async function readHostPermissionSettings(): Promise<HostPermissionSettings[]> {
  const { accounts } = await readAccounts();
  return accounts.map(({ connection, dynamicIp }) => ({ connection, dynamicIp }));
}

export interface HostPermissionDeps {
  permissions: HostPermissionsApi;
  /** Default: the stored settings of every account. */
  read?: () => Promise<HostPermissionSettings[]>;
}

/**
 * Runs `change` (a write of the settings) and then gives back each host permission the settings
 * needed before and need no more: a custom service origin left for another, lookup services of
 * dynamic IP turned off or replaced. An origin still needed by the other feature is kept. Giving
 * back needs no user gesture; a failure to give back changes nothing the user asked for.
 */
export async function changeSettingsKeepingHostPermissions<T>(
  deps: HostPermissionDeps,
  change: () => Promise<T>,
): Promise<T> {
  const read = deps.read ?? readHostPermissionSettings;
  const before = originsNeeded(await read());
  const result = await change();
  const after = new Set(originsNeeded(await read()));
  const unneeded = before.filter((origin) => !after.has(origin));
  if (unneeded.length > 0) {
    try {
      await deps.permissions.remove({ origins: unneeded });
    } catch {
      // Kept by the browser (or not held): nothing the user asked for depends on it.
    }
  }
  return result;
}
