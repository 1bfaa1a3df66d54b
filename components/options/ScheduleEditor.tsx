import { useEffect, useId, useState } from 'preact/hooks';
import { describeCategory, mergeWithCatalogue } from '@/lib/api/categories';
import { capabilitiesOf } from '@/lib/api/forms';
import type { DnsFilterApi } from '@/lib/api/types';
import { t } from '@/lib/i18n';
import {
  type AccountStateNow,
  domainPlaces,
  draftThings,
  outsideChoices,
  type ScheduleDraft,
  withOutside,
} from '@/lib/schedules/draft';
import { thingKey } from '@/lib/schedules/model';
import { dayName } from '@/lib/schedules/options';
import { type OwnedThing, SCHEDULE_LIMITS, type ScheduleWindow, WEEKDAYS } from '@/lib/schedules/schema';
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
 * The editor of one schedule: name, profile, days, its windows, what is blocked (or listed) then,
 * what holds outside them, and the account's lead. The logic is lib/schedules/draft.ts. What the
 * user typed stays until it is saved or cancelled, whatever the save says.
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
  // The lists are read only once a domain is typed: most schedules own categories alone.
  const wantsDomains = draft.blocklistText.trim() !== '' || draft.whitelistText.trim() !== '';
  const lists = useRemoteData(
    async (signal) => {
      if (!wantsDomains) return new Map();
      const [whitelist, blocklist] = await Promise.all([
        client.listDomains('whitelist', draft.profile, { signal }),
        client.listDomains('blocklist', draft.profile, { signal }),
      ]);
      return domainPlaces(whitelist, blocklist);
    },
    [client, draft.profile, wantsDomains],
  );
  // A window added or removed moves the focus to where the user goes on: the new window's start,
  // or "Add window" (the removed button is gone).
  const [focusId, setFocusId] = useState<string | null>(null);
  useEffect(() => {
    if (focusId === null) return;
    document.getElementById(focusId)?.focus();
    setFocusId(null);
  }, [focusId]);
  const set = (patch: Partial<ScheduleDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const setWindow = (index: number, patch: Partial<ScheduleWindow>) =>
    setDraft((current) => ({
      ...current,
      windows: current.windows.map((window, at) => (at === index ? { ...window, ...patch } : window)),
    }));
  const toggle = <T,>(list: readonly T[], value: T, on: boolean) =>
    on ? [...list.filter((item) => item !== value), value] : list.filter((item) => item !== value);
  const states = categories.data.data;
  const accountNow: AccountStateNow = {
    categories: new Map((states ?? []).map((state) => [state.id, state.blocked])),
    defaultBlock: undefined,
    domains: lists.data.data ?? new Map(),
  };
  const owned = draftThings(draft, accountNow).filter((thing) => draft.kept.every((kept) => kept !== thing));
  const thingLabel = (thing: OwnedThing) =>
    thing.kind === 'category'
      ? describeCategory(client.form, thing.category).label
      : thing.kind === 'default-block'
        ? t('schedules.outsideDefaultBlock')
        : thing.domain;

  return (
    <form
      class="card schedule-editor"
      aria-labelledby={headingId}
      onSubmit={(event) => {
        event.preventDefault();
        onSave(draft, accountNow);
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
            onChange={(event) => set({ profile: event.currentTarget.value, categories: [], outside: {} })}
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
      <fieldset class="schedule-windows">
        <legend>{t('schedules.window')}</legend>
        {draft.windows.map((window, index) => {
          // The first window keeps the contract's plain names; the others add their number.
          const number = index === 0 ? '' : `, ${t('schedules.windowNumber', { number: index + 1 })}`;
          const crossesMidnight = window.end <= window.start && window.end !== window.start;
          const fieldId = `${id}-window-${index}`;
          return (
            <div key={index} class="schedule-window">
              <div class="field">
                <label for={`${fieldId}-start`}>
                  {t('schedules.startsAt')}
                  {number && <span class="visually-hidden">{number}</span>}
                </label>
                <input
                  id={`${fieldId}-start`}
                  type="time"
                  step={60}
                  value={window.start}
                  onInput={(event) => setWindow(index, { start: event.currentTarget.value })}
                />
              </div>
              <div class="field">
                <label for={`${fieldId}-end`}>
                  {t('schedules.endsAt')}
                  {number && <span class="visually-hidden">{number}</span>}
                </label>
                <input
                  id={`${fieldId}-end`}
                  type="time"
                  step={60}
                  value={window.end}
                  aria-describedby={crossesMidnight ? `${fieldId}-midnight` : undefined}
                  onInput={(event) => setWindow(index, { end: event.currentTarget.value })}
                />
              </div>
              {index > 0 && (
                <button
                  type="button"
                  class="btn"
                  onClick={() => {
                    setDraft((current) => ({
                      ...current,
                      windows: current.windows.filter((_, at) => at !== index),
                    }));
                    setFocusId(`${id}-add-window`);
                  }}
                >
                  {t('schedules.removeWindow', { number: index + 1 })}
                </button>
              )}
              {crossesMidnight && (
                <p class="hint" id={`${fieldId}-midnight`}>
                  {t('schedules.crossesMidnight')}
                </p>
              )}
            </div>
          );
        })}
        {draft.windows.length < SCHEDULE_LIMITS.windowsPerRule && (
          <button
            type="button"
            class="btn"
            id={`${id}-add-window`}
            onClick={() => {
              set({ windows: [...draft.windows, { start: '', end: '' }] });
              setFocusId(`${id}-window-${draft.windows.length}-start`);
            }}
          >
            {t('schedules.addWindow')}
          </button>
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
      <fieldset class="schedule-domains">
        <legend>{t('schedules.domains')}</legend>
        <p class="hint" id={`${id}-domains-hint`}>
          {t('schedules.domainsHint')}
        </p>
        <div class="field">
          <label for={`${id}-blocklist`}>{t('schedules.blocklistDomains')}</label>
          <textarea
            id={`${id}-blocklist`}
            rows={3}
            spellcheck={false}
            aria-describedby={`${id}-domains-hint`}
            value={draft.blocklistText}
            onInput={(event) => set({ blocklistText: event.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for={`${id}-whitelist`}>{t('schedules.whitelistDomains')}</label>
          <textarea
            id={`${id}-whitelist`}
            rows={3}
            spellcheck={false}
            aria-describedby={`${id}-domains-hint`}
            value={draft.whitelistText}
            onInput={(event) => set({ whitelistText: event.currentTarget.value })}
          />
        </div>
        {wantsDomains && lists.data.state === 'loading' && <p class="hint">{t('schedules.listsLoading')}</p>}
        {lists.data.state === 'failed' && (
          <FailureNotice message={lists.data.message} advice={lists.data.advice}>
            <button type="button" onClick={lists.reload}>
              {t('schedules.listsLoadAgain')}
            </button>
          </FailureNotice>
        )}
      </fieldset>
      {owned.length > 0 && (
        <fieldset class="schedule-outside">
          <legend>{t('schedules.outside')}</legend>
          <p class="hint">{t('schedules.outsideHint')}</p>
          <ul class="plain-list schedule-outside-list">
            {owned.map((thing, index) => {
              const choices = outsideChoices(thing);
              const label = thingLabel(thing);
              // Outside as inside: the schedule never changes this thing; said so beside it.
              const unchanged = thing.outside === thing.inside;
              return (
                <li key={thingKey(undefined, thing)}>
                  <label for={`${id}-outside-${index}`}>{label}</label>
                  <select
                    id={`${id}-outside-${index}`}
                    aria-label={t('schedules.outsideOf', { what: label })}
                    aria-describedby={unchanged ? `${id}-outside-${index}-same` : undefined}
                    value={String(thing.outside)}
                    onChange={(event) => {
                      const value = event.currentTarget.value;
                      const choice = choices.find((candidate) => String(candidate.value) === value);
                      if (choice) setDraft((current) => withOutside(current, thing, choice.value));
                    }}
                  >
                    {choices.map((choice) => (
                      <option key={String(choice.value)} value={String(choice.value)}>
                        {choice.label}
                      </option>
                    ))}
                  </select>
                  {unchanged ? (
                    <span class="hint" id={`${id}-outside-${index}-same`}>
                      {t('schedules.outsideSame')}
                    </span>
                  ) : (
                    <span />
                  )}
                </li>
              );
            })}
          </ul>
        </fieldset>
      )}
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
