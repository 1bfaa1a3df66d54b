/**
 * The API key goes only to an origin the user confirmed: the default service (chosen at install),
 * the saved service origin (confirmed by Save, which asks for its host permission), or one the
 * user confirms now, with its host permission granted, before anything is sent there.
 */
import { ApiError } from '@/lib/api/errors';
import { t } from '@/lib/i18n';
import { DEFAULT_BASE_URL } from '@/lib/settings/storage';
import { hostPermissionFor } from './host-permission';

export interface KeyDestinationQuestion {
  /** The origin the key would go to, and its host name for a title. */
  origin: string;
  host: string;
  /** The saved service origin. */
  saved: string;
}

export interface KeyDestinationDeps {
  /** The saved service origin. */
  savedOrigin: () => Promise<string>;
  /** Asks the user; true only when they chose to send the key there. */
  confirm: (question: KeyDestinationQuestion) => Promise<boolean>;
  permissions: { request(permissions: { origins: string[] }): Promise<boolean> };
  /** Origins confirmed earlier on this page: not asked again. */
  confirmed?: Set<string>;
}

/**
 * Resolves once the key may go to `baseUrl` (an origin already checked by validateBaseUrl);
 * rejects with an 'invalid-input' ApiError on the base URL field when the user said no or the
 * browser did not grant the host permission. The permission is asked right after the user's
 * click on the confirming button, with nothing awaited in between: browsers show the prompt
 * only during a user gesture.
 */
export async function confirmKeyDestination(baseUrl: string, deps: KeyDestinationDeps): Promise<void> {
  const origin = new URL(baseUrl).origin;
  const saved = new URL(await deps.savedOrigin()).origin;
  if (origin === saved || origin === new URL(DEFAULT_BASE_URL).origin || deps.confirmed?.has(origin)) return;
  const permission = hostPermissionFor(origin);
  const yes = await deps.confirm({ origin, host: new URL(origin).host, saved });
  if (!yes) throw new ApiError('invalid-input', t('setup.notSent', { origin }), { field: 'baseUrl' });
  if (
    permission !== null &&
    !(await deps.permissions.request({ origins: [permission] }).catch(() => false))
  ) {
    throw new ApiError('invalid-input', t('setup.testPermissionRefused', { origin }), {
      field: 'baseUrl',
      permission,
    });
  }
  deps.confirmed?.add(origin);
}
