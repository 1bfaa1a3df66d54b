import { useEffect, useId, useState } from 'preact/hooks';
import { t } from '@/lib/i18n';
import { contextMenuSettingsItem } from '@/lib/settings/storage';
import { StatusMessage } from '../StatusMessage';
import { useRemoteAction } from '../useRemoteAction';
import { useStoredValue } from '../useStoredValue';
import { SaveBar } from './SaveBar';
import { useUnsavedChanges } from './unsaved';

/** The right-click menu switch and where the keyboard shortcuts are set; saved with its Save button. */
export function MenuSection() {
  const stored = useStoredValue(contextMenuSettingsItem, contextMenuSettingsItem.fallback);
  const [enabled, setEnabled] = useState<boolean | null>(null);
  const { status, run, busy } = useRemoteAction();
  const ids = { heading: useId(), menu: useId() };
  // The box follows the stored setting until the user changes it.
  const shown = enabled ?? stored.enabled;
  const unsaved = shown !== stored.enabled;
  useUnsavedChanges('menu', unsaved);
  useEffect(() => {
    if (enabled === stored.enabled) setEnabled(null);
  }, [stored.enabled]);

  const save = () =>
    run(
      t('setup.saving'),
      async () => {
        await contextMenuSettingsItem.setValue({ enabled: shown });
        setEnabled(null);
      },
      () => t('saveModel.saved'),
    );

  return (
    <section aria-labelledby={ids.heading}>
      <h2 id={ids.heading}>{t('dynamicIp.menuHeading')}</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <div class="check">
          <input
            id={ids.menu}
            type="checkbox"
            checked={shown}
            onChange={(event) => setEnabled(event.currentTarget.checked)}
          />
          <label for={ids.menu}>{t('dynamicIp.menuSwitch')}</label>
        </div>
        <p class="hint">{t('dynamicIp.shortcutsHint')}</p>
        <SaveBar label={t('saveModel.saveMenu')} unsaved={unsaved} busy={busy} />
        <StatusMessage status={status} label={t('dynamicIp.menuHeading')} />
      </form>
    </section>
  );
}
