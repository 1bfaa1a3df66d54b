import { t } from '@/lib/i18n';

/** The one Save button of a settings section: usable only with unsaved changes, and saying so. */
export function SaveBar({ label, unsaved, busy }: { label: string; unsaved: boolean; busy: boolean }) {
  return (
    <div class="actions save-bar">
      <button type="submit" class="btn btn-primary" disabled={!unsaved || busy}>
        {label}
      </button>
      {unsaved && <span class="badge unsaved-badge">{t('saveModel.unsaved')}</span>}
    </div>
  );
}
