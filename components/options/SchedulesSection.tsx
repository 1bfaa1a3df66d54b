import { useEffect, useId, useState } from 'preact/hooks';
import { capabilitiesOf } from '@/lib/api/forms';
import type { DnsFilterApi } from '@/lib/api/types';
import { t } from '@/lib/i18n';
import {
  type AccountStateNow,
  draftOf,
  newDraft,
  ruleFromDraft,
  type ScheduleDraft,
} from '@/lib/schedules/draft';
import {
  activeSchedules,
  dayShortName,
  deleteRule,
  extendByHalfAnHour,
  formatInstant,
  formatWindow,
  insideWords,
  lastCheckText,
  nextChangeOf,
  nextChangeText,
  pauseUntil,
  ScheduleNotSaved,
  saveRule,
  skipThisTime,
  statusesOf,
  timelineOf,
} from '@/lib/schedules/options';
import type { ScheduleRule } from '@/lib/schedules/schema';
import { useConfirm } from '../ConfirmDialog';
import { PauseControl } from '../ScheduleOwnedNotice';
import { StatusMessage } from '../StatusMessage';
import { type ActionStatus, failedStatus } from '../useRemoteAction';
import { useRemoteData } from '../useRemoteData';
import { useStoredValue } from '../useStoredValue';
import { ScheduleEditor } from './ScheduleEditor';
import { ScheduleTimeline } from './ScheduleTimeline';
import './schedules.css';

/** A new render each half minute: the next change and "active now" follow the clock. */
function useNow(): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

const windowsText = (rule: ScheduleRule) =>
  `${rule.days.map(dayShortName).join(', ')} · ${rule.windows.map(formatWindow).join(', ')}`;

