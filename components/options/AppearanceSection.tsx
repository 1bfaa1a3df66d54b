import { useEffect, useId, useState } from 'preact/hooks';
import { type PlainKey, t } from '@/lib/i18n';
import { themeItem } from '@/lib/settings/storage';
import { isThemeChoice, THEME_CHOICES, type Theme } from '@/lib/settings/theme-choice';
import { applyTheme, cacheTheme } from '@/lib/theme/theme';
import { useRemoteAction } from '../useRemoteAction';
import { useStoredValue } from '../useStoredValue';
import { SettingsForm } from './SettingsForm';

const THEME_LABELS: Record<Theme, PlainKey> = {
  system: 'appearance.system',
  light: 'appearance.light',
  dark: 'appearance.dark',
};

/**
 * Light or dark pages (options and popup), or whatever the system uses. A choice is shown on
 * this page at once, as a preview; Save keeps it for the popup and the next opening.
 */
export function AppearanceSection({ cache = globalThis.localStorage }: { cache?: Storage }) {
  const stored = useStoredValue<Theme, Theme>(themeItem, 'system');
  const [chosen, setChosen] = useState<Theme | null>(null);
  const action = useRemoteAction();
  const { run, setStatus } = action;
  const ids = { select: useId(), hint: useId() };
  const shown = chosen ?? stored;
  const unsaved = chosen !== null && chosen !== stored;
  // A theme stored elsewhere (a restored backup) is shown unless the user is choosing one.
  useEffect(() => {
    if (chosen === stored) setChosen(null);
  }, [stored]);

  const choose = (value: string) => {
    if (!isThemeChoice(value)) return;
    setChosen(value);
    applyTheme(document.documentElement, value);
  };

  const save = async () => {
    const saved = await run(
      t('setup.saving'),
      async () => {
        cacheTheme(cache, shown);
        const stored = await themeItem.setValue(shown).then(
          () => true,
          () => false,
        );
        if (stored) setChosen(null);
        return stored;
      },
      (stored) => (stored ? t('saveModel.saved') : t('appearance.saveFailed')),
    );
    if (saved === false) setStatus({ state: 'failed', message: t('appearance.saveFailed') });
  };

  return (
    <SettingsForm
      section="appearance"
      saveLabel={t('saveModel.saveAppearance')}
      unsaved={unsaved}
      action={action}
      onSave={() => void save()}
    >
      <div class="field">
        <label for={ids.select}>{t('appearance.theme')}</label>
        <select
          id={ids.select}
          value={shown}
          aria-describedby={ids.hint}
          onChange={(event) => choose(event.currentTarget.value)}
        >
          {THEME_CHOICES.map((value) => (
            <option key={value} value={value}>
              {t(THEME_LABELS[value])}
            </option>
          ))}
        </select>
        <p id={ids.hint} class="hint">
          {t('appearance.hint')}
        </p>
      </div>
    </SettingsForm>
  );
}
