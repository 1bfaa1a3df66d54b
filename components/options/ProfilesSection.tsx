import { useId, useState } from 'preact/hooks';
import { ApiError } from '@/lib/api/errors';
import { validateProfileName } from '@/lib/validation';
import { useConfirm } from '../ConfirmDialog';
import { StatusMessage } from '../StatusMessage';
import { useRemoteAction } from '../useRemoteAction';
import { useAccount } from './account-context';

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
  const { client, form } = useAccount();
  const { status, run, busy } = useRemoteAction();
  const { confirm, dialog } = useConfirm();
  const [name, setName] = useState('');
  const headingId = useId();
  const inputId = useId();
  const hintId = useId();

  const addProfile = async () => {
    const done = await run(
      `Adding profile ${name.trim()}…`,
      async () => {
        const checked = validateProfileName(name);
        if (!checked.ok) throw new ApiError('invalid-input', checked.message, { field: 'profile' });
        if (profiles.includes(checked.value)) {
          throw new ApiError('invalid-input', `There is already a profile called ${checked.value}.`);
        }
        await client.addProfile(checked.value);
        return checked.value;
      },
      (added) => `Added profile ${added}.`,
    );
    if (done !== undefined) {
      setName('');
      onChanged();
    }
  };

  const deleteProfile = async (profile: string) => {
    const confirmed = await confirm({
      title: `Delete profile ${profile}?`,
      message: <p>The profile and its settings are removed from your account. This cannot be undone.</p>,
      confirmLabel: 'Delete',
    });
    if (!confirmed) return;
    const done = await run(
      `Deleting profile ${profile}…`,
      async () => {
        await client.deleteProfile(profile);
        return true;
      },
      () => `Deleted profile ${profile}.`,
    );
    if (done) {
      if (profile === chosen) onChoose(PERMANENT_PROFILE);
      onChanged();
    }
  };

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Profiles</h2>
      <p class="hint">
        A profile is a set of filtering rules that applies to the networks registered with it.
        {form === 'B' ? ' In this API form the other sections act on the whole account.' : ''}
      </p>
      <ul class="plain-list" aria-label="Profiles" aria-busy={refreshing}>
        {profiles.map((profile) => (
          <li key={profile} class="row">
            <span class="row-text">
              {profile}
              {form === 'A' && profile === chosen ? <span class="badge"> shown below</span> : null}
            </span>
            {profile === PERMANENT_PROFILE ? (
              <span class="hint">always present</span>
            ) : (
              <button
                type="button"
                aria-label={`Delete profile ${profile}`}
                aria-disabled={busy}
                onClick={() => void deleteProfile(profile)}
              >
                Delete
              </button>
            )}
          </li>
        ))}
      </ul>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void addProfile();
        }}
      >
        <div class="field">
          <label for={inputId}>New profile name</label>
          <div class="inline">
            <input
              id={inputId}
              type="text"
              autoComplete="off"
              spellcheck={false}
              aria-describedby={hintId}
              value={name}
              onInput={(event) => setName(event.currentTarget.value)}
            />
            <button type="submit" aria-disabled={busy}>
              Add profile
            </button>
          </div>
          <p class="hint" id={hintId}>
            Letters and digits only, 4 to 64 characters.
          </p>
        </div>
      </form>
      <StatusMessage status={status} />
      {dialog}
    </section>
  );
}
