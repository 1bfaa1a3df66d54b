import { useEffect, useId, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { ApiError } from '@/lib/api/errors';
import { DIAGNOSIS_PERMISSIONS, diagnosisGranted, type PermissionSet } from '@/lib/diagnosis/permissions';
import { lookupPermissionOrigins } from '@/lib/network/settings-form';
import { hostPermissionFor } from '@/lib/settings/host-permission';
import { connectionItem, diagnosisSettingsItem, dynamicIpSettingsItem } from '@/lib/settings/storage';
import { StatusMessage } from '../StatusMessage';
import { useRemoteAction } from '../useRemoteAction';

/** The part of `browser.permissions` this section uses; tests pass a stand-in. */
export interface DiagnosisPermissionsApi {
  contains(permissions: PermissionSet): Promise<boolean>;
  request(permissions: PermissionSet): Promise<boolean>;
  remove(permissions: PermissionSet): Promise<boolean>;
  onAdded?: { addListener(cb: () => void): void; removeListener(cb: () => void): void };
  onRemoved?: { addListener(cb: () => void): void; removeListener(cb: () => void): void };
}

/** The setting, and whether the browser still grants its permissions (the user can withdraw them). */
function useDiagnosisState(permissions: DiagnosisPermissionsApi) {
  const [enabled, setEnabled] = useState(false);
  const [granted, setGranted] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    const check = () => void diagnosisGranted(permissions).then((value) => live && setGranted(value));
    let changed = false;
    // The first read can answer after a change made meanwhile: the change is newer.
    void diagnosisSettingsItem.getValue().then((value) => live && !changed && setEnabled(value.enabled));
    const unwatch = diagnosisSettingsItem.watch((value) => {
      changed = true;
      setEnabled(value.enabled);
      check();
    });
    check();
    permissions.onAdded?.addListener(check);
    permissions.onRemoved?.addListener(check);
    return () => {
      live = false;
      unwatch();
      permissions.onAdded?.removeListener(check);
      permissions.onRemoved?.removeListener(check);
    };
  }, [permissions]);
  return { enabled, granted };
}

/**
 * Host access the rest of the extension needs (a custom service origin, IP lookup URLs). Asking
 * for every site covers them, and a browser may then not have recorded them on their own: giving
 * every site back must not cut the extension off from the service.
 */
async function originsStillNeeded(): Promise<string[]> {
  const [connection, dynamicIp] = await Promise.all([
    connectionItem.getValue(),
    dynamicIpSettingsItem.getValue(),
  ]);
  const origins = new Set<string>(dynamicIp.enabled ? lookupPermissionOrigins(dynamicIp.lookupUrls) : []);
  try {
    const service = hostPermissionFor(connection.baseUrl);
    if (service !== null) origins.add(service);
  } catch {
    // An unusable base URL: Setup reports it.
  }
  return [...origins];
}

/**
 * "Diagnose pages": opt-in, because seeing why a page broke means watching the network errors of
 * every page. The browser's permission prompt is shown first thing in the click (browsers show it
 * only during a user gesture); turning it off gives the permissions back.
 */
export function DiagnosisSection({
  permissions = browser.permissions as DiagnosisPermissionsApi,
}: {
  permissions?: DiagnosisPermissionsApi;
}) {
  const { enabled, granted } = useDiagnosisState(permissions);
  const { status, run, busy } = useRemoteAction();
  const ids = { heading: useId(), toggle: useId(), explanation: useId() };

  const turnOn = () =>
    run(
      'Asking the browser for permission…',
      async () => {
        const allowed = await permissions.request(DIAGNOSIS_PERMISSIONS).catch(() => false);
        // A test build holds these permissions from install; asking again is then refused by some browsers.
        if (!allowed && !(await diagnosisGranted(permissions))) {
          throw new ApiError(
            'invalid-input',
            'Not turned on: the browser did not grant the permission. Nothing was changed.',
          );
        }
        await diagnosisSettingsItem.setValue({ enabled: true });
      },
      () =>
        'Page diagnosis is on. When a page looks broken, open the popup there: it lists the hosts that failed.',
    );

  const turnOff = () =>
    run(
      'Turning page diagnosis off…',
      async () => {
        await diagnosisSettingsItem.setValue({ enabled: false });
        await permissions.remove(DIAGNOSIS_PERMISSIONS).catch(() => false);
        const needed = await originsStillNeeded();
        const missing: string[] = [];
        for (const origin of needed) {
          if (!(await permissions.contains({ origins: [origin] }).catch(() => false))) missing.push(origin);
        }
        if (missing.length === 0) return 'Page diagnosis is off, and its permissions were given back.';
        const asked = await permissions.request({ origins: missing }).catch(() => false);
        if (asked) return 'Page diagnosis is off, and its permissions were given back.';
        const hosts = missing.map((origin) => new URL(origin.replace('/*', '/')).host).join(', ');
        return `Page diagnosis is off. The extension may no longer reach ${hosts}: press Save in Setup to allow it again.`;
      },
      (message) => message,
    );

  const withdrawn = enabled && granted === false;

  return (
    <section aria-labelledby={ids.heading}>
      <h2 id={ids.heading}>Page diagnosis</h2>
      <div class="check">
        <input
          id={ids.toggle}
          type="checkbox"
          checked={enabled && granted !== false}
          disabled={busy}
          aria-describedby={ids.explanation}
          onChange={(event) => void (event.currentTarget.checked ? turnOn() : turnOff())}
        />
        <label for={ids.toggle}>Diagnose pages</label>
      </div>
      <div id={ids.explanation} class="hint">
        <p>
          A DNS filter can break a page without blocking the page itself: it blocks a host the page loads
          something from, such as a video or a payment form. With this on, the extension notes which hosts of
          each page could not be reached the way a DNS block looks (the name did not resolve), and the popup
          lists them with a one-click Whitelist. The toolbar button shows how many there are.
        </p>
        <p>
          To see those errors, the browser asks you to let the extension observe the network requests and page
          loads of the sites you visit. Only host names are kept, in this browser, until the tab shows another
          page or closes; nothing is sent anywhere. Turning this off gives the permission back.
        </p>
      </div>
      {withdrawn && (
        <p class="status-failed">
          Page diagnosis is on, but the browser no longer grants its permission: tick the box to ask again.
        </p>
      )}
      <StatusMessage status={status} label="Page diagnosis" />
    </section>
  );
}
