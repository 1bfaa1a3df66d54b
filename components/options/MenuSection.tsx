import { useEffect, useId, useState } from 'preact/hooks';
import { t } from '@/lib/i18n';
import { contextMenuSettingsItem } from '@/lib/settings/storage';
import { useRemoteAction } from '../useRemoteAction';
import { useStoredValue } from '../useStoredValue';
import { SettingsForm } from './SettingsForm';

/** The right-click menu switch and where the keyboard shortcuts are set; saved with its Save button. */
export function MenuSection() {
  const stored = useStoredValue(contextMenuSettingsItem, contextMenuSettingsItem.fallback);
  const [enabled, setEnabled] = useState<boolean | null>(null);
  const action = useRemoteAction();
  const { run } = action;
  const menuId = useId();
  // The box follows the stored setting until the user changes it.
  const shown = enabled ?? stored.enabled;
  const unsaved = shown !== stored.enabled;
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
    <SettingsForm
      section="menu"
      saveLabel={t('saveModel.saveMenu')}
      unsaved={unsaved}
      action={action}
      onSave={() => void save()}
    >
      <div class="check">
        <input
          id={menuId}
          type="checkbox"
          checked={shown}
          onChange={(event) => setEnabled(event.currentTarget.checked)}
        />
        <label for={menuId}>{t('dynamicIp.menuSwitch')}</label>
      </div>
      <p class="hint">{t('dynamicIp.shortcutsHint')}</p>
    </SettingsForm>
  );
}
