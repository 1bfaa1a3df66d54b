import { useId, useState } from 'preact/hooks';
import { ApiError } from '@/lib/api/errors';
import { t } from '@/lib/i18n';
import { validateProfileName } from '@/lib/validation';
import { useConfirm } from '../ConfirmDialog';
import { StatusMessage } from '../StatusMessage';
import { useRemoteAction } from '../useRemoteAction';
import { useAccount } from './account-context';
import { CopyProfilePanel } from './CopyProfilePanel';
import { OneLineForm } from './OneLineForm';

interface ProfilesSectionProps {
  profiles: readonly string[];
  /** The profile the other sections act on (Form A). */
  chosen: string;
  refreshing: boolean;
  /** The account's profiles changed: list them again. */
  onChanged: () => void;
  onChoose: (profile: string) => void;
}

/** The service needs `default`: it is used whenever a request names no profile. */
const PERMANENT_PROFILE = 'default';

export function ProfilesSection({ profiles, chosen, refreshing, onChanged, onChoose }: ProfilesSectionProps) {
  const { client, capabilities } = useAccount();
  const { status, run, busy } = useRemoteAction();
  const { confirm, dialog } = useConfirm();
  const [name, setName] = useState('');
  const headingId = useId();

  const addProfile = async () => {
    const done = await run(
      t('profiles.adding', { profile: name.trim() }),
      async () => {
        const checked = validateProfileName(name);
        if (!checked.ok) throw new ApiError('invalid-input', checked.message, { field: 'profile' });
        if (profiles.includes(checked.value)) {
          throw new ApiError('invalid-input', t('profiles.exists', { profile: checked.value }));
        }
        await client.addProfile(checked.value);
        return checked.value;
      },
      (added) => t('profiles.added', { profile: added }),
    );
    if (done !== undefined) {
      setName('');
      onChanged();
    }
  };

  const deleteProfile = async (profile: string) => {
    const confirmed = await confirm({
      title: t('profiles.confirmTitle', { profile }),
      message: <p>{t('profiles.confirmText')}</p>,
      confirmLabel: t('common.delete'),
    });
    if (!confirmed) return;
    const done = await run(
      t('profiles.deleting', { profile }),
      async () => {
        await client.deleteProfile(profile);
        return true;
      },
      () => t('profiles.deleted', { profile }),
    );
    if (done) {
      if (profile === chosen) onChoose(PERMANENT_PROFILE);
      onChanged();
    }
  };

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('profiles.heading')}</h2>
      <p class="hint">
        {t('profiles.about')}
        {capabilities.profileSelection ? '' : ` ${t('profiles.aboutFormB')}`}
      </p>
      <ul class="plain-list" aria-label={t('profiles.listName')} aria-busy={refreshing}>
        {profiles.map((profile) => (
          <li key={profile} class="row">
            <span class="row-text">
              {profile}
              {capabilities.profileSelection && profile === chosen ? (
                <span class="badge"> {t('profiles.shownBelow')}</span>
              ) : null}
            </span>
            {profile === PERMANENT_PROFILE ? (
              <span class="hint">{t('profiles.alwaysPresent')}</span>
            ) : (
              <button
                type="button"
                aria-label={t('profiles.deleteNamed', { profile })}
                aria-disabled={busy}
                onClick={() => void deleteProfile(profile)}
              >
                {t('common.delete')}
              </button>
            )}
          </li>
        ))}
      </ul>
      <OneLineForm
        label={t('profiles.newName')}
        hint={t('profiles.nameHint')}
        value={name}
        onInput={setName}
        submitLabel={t('profiles.add')}
        busy={busy}
        onSubmit={() => void addProfile()}
      />
      <StatusMessage status={status} />
      {dialog}
      {capabilities.profileSelection && profiles.length > 0 && (
        <CopyProfilePanel profiles={profiles} onChanged={onChanged} />
      )}
    </section>
  );
}
