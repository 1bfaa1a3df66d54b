import { useId, useMemo, useState } from 'preact/hooks';
import { followedAccounts, listAccounts } from '@/lib/accounts';
import { listName } from '@/lib/api/attempts';
import { ApiError } from '@/lib/api/errors';
import { capabilitiesOf } from '@/lib/api/forms';
import type { DnsFilterApi, DomainListKind } from '@/lib/api/types';
import { isPublicSuffix, isValidDomain, registrableDomainOrNull } from '@/lib/filtering/domain';
import { formatDay, t } from '@/lib/i18n';
import { summariseDay } from '@/lib/logs/stats';
import type { ChangeOutcome, ListChange } from '@/lib/messaging/protocol';
import { WorkerUnanswered, worker } from '@/lib/messaging/worker-client';
import { rememberDeletedLogDay } from '@/lib/settings/local-records';
import { chosenProfileItem, deletedLogDaysItem } from '@/lib/settings/storage';
import { useConfirm } from '../ConfirmDialog';
import { DayStatsView } from '../logs/DayStatsView';
import { RawLogPanel } from '../logs/RawLogPanel';
import { useStoredValue } from '../useStoredValue';
import '../logs/logs.css';
import { FailureNotice, StatusMessage } from '../StatusMessage';
import { useConfiguredClient } from '../useConfiguredClient';
import { useRemoteAction } from '../useRemoteAction';
import { useRemoteData } from '../useRemoteData';

const mark = (name: string) => performance.mark(name);

/** Logs: the day's statistics as charts and rankings, the raw log, and deleting a day's raw lines. */
export function LogsSection() {
  const configured = useConfiguredClient();
  return (
    <section aria-labelledby="logs-heading" class="logs">
      <h2 id="logs-heading">{t('logsSection.heading')}</h2>
      {configured.state === 'no-key' && <p>{t('logsSection.missingKey')}</p>}
      {configured.state === 'ready' && <LogsPanel client={configured.client} />}
    </section>
  );
}

function useDeletedDays(): readonly string[] {
  return useStoredValue(deletedLogDaysItem, []);
}

/**
 * Sends a one-click change to the worker's outbox, which delivers (or queues) it, for the account
 * this page shows (`accountId`): the worker refuses it should another one be active by then.
 */
async function submitChange(change: ListChange, accountId: string | null): Promise<string> {
  let outcome: ChangeOutcome;
  try {
    // Not read yet (the table shows only after the day's statistics came): the active one is shown.
    const shown = accountId ?? (await listAccounts()).activeId;
    outcome = await worker.submitChange(change, { accountId: shown });
  } catch (error) {
    const notUnderstood = error instanceof WorkerUnanswered && error.reason === 'not-understood';
    throw new ApiError(
      'unexpected',
      t(notUnderstood ? 'logsSection.workerNotUnderstood' : 'logsSection.workerNoAnswer'),
    );
  }
  if (outcome.state === 'failed') throw new ApiError('service', outcome.message);
  return outcome.message;
}

