import { useId, useState } from 'preact/hooks';
import { describeCategory, mergeWithCatalogue } from '@/lib/api/categories';
import { capabilitiesOf } from '@/lib/api/forms';
import type { DnsFilterApi } from '@/lib/api/types';
import { t } from '@/lib/i18n';
import { WEEKDAYS } from '@/lib/schedules/model';
import { type AccountStateNow, dayName, type ScheduleDraft } from '@/lib/schedules/options';
import { FailureNotice } from '../StatusMessage';
import { useRemoteData } from '../useRemoteData';

interface ScheduleEditorProps {
  client: DnsFilterApi;
  draft: ScheduleDraft;
  profiles: readonly string[];
  busy: boolean;
  onSave: (draft: ScheduleDraft, now: AccountStateNow) => void;
  onCancel: () => void;
}

/**
 * The editor of one schedule: name, profile, days, the time, what is blocked then, and the
 * account's lead. What the user typed stays until it is saved or cancelled, whatever the save says.
 */
export function ScheduleEditor({
  client,
  draft: initial,
  profiles,
  busy,
  onSave,
  onCancel,
}: ScheduleEditorProps) {
  const [draft, setDraft] = useState(initial);
  const headingId = useId();
  const id = useId();
  const withProfiles = capabilitiesOf(client.form).profileSelection;
  const categories = useRemoteData(
    (signal) => client.listCategories(draft.profile, { signal }),
    [client, draft.profile],
  );
  const set = (patch: Partial<ScheduleDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const toggle = <T,>(list: readonly T[], value: T, on: boolean) =>
    on ? [...list.filter((item) => item !== value), value] : list.filter((item) => item !== value);
  const crossesMidnight = draft.end <= draft.start && draft.end !== draft.start;
  const states = categories.data.data;

  return (
    <form
      class="card schedule-editor"
      aria-labelledby={headingId}
      onSubmit={(event) => {
        event.preventDefault();
        onSave(draft, {
          categories: new Map((states ?? []).map((state) => [state.id, state.blocked])),
          defaultBlock: undefined,
        });
      }}
    >
      <h3 id={headingId}>
        {initial.id ? t('schedules.editHeading', { name: initial.name }) : t('schedules.newHeading')}
      </h3>
      <div class="field">
        <label for={`${id}-name`}>{t('schedules.name')}</label>
        <input
          id={`${id}-name`}
          type="text"
          maxLength={60}
          value={draft.name}
          onInput={(event) => set({ name: event.currentTarget.value })}
        />
      </div>
      {withProfiles && (
        <div class="field">
          <label for={`${id}-profile`}>{t('schedules.profile')}</label>
          <select
            id={`${id}-profile`}
            value={draft.profile ?? 'default'}
            onChange={(event) => set({ profile: event.currentTarget.value, categories: [] })}
          >
            {[...new Set([draft.profile ?? 'default', ...profiles])].map((profile) => (
              <option key={profile} value={profile}>
                {profile}
              </option>
            ))}
          </select>
        </div>
      )}
      <fieldset class="schedule-days">
        <legend>{t('schedules.days')}</legend>
        {WEEKDAYS.map((day) => (
          <label key={day} class="checkbox-label">
            <input
              type="checkbox"
              checked={draft.days.includes(day)}
              onChange={(event) => set({ days: toggle(draft.days, day, event.currentTarget.checked) })}
            />
            {dayName(day)}
          </label>
        ))}
      </fieldset>
      <fieldset class="schedule-window">
        <legend>{t('schedules.window')}</legend>
        <div class="field">
          <label for={`${id}-start`}>{t('schedules.startsAt')}</label>
          <input
            id={`${id}-start`}
            type="time"
            step={60}
            value={draft.start}
            onInput={(event) => set({ start: event.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for={`${id}-end`}>{t('schedules.endsAt')}</label>
          <input
            id={`${id}-end`}
            type="time"
            step={60}
            value={draft.end}
            aria-describedby={crossesMidnight ? `${id}-midnight` : undefined}
            onInput={(event) => set({ end: event.currentTarget.value })}
          />
        </div>
        {crossesMidnight && (
          <p class="hint" id={`${id}-midnight`}>
            {t('schedules.crossesMidnight')}
          </p>
        )}
      </fieldset>
      <fieldset class="schedule-owns">
        <legend>{t('schedules.categories')}</legend>
        {categories.data.state === 'failed' ? (
          <FailureNotice message={categories.data.message} advice={categories.data.advice}>
            <button type="button" onClick={categories.reload}>
              {t('categories.loadAgain')}
            </button>
          </FailureNotice>
        ) : states === undefined ? (
          <p class="hint">{t('categories.loading')}</p>
        ) : (
          <ul class="plain-list schedule-categories">
            {mergeWithCatalogue(client.form, states).map((state) => {
              const label = describeCategory(client.form, state.id).label;
              return (
                <li key={state.id}>
                  <label class="checkbox-label">
                    <input
                      type="checkbox"
                      checked={draft.categories.includes(state.id)}
                      onChange={(event) =>
                        set({ categories: toggle(draft.categories, state.id, event.currentTarget.checked) })
                      }
                    />
                    {label}
                  </label>
                </li>
              );
            })}
          </ul>
        )}
        <label class="checkbox-label">
          <input
            type="checkbox"
            checked={draft.defaultBlock}
            onChange={(event) => set({ defaultBlock: event.currentTarget.checked })}
          />
          {t('schedules.defaultBlock')}
        </label>
      </fieldset>
      <div class="field">
        <label for={`${id}-lead`}>{t('schedules.lead')}</label>
        <input
          id={`${id}-lead`}
          type="number"
          min={0}
          max={240}
          step={1}
          inputMode="numeric"
          value={draft.lead}
          aria-describedby={`${id}-lead-hint`}
          onInput={(event) => set({ lead: event.currentTarget.value })}
        />
        <p class="hint" id={`${id}-lead-hint`}>
          {t('schedules.leadHint')}
        </p>
      </div>
      <div class="actions">
        <button type="submit" class="btn btn-primary" aria-disabled={busy}>
          {t('schedules.save')}
        </button>
        <button type="button" class="btn" onClick={onCancel}>
          {t('schedules.cancel')}
        </button>
      </div>
    </form>
  );
}
