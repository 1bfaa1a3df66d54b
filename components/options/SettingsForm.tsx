import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';
import { t } from '@/lib/i18n';
import { type SectionId, type SectionRoute, sectionById } from '@/lib/options/routes';
import { StatusMessage } from '../StatusMessage';
import type { ActionStatus } from '../useRemoteAction';
import { useUnsavedChanges } from './unsaved';

interface SettingsFormProps {
  /**
   * The section's row in the routes table: its heading (the navigation entry's name, also the
   * name of the status region), and the entry that says when changes are unsaved.
   */
  section: SectionId;
  /** The name of the section's one Save button. */
  saveLabel: string;
  unsaved: boolean;
  /** The section's saving (useRemoteAction): Save waits while it runs; its outcome is announced. */
  action: { status: ActionStatus; busy: boolean };
  onSave(): void;
  children: ComponentChildren;
}

/**
 * A settings section of the page's one save model: its heading, its fields, one Save button
 * usable only with unsaved changes (and a badge saying so), and the status region its outcomes
 * are announced in.
 */
export function SettingsForm({
  section,
  saveLabel,
  unsaved,
  action: { status, busy },
  onSave,
  children,
}: SettingsFormProps) {
  const headingId = useId();
  const title = t((sectionById(section) as SectionRoute).title);
  useUnsavedChanges(section, unsaved);
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSave();
        }}
      >
        {children}
        <div class="actions save-bar">
          <button type="submit" class="btn btn-primary" disabled={!unsaved || busy}>
            {saveLabel}
          </button>
          {unsaved && <span class="badge unsaved-badge">{t('saveModel.unsaved')}</span>}
        </div>
        <StatusMessage status={status} label={title} />
      </form>
    </section>
  );
}