function LogsPanel({ client }: { client: DnsFilterApi }) {
  const { data: days, reload: reloadDays } = useRemoteData(
    (signal) => client.listLogDays({ signal }),
    [client],
  );
  const [chosen, setChosen] = useState<string | null>(null);
  const deletedDays = useDeletedDays();
  const dayList = days.data ?? [];
  const date = chosen !== null && dayList.includes(chosen) ? chosen : (dayList[0] ?? null);
  const dayId = useId();

  const stats = useRemoteData(
    async (signal) => {
      if (date === null) return null;
      mark('stats-requested');
      const raw = await client.getStats(date, { signal });
      mark('stats-received');
      return { date, summary: summariseDay(raw) };
    },
    [client, date],
  );

  const { confirm, dialog } = useConfirm();
  const deletion = useRemoteAction();
  const deleteDay = async () => {
    if (date === null) return;
    const confirmed = await confirm({
      title: t('logsSection.confirmTitle', { date }),
      message: <p>{t('logsSection.confirmText', { date })}</p>,
      // ui-contract.md: the confirming button is named "Delete".
      confirmLabel: t('common.delete'),
    });
    if (!confirmed) return;
    await deletion.run(
      t('logsSection.deleting', { date }),
      async () => {
        await client.deleteLogDay(date);
        await rememberDeletedLogDay(date);
        stats.reload();
      },
      () => t('logsSection.deleted', { date }),
    );
  };

  return (
    <>
      {days.state === 'failed' && <FailureNotice message={days.message} advice={days.advice} />}
      {days.state === 'ready' && dayList.length === 0 && <p>{t('logsSection.noDays')}</p>}
      <div class="field inline-field">
        <label for={dayId}>{t('logsSection.day')}</label>
        <select
          id={dayId}
          value={date ?? ''}
          disabled={dayList.length === 0}
          onChange={(event) => setChosen(event.currentTarget.value)}
        >
          {dayList.map((day) => (
            <option key={day} value={day}>
              {t(deletedDays.includes(day) ? 'logsSection.dayDeleted' : 'logsSection.dayOption', {
                day,
                date: formatDay(day),
              })}
            </option>
          ))}
        </select>
        <button type="button" onClick={reloadDays} disabled={days.state === 'loading'}>
          {t('logsSection.refreshDays')}
        </button>
      </div>
      {date !== null && (
        <>
          <h3>{t('logsSection.statistics')}</h3>
          {stats.data.state === 'loading' && !stats.data.data && (
            <p role="status">{t('logsSection.statsLoading', { date })}</p>
          )}
          {stats.data.state === 'failed' && (
            <FailureNotice message={stats.data.message} advice={stats.data.advice}>
              <button type="button" onClick={stats.reload}>
                {t('logsSection.statsAgain')}
              </button>
            </FailureNotice>
          )}
          {stats.data.data && stats.data.data.date === date && (
            <StatsWithActions client={client} date={date} summary={stats.data.data.summary} />
          )}
          <RawLogPanel
            api={client}
            date={date}
            deleted={deletedDays.includes(date)}
            deletedDays={deletedDays}
          />
          <div class="actions">
            <button type="button" disabled={deletion.busy} onClick={() => void deleteDay()}>
              {t('logsSection.deleteRawLog')}
            </button>
          </div>
          <StatusMessage status={deletion.status} label={t('logsSection.deleteRawLog')} />
          {dialog}
        </>
      )}
    </>
  );
}

function StatsWithActions({
  client,
  date,
  summary,
}: {
  client: DnsFilterApi;
  date: string;
  summary: ReturnType<typeof summariseDay>;
}) {
  // Without profile selection the lists are the whole account's: there is no profile to pick.
  const wholeAccount = !capabilitiesOf(client.form).profileSelection;
  const profiles = useRemoteData(
    (signal) => (wholeAccount ? Promise.resolve([] as string[]) : client.listProfiles({ signal })),
    [client],
  );
  // What the user picks here wins over the popup's profile, which is only where the page starts.
  const [picked, setProfile] = useState<string | null>(null);
  const popupProfile = useStoredValue(chosenProfileItem, null);
  const profile = picked ?? popupProfile;
  const [exactNames, setExactNames] = useState(false);
  // The account this page shows: it follows the active one, and its changes name it.
  const shownAccount = useStoredValue(followedAccounts, null)?.activeId ?? null;
  const change = useRemoteAction();
  const profileId = useId();
  const exactId = useId();

  const profileList = profiles.data.data ?? [];
  const target = wholeAccount
    ? undefined
    : profile !== null && profileList.includes(profile)
      ? profile
      : (profileList[0] ?? 'default');

  const listAction = useMemo(
    () => ({
      targetOf: (domain: string) => {
        const target = exactNames ? domain : registrableDomainOrNull(domain);
        // A public suffix gets no button: one click must not cover every site under it.
        return target !== null && isValidDomain(target) && !isPublicSuffix(target) ? target : null;
      },
      busy: change.busy,
      onAdd: (domain: string, list: DomainListKind) => {
        void change.run(
          target === undefined
            ? t('logsSection.adding', { domain, list: listName(list) })
            : t('logsSection.addingProfile', { domain, list: listName(list), profile: target }),
          () => submitChange({ op: 'add', list, domain, profile: target, source: 'logs' }, shownAccount),
          (message) => message,
        );
      },
    }),
    [exactNames, change.busy, change.run, wholeAccount, target, shownAccount],
  );

  return (
    <>
      <div class="filters">
        {wholeAccount ? (
          <p class="hint">{t('logsSection.formBNote')}</p>
        ) : (
          <div>
            <label for={profileId}>{t('logsSection.profile')}</label>
            <select id={profileId} value={target} onChange={(event) => setProfile(event.currentTarget.value)}>
              {(profileList.length > 0 ? profileList : [target ?? 'default']).map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </div>
        )}
        <div class="check">
          <input
            id={exactId}
            type="checkbox"
            checked={exactNames}
            onChange={() => setExactNames(!exactNames)}
          />{' '}
          <label for={exactId}>{t('logsSection.exactNames')}</label>
        </div>
      </div>
      <StatusMessage status={change.status} label={t('logsSection.changeLabel')} />
      <DayStatsView date={date} summary={summary} form={client.form} listAction={listAction} />
    </>
  );
}
