/**
 * What the worker refuses because of the administrator's policy. The pages do not offer what the
 * policy closes; the worker refuses it all the same, since any page of the extension can send a
 * request (docs/managed-deployment.md, "Who enforces what").
 */
import { t } from '@/lib/i18n';
import { isSectionClosed, type ManagedScope } from './managed';

/**
 * The refusal of a change to `list` asked from the popup or from another page (the options page's
 * logs table), or null when the policy allows it.
 */
export function listChangeRefusal(
  scope: ManagedScope,
  from: 'popup' | 'page',
  list: 'whitelist' | 'blocklist',
): string | null {
  if (from === 'popup') return scope.popupChanges ? null : t('policy.refused.popup');
  return isSectionClosed(scope, list) ? t('policy.sectionClosed') : null;
}

/** The refusal of a right-click menu item or a shortcut, or null when the policy allows them. */
export const menuChangeRefusal = (scope: ManagedScope): string | null =>
  scope.menuChanges ? null : t('policy.refused.menu');

/** Whether account `id` may be removed from this browser by the user. */
export const mayRemoveAccount = (
  policy: { scope: ManagedScope; managedAccounts: ReadonlySet<string> },
  id: string,
): boolean => !policy.managedAccounts.has(id) && !isSectionClosed(policy.scope, 'accounts');
