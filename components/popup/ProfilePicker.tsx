import { t } from '@/lib/i18n';
import type { ReadyState } from '@/lib/popup/state';
import { profileChoices } from '@/lib/popup/view';

/** The profile the buttons act on, where the API form has profiles (lib/popup/view.ts `profileChoices`). */
export function ProfilePicker({ state, onChoose }: { state: ReadyState; onChoose(profile: string): void }) {
  const { chosen, options } = profileChoices(state);
  return (
    <p class="scope">
      <label>
        <span class="muted">{t('popup.profile')}</span>{' '}
        <select
          class="select"
          value={chosen}
          onChange={(event) => onChoose((event.currentTarget as HTMLSelectElement).value)}
        >
          {options.map((profile) => (
            <option key={profile} value={profile}>
              {profile}
            </option>
          ))}
        </select>
      </label>
    </p>
  );
}
