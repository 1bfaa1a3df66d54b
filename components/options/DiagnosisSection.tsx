import { useEffect, useId, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { ApiError } from '@/lib/api/errors';
import { DIAGNOSIS_PERMISSIONS, diagnosisGranted, type PermissionSet } from '@/lib/diagnosis/permissions';
import { t } from '@/lib/i18n';
import { originsNeeded, readHostPermissionSettings } from '@/lib/permissions/host-permission';
import { diagnosisSettingsItem } from '@/lib/settings/storage';
import { useRemoteAction } from '../useRemoteAction';
import { useStoredValue } from '../useStoredValue';
import { SettingsForm } from './SettingsForm';

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
  const settings = useStoredValue(diagnosisSettingsItem, null);
  const [granted, setGranted] = useState<boolean | null>(null);
  // Checked again whenever the setting changes, and whenever the browser adds or removes permissions.
  useEffect(() => {
    let live = true;
    const check = () => void diagnosisGranted(permissions).then((value) => live && setGranted(value));
    check();
    permissions.onAdded?.addListener(check);
    permissions.onRemoved?.addListener(check);
    return () => {
      live = false;
      permissions.onAdded?.removeListener(check);
      permissions.onRemoved?.removeListener(check);
    };
  }, [permissions, settings]);
  return { enabled: settings?.enabled ?? false, granted };
}

/**
 * Host access the rest of the extension needs (a custom service origin, IP lookup URLs). Asking
 * for every site covers them, and a browser may then not have recorded them on their own: giving
 * every site back must not cut the extension off from the service.
 */
async function originsStillNeeded(): Promise<string[]> {
  return originsNeeded(await readHostPermissionSettings());
}

/**
 * "Diagnose pages": opt-in, because seeing why a page broke means watching the network errors of
 * every page. Saved with the section's Save button, like every setting: the browser's permission
 * prompt is shown first thing in that click (browsers show it only during a user gesture);
 * turning it off gives the permissions back.
 */
export function DiagnosisSection({
  permissions = browser.permissions as DiagnosisPermissionsApi,
}: {
  permissions?: DiagnosisPermissionsApi;
}) {
  const { enabled, granted } = useDiagnosisState(permissions);
  const action = useRemoteAction();
  const { run, busy } = action;
  const ids = { toggle: useId(), explanation: useId() };
  const [wanted, setWanted] = useState<boolean | null>(null);

  const turnOn = () =>
    run(
      t('diagnosis.asking'),
      async () => {
        const allowed = await permissions.request(DIAGNOSIS_PERMISSIONS).catch(() => false);
        // A test build holds these permissions from install; asking again is then refused by some browsers.
        if (!allowed && !(await diagnosisGranted(permissions))) {
          throw new ApiError('invalid-input', t('diagnosis.notGranted'));
        }
        await diagnosisSettingsItem.setValue({ enabled: true });
      },
      () => t('diagnosis.on'),
    );

  const turnOff = () =>
    run(
      t('diagnosis.turningOff'),
      async () => {
        await diagnosisSettingsItem.setValue({ enabled: false });
        await permissions.remove(DIAGNOSIS_PERMISSIONS).catch(() => false);
        const needed = await originsStillNeeded();
        const missing: string[] = [];
        for (const origin of needed) {
          if (!(await permissions.contains({ origins: [origin] }).catch(() => false))) missing.push(origin);
        }
        if (missing.length === 0) return t('diagnosis.off');
        const asked = await permissions.request({ origins: missing }).catch(() => false);
        if (asked) return t('diagnosis.off');
        const hosts = missing.map((origin) => new URL(origin.replace('/*', '/')).host).join(', ');
        return t('diagnosis.offLostHosts', { hosts });
      },
      (message) => message,
    );

  const withdrawn = enabled && granted === false;
  const on = enabled && granted !== false;
  const shown = wanted ?? on;
  const unsaved = wanted !== null && wanted !== on;

  const save = async () => {
    // Whatever the outcome, the box shows the state it led to.
    await (shown ? turnOn() : turnOff());
    setWanted(null);
  };

  return (
    <SettingsForm
      section="diagnosis"
      saveLabel={t('saveModel.saveDiagnosis')}
      unsaved={unsaved}
      action={action}
      onSave={() => void save()}
    >
      <div class="check">
        <input
          id={ids.toggle}
          type="checkbox"
          checked={shown}
          disabled={busy}
          aria-describedby={ids.explanation}
          onChange={(event) => setWanted(event.currentTarget.checked)}
        />
        <label for={ids.toggle}>{t('diagnosis.toggle')}</label>
      </div>
      <div id={ids.explanation} class="hint">
        <p>{t('diagnosis.explanation1')}</p>
        <p>{t('diagnosis.explanation2')}</p>
      </div>
      {withdrawn && <p class="status-failed">{t('diagnosis.withdrawn')}</p>}
    </SettingsForm>
  );
}
