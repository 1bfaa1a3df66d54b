import { useId, useState } from 'preact/hooks';
import { type PlainKey, t } from '@/lib/i18n';
import { themeItem } from '@/lib/settings/storage';
import { type Theme, themeSchema } from '@/lib/settings/theme-choice';
import { applyTheme, cacheTheme } from '@/lib/theme/theme';
import { useStoredState } from '../useStoredValue';

const THEME_LABELS: Record<Theme, PlainKey> = {
  system: 'appearance.system',
  light: 'appearance.light',
  dark: 'appearance.dark',
};

/** Light or dark pages (options and popup), or whatever the system uses. */
export function AppearanceSection({ cache = globalThis.localStorage }: { cache?: Storage }) {
  const [theme, setTheme] = useStoredState<Theme>(themeItem, 'system');
  const [failed, setFailed] = useState(false);
  const ids = { heading: useId(), select: useId(), hint: useId() };

  const choose = (value: string) => {
    const parsed = themeSchema.safeParse(value);
    if (!parsed.success) return;
    setTheme(parsed.data);
    // Shown at once; the other open pages follow the stored item.
    applyTheme(document.documentElement, parsed.data);
    cacheTheme(cache, parsed.data);
    themeItem.setValue(parsed.data).then(
      () => setFailed(false),
      () => setFailed(true),
    );
  };

  return (
    <section aria-labelledby={ids.heading}>
      <h2 id={ids.heading}>{t('appearance.heading')}</h2>
      <div class="field">
        <label for={ids.select}>{t('appearance.theme')}</label>
        <select
          id={ids.select}
          value={theme}
          aria-describedby={ids.hint}
          onChange={(event) => choose(event.currentTarget.value)}
        >
          {themeSchema.options.map((value) => (
            <option key={value} value={value}>
              {t(THEME_LABELS[value])}
            </option>
          ))}
        </select>
        <p id={ids.hint} class="hint">
          {t('appearance.hint')}
        </p>
      </div>
      {failed ? (
        <p class="status-failed" role="alert">
          {t('appearance.saveFailed')}
        </p>
      ) : null}
    </section>
  );
}
