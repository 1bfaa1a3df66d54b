import { t } from '@/lib/i18n';
import { usePolicy } from './policy-context';
import './managed.css';

/**
 * "Managed by your organization": at the top of every view while an administrator's policy is
 * set (docs/managed-deployment.md), with what the policy requires and what of it could not be read.
 */
export function ManagedNotice() {
  const policy = usePolicy();
  if (policy === null || !policy.scope.managed) return null;
  const { lockRequired, problems } = policy.scope;
  return (
    <section class="managed-notice card" aria-labelledby="managed-heading">
      <h2 id="managed-heading" class="managed-heading">
        {t('policy.managedBy')}
      </h2>
      <p>{t('policy.managedIntro')}</p>
      {lockRequired && <p>{t('policy.lockRequired')}</p>}
      {problems.length > 0 && (
        <div class="message message-warning managed-problems" role="alert">
          <p>{t('policy.problemsHeading')}</p>
          <ul>
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
