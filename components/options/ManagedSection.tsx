import type { ComponentChildren } from 'preact';
import { t } from '@/lib/i18n';
import { isSectionClosed } from '@/lib/policy/managed';
import { usePolicy } from './policy-context';
import './managed.css';

/**
 * An options section the administrator's policy may close (docs/managed-deployment.md): closed, it
 * says so and every control in it is disabled (a disabled fieldset), while what it shows can still
 * be read. The worker refuses such changes too; this only keeps the page from offering them.
 */
export function ManagedSection({
  id,
  closed = false,
  message,
  children,
}: {
  /** The section's address (lib/options/routes.ts). */
  id: string;
  /** Closed for another reason of the policy (the active account is managed, say). */
  closed?: boolean;
  message?: string;
  children: ComponentChildren;
}) {
  const policy = usePolicy();
  const isClosed = closed || (policy !== null && isSectionClosed(policy.scope, id));
  if (!isClosed) return <>{children}</>;
  return (
    <div class="managed-section">
      <p class="message message-info managed-note">
        <span class="badge badge-managed">{t('policy.managed')}</span> {message ?? t('policy.sectionClosed')}
      </p>
      <fieldset class="managed-fieldset" disabled>
        {children}
      </fieldset>
    </div>
  );
}
