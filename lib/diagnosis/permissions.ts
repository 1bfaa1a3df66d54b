/**
 * Whether page diagnosis may run: the user turned "Diagnose pages" on and the browser grants its
 * optional permissions (the user can withdraw them in the browser's settings at any time).
 */
import { diagnosisSettingsItem } from '@/lib/settings/storage';
import { DIAGNOSIS_API_PERMISSIONS, DIAGNOSIS_HOST_PERMISSIONS } from './manifest';

export interface PermissionSet {
  permissions?: string[];
  origins?: string[];
}

/** What "Diagnose pages" asks the browser for, in one prompt. */
export const DIAGNOSIS_PERMISSIONS: Required<PermissionSet> = {
  permissions: [...DIAGNOSIS_API_PERMISSIONS],
  origins: [...DIAGNOSIS_HOST_PERMISSIONS],
};

export interface PermissionsApi {
  contains(permissions: PermissionSet): Promise<boolean>;
}

export async function diagnosisGranted(api: PermissionsApi): Promise<boolean> {
  try {
    return await api.contains(DIAGNOSIS_PERMISSIONS);
  } catch {
    return false;
  }
}

export async function diagnosisActive(api: PermissionsApi): Promise<boolean> {
  const { enabled } = await diagnosisSettingsItem.getValue();
  return enabled && (await diagnosisGranted(api));
}

/** Whether a permissions.onAdded / onRemoved event concerns diagnosis. */
export function concernsDiagnosis(change: PermissionSet): boolean {
  return (
    (change.permissions ?? []).some((name) => DIAGNOSIS_PERMISSIONS.permissions.includes(name)) ||
    (change.origins ?? []).some((origin) => DIAGNOSIS_PERMISSIONS.origins.includes(origin))
  );
}
