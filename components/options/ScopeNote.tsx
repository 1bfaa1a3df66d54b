import { t, tParts } from '@/lib/i18n';
import { useAccount } from './account-context';

/** Which profile a section acts on; in Form B, that it acts on the whole account and why. */
export function ScopeNote() {
  const { capabilities, profile } = useAccount();
  if (!capabilities.profileSelection) {
    return (
      <p class="scope-note">
        {tParts('options.scope.wholeAccount', {
          wholeAccount: <strong>{t('options.account.wholeAccount')}</strong>,
        })}
      </p>
    );
  }
  return <p class="scope-note">{tParts('options.scope.profile', { profile: <strong>{profile}</strong> })}</p>;
}