/** Options section "Schedules": the week per profile, the rules, the editor and the last check. */
export function SchedulesSection({ client }: { client: DnsFilterApi }) {
  const headingId = useId();
  const active = useStoredValue(activeSchedules, null);
  // Re-rendered each half minute; each render reads the clock (an override made just now counts).
  useNow();
  const now = Date.now();
  const [editing, setEditing] = useState<ScheduleDraft | null>(null);
  const [status, setStatus] = useState<ActionStatus>({ state: 'idle' });
  const [busy, setBusy] = useState(false);
  const { confirm, dialog } = useConfirm();
  const withProfiles = capabilitiesOf(client.form).profileSelection;
  const profiles = useRemoteData(
    (signal) => (withProfiles ? client.listProfiles({ signal }) : Promise.resolve([])),
    [client, withProfiles],
  );

  if (active === null) return <p class="hint">{t('categories.loading')}</p>;
  const { accountId, schedules, checks } = active;
  const statuses = statusesOf(schedules, now);
  const next = nextChangeOf(statuses);
  const check = lastCheckText(checks, now);
  const scopes = [...new Set(schedules.rules.map((rule) => rule.profile))];

  const save = async (draft: ScheduleDraft, accountNow: AccountStateNow) => {
    const checked = ruleFromDraft(draft, schedules.rules, accountNow);
    if (!checked.ok) {
      setStatus({ state: 'failed', message: t('schedules.notSaved', { reason: checked.message }) });
      return;
    }
    setBusy(true);
    try {
      const written = await saveRule(accountId, checked.value.rule, checked.value.lead);
      const saved = statusesOf(written, Date.now()).find(
        (candidate) => candidate.rule.id === checked.value.rule.id,
      );
      const change = saved ? nextChangeText(saved, Date.now()) : null;
      setStatus({
        state: 'done',
        message: change ? t('schedules.saved', { change }) : t('schedules.savedNoChange'),
      });
      setEditing(null);
    } catch (error) {
      setStatus(
        error instanceof ScheduleNotSaved
          ? { state: 'failed', message: t('schedules.notSaved', { reason: error.message }) }
          : failedStatus(error),
      );
    } finally {
      setBusy(false);
    }
  };

  const remove = async (rule: ScheduleRule) => {
    const confirmed = await confirm({
      title: t('schedules.deleteTitle', { name: rule.name }),
      message: t('schedules.deleteBody'),
      confirmLabel: t('schedules.delete'),
    });
    if (!confirmed) return;
    await deleteRule(accountId, rule.id);
    setStatus({ state: 'done', message: t('schedules.deleted', { name: rule.name }) });
  };

  const override = async (action: () => Promise<void>) => {
    try {
      await action();
      setStatus({ state: 'done', message: t('schedules.overrideSaved') });
    } catch (error) {
      setStatus(failedStatus(error));
    }
  };

  return (
    <section aria-labelledby={headingId} class="schedules">
      <h2 id={headingId}>{t('schedules.heading')}</h2>
      <p class="hint">{t('schedules.intro')}</p>
      <p class="schedule-check">
        {check.when} {check.outcome}
      </p>
      {next && <p class="schedule-next">{nextChangeText(next, now)}</p>}
      {editing === null && (
        <button
          type="button"
          class="btn btn-primary"
          onClick={() => {
            setStatus({ state: 'idle' });
            setEditing(newDraft(schedules.leadMinutes, withProfiles ? 'default' : undefined));
          }}
        >
          {t('schedules.add')}
        </button>
      )}
      {editing !== null && (
        <ScheduleEditor
          key={editing.id || 'new'}
          client={client}
          draft={editing}
          profiles={profiles.data.data ?? []}
          busy={busy}
          onSave={(draft, accountNow) => void save(draft, accountNow)}
          onCancel={() => setEditing(null)}
        />
      )}
      <StatusMessage status={status} />
      {schedules.rules.length === 0 ? (
        <p class="hint">{t('schedules.none')}</p>
      ) : (
        <>
          <div class="schedule-timelines">
            {scopes.map((profile) => (
              <ScheduleTimeline
                key={profile ?? ''}
                label={
                  profile === undefined
                    ? t('schedules.timelineAccount')
                    : t('schedules.timeline', { profile })
                }
                blocks={timelineOf(schedules.rules, profile)}
              />
            ))}
          </div>
          <ul class="plain-list schedule-rules">
            {statuses.map((ruleStatus) => {
              const { rule } = ruleStatus;
              const change = nextChangeText(ruleStatus, now);
              return (
                <li key={rule.id} class="card schedule-rule">
                  <h3>
                    {rule.name}
                    {ruleStatus.inside && !ruleStatus.released && (
                      <span class="badge schedule-active">{t('schedules.activeNow')}</span>
                    )}
                  </h3>
                  <p>
                    {windowsText(rule)}
                    {rule.profile !== undefined && ` · ${rule.profile}`}
                  </p>
                  <p>{insideWords(rule, client.form)}</p>
                  {change && <p class="hint">{change}</p>}
                  {ruleStatus.released && ruleStatus.releasedUntil !== null && (
                    <p class="hint">
                      {t('schedules.paused', { time: formatInstant(ruleStatus.releasedUntil, now) })}
                    </p>
                  )}
                  <div class="actions">
                    <button
                      type="button"
                      class="btn"
                      onClick={() => setEditing(draftOf(rule, schedules.leadMinutes))}
                    >
                      {t('schedules.edit')}
                    </button>
                    <button
                      type="button"
                      class="btn"
                      onClick={() =>
                        void override(() => extendByHalfAnHour(accountId, ruleStatus, Date.now()))
                      }
                    >
                      {t('schedules.plus30')}
                    </button>
                    <button
                      type="button"
                      class="btn"
                      onClick={() => void override(() => skipThisTime(accountId, ruleStatus, Date.now()))}
                    >
                      {t('schedules.skip')}
                    </button>
                    <PauseControl
                      onPause={(until) =>
                        void override(() => pauseUntil(accountId, rule.id, Date.now(), until))
                      }
                    />
                    <button type="button" class="btn btn-danger" onClick={() => void remove(rule)}>
                      {t('schedules.delete')}
                    </button>
                  </div>
                </li>
              );
            })}
          </ul>
        </>
      )}
      {dialog}
    </section>
  );
}
