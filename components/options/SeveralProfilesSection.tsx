/**
 * "Several profiles" in the Whitelist and Blocklist views (Form A; docs/several-profiles.md): a
 * domain typed here goes on a list of several profiles or of a saved group at once, through the
 * worker's outbox, with the popup's preview, outcomes and Retry (SeveralProfilesPanel).
 */
import { useId, useState } from 'preact/hooks';
import { followedAccounts, listAccounts } from '@/lib/accounts';
import { t } from '@/lib/i18n';
import type { SeveralProfilesActions } from '@/lib/profile-groups/page-actions';
import { normaliseDomainInput } from '@/lib/validation';
import { SeveralProfilesPanel } from '../popup/SeveralProfilesPanel';
import { useStoredValue } from '../useStoredValue';
import { useAccount } from './account-context';

export function SeveralProfilesSection({ actions }: { actions?: SeveralProfilesActions }) {
  const { capabilities, profile, profiles } = useAccount();
  const shownAccount = useStoredValue(followedAccounts, null)?.activeId ?? null;
  const [typed, setTyped] = useState('');
  const headingId = useId();
  const inputId = useId();
  if (!capabilities.profileSelection || profiles.length < 2) return null;
  const domain = normaliseDomainInput(typed);
  return (
    <section aria-labelledby={headingId} class="card several-profiles-options">
      <h3 id={headingId}>{t('profileGroups.options.heading')}</h3>
      <p class="hint">{t('profileGroups.options.about')}</p>
      <div class="field">
        <label for={inputId}>{t('profileGroups.options.domain')}</label>
        <input
          id={inputId}
          type="text"
          autoComplete="off"
          spellcheck={false}
          value={typed}
          onInput={(event) => setTyped(event.currentTarget.value)}
        />
        {typed.trim() !== '' && !domain.ok && <p class="hint">{domain.message}</p>}
      </div>
      {domain.ok && (
        <SeveralProfilesPanel
          key={domain.value}
          domain={domain.value}
          profile={profile ?? 'default'}
          profiles={profiles}
          membership={null}
          source="options"
          // Not read yet: the active one is what the page shows (as the Logs section does).
          shownAccount={async () => shownAccount ?? (await listAccounts()).activeId}
          {...(actions ? { actions } : {})}
        />
      )}
    </section>
  );
}
