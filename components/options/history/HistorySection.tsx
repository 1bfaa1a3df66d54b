import { Fragment } from 'preact';
import { useEffect, useId, useMemo, useState } from 'preact/hooks';
import type { DnsFilterApi } from '@/lib/api/types';
import {
  type ChangeFilter,
  changesCsv,
  entryText,
  filterChanges,
  isDomainKind,
  madeByText,
  NO_FILTER,
} from '@/lib/history/changes';
import type { DiffLine } from '@/lib/history/diff';
import { SECTION_KINDS, type SectionKind, type SnapshotReason } from '@/lib/history/model';
import { profilesOf, ROLLBACK_CALLS_PER_SECOND, type RollbackJob } from '@/lib/history/rollback';
import type { HistorySettings } from '@/lib/history/schema';
import type { HistoryView, SnapshotDiff } from '@/lib/history/service';
import { formatDateTime, formatDateTimeLines, formatNumber, t, tn, tParts } from '@/lib/i18n';
import { ConfirmDialog } from '../../ConfirmDialog';
import { DomainName } from '../../DomainName';
import { StatusMessage } from '../../StatusMessage';
import { useRemoteAction } from '../../useRemoteAction';
import { downloadText } from '../BackupSection';
import './history.css';

/** What the section does, as lib/history/service.ts does it; tests pass fakes. */
export interface HistoryServices {
  account: string;
  client: DnsFilterApi;
  read(): Promise<HistoryView>;
  take(): Promise<{ stored: boolean }>;
  /** The section opened: what a comparison needs is read ahead (lib/history/page.ts). */
  warm?: () => void;
  diff(snapshotId: string): Promise<SnapshotDiff | null>;
  /** Queues the rollback of `lines` and starts sending it; `onProgress` follows it. */
  rollBack(
    diff: SnapshotDiff,
    lines: readonly DiffLine[],
    onProgress: (job: RollbackJob) => void,
  ): Promise<RollbackJob | null>;
  readSettings(): Promise<HistorySettings>;
  saveSettings(settings: HistorySettings): Promise<void>;
  download?: (text: string, fileName: string) => void;
}

/** Rows the table shows at most: the CSV has them all. */
const ROWS_SHOWN = 200;
/** Diff lines listed with a tick box each: the rest go with "Tick all". */
const LINES_SHOWN = 300;

/** With seconds: two snapshots taken within a minute must not read the same (docs/history.md). */
const when = (at: number) => formatDateTime(at, 'seconds');
/** A time in a table: a narrow one breaks it between its date and its time only (history.css). */
function WhenCell({ at }: { at: number }) {
  return (
    <td class="history-when">
      {formatDateTimeLines(at, 'seconds').map((line, index) => (
        <Fragment key={line}>
          {index > 0 && ' '}
          <span>{line}</span>
        </Fragment>
      ))}
    </td>
  );
}
const REASON_KEYS = {
  daily: 'history.reasonDaily',
  manual: 'history.reasonManual',
  'before-rollback': 'history.reasonRollback',
  'after-rollback': 'history.reasonAfterRollback',
} as const;
const reasonText = (reason: SnapshotReason) => t(REASON_KEYS[reason]);
const scopeText = (scope: string) =>
  scope === '' || scope === 'account' ? t('history.accountScope') : scope;
const lineKey = (line: DiffLine) => `${line.kind}\t${line.scope}\t${line.entry}\t${line.change}`;
/** An entry as a user reads it: a domain wraps only after its dots, a category by its name. */
function Entry({ kind, entry }: { kind: SectionKind; entry: string }) {
  return isDomainKind(kind) ? <DomainName domain={entry} /> : <bdi>{entryText(kind, entry)}</bdi>;
}
const kb = (chars: number) => `${formatNumber(Math.max(1, Math.round(chars / 1024)))} KB`;

export function HistorySection({ services }: { services: HistoryServices }) {
  const headingId = useId();
  const retentionId = useId();
  const [view, setView] = useState<HistoryView | null>(null);
  const [filter, setFilter] = useState<ChangeFilter>(NO_FILTER);
  const [retention, setRetention] = useState('');
  const [diff, setDiff] = useState<SnapshotDiff | null>(null);
  const [unticked, setUnticked] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [job, setJob] = useState<RollbackJob | null>(null);
  const snapshotAction = useRemoteAction();
  const settingsAction = useRemoteAction();
  const diffAction = useRemoteAction();
  const rollbackAction = useRemoteAction();

  const reload = () =>
    services.read().then(
      (next) => {
        setView(next);
        if (next.rollback) setJob(next.rollback);
        return next;
      },
      () => null,
    );
  useEffect(() => {
    // With a snapshot to compare with, the account now is read ahead of "Compare with now".
    void reload().then((first) => {
      if (first && first.snapshots.length > 0) services.warm?.();
    });
    void services.readSettings().then((settings) => setRetention(String(settings.retentionDays)));
  }, [services.account]);

  const rows = useMemo(() => (view ? filterChanges(view.rows, filter) : []), [view, filter]);
  const shownRows = rows.slice(0, ROWS_SHOWN);
  // The Note column only when a row shown has a note (most changes have none).
  const withNotes = shownRows.some((row) => row.note);
  const profiles = useMemo(
    () => [...new Set((view?.rows ?? []).map((row) => row.scope).filter((scope) => scope !== ''))].sort(),
    [view],
  );

  const take = () =>
    snapshotAction.run(
      t('history.taking'),
      async () => {
        const outcome = await services.take();
        await reload();
        return outcome;
      },
      (outcome) => t(outcome.stored ? 'history.taken' : 'history.unchanged'),
    );

  const saveRetention = () => {
    const days = Number(retention);
    if (!Number.isInteger(days) || days < 1 || days > 3650) {
      settingsAction.setStatus({ state: 'failed', message: t('history.retentionInvalid') });
      return;
    }
    void settingsAction.run(
      t('history.saveRetention'),
      () => services.saveSettings({ v: 1, retentionDays: days }),
      () => t('history.retentionSaved', { days: formatNumber(days) }),
    );
  };

  const compare = (snapshotId: string) =>
    diffAction.run(
      t('history.comparing'),
      async () => {
        const result = await services.diff(snapshotId);
        setDiff(result);
        setUnticked(new Set());
        return result;
      },
      (result) => (result === null || result.plan.steps.length > 0 ? '' : t('history.diffNone')),
    );

  const chosen = diff ? diff.lines.filter((line) => !unticked.has(lineKey(line))) : [];
  const possible = chosen.filter((line) => !(line.kind === 'tlds' && line.change === 'added'));
  const chosenProfiles = diff
    ? profilesOf(
        possible.map((line) => ({
          kind: line.kind,
          scope: line.scope,
          entry: line.entry,
          op: line.change === 'added' ? 'remove' : 'add',
        })),
      ).map(scopeText)
    : [];

  const rollBack = async () => {
    if (!diff) return;
    const target = diff;
    const lines = possible;
    await rollbackAction.run(
      t('history.queueing'),
      () => services.rollBack(target, lines, setJob),
      (done) =>
        done === null
          ? ''
          : t('history.done', { done: formatNumber(done.next), count: formatNumber(done.steps.length) }),
    );
    setDiff(null);
    await reload();
  };

  const exportCsv = () => {
    const csv = changesCsv(rows, t('history.csvHeader').split(','));
    (services.download ?? downloadText)(csv, `history-${new Date().toISOString().slice(0, 10)}.csv`);
  };

  // Shown while it runs or waits, and afterwards only for what the service refused (the outcome
  // itself is said once, by the rollback's status).
  const progress = job && (job.next < job.steps.length || job.refused.length > 0) && (
    <div class="history-progress">
      <progress aria-label={t('history.progressLabel')} max={job.steps.length} value={job.next} />
      <p role="status">
        {job.lastError
          ? t('history.waiting', { reason: job.lastError })
          : t('history.progress', { done: formatNumber(job.next), count: formatNumber(job.steps.length) })}
      </p>
      {job.refused.length > 0 && (
        <p class="hint">
          {t('history.refused', { count: formatNumber(job.refused.length), first: job.refused[0]!.message })}
        </p>
      )}
    </div>
  );

  return (
    <section aria-labelledby={headingId} class="history">
      <h2 id={headingId}>{t('history.heading')}</h2>
      <p class="hint">{t('history.about')}</p>
      <p class="hint">{t('history.tldNote')}</p>
      <div class="history-actions">
        <button
          type="button"
          class="btn btn-primary"
          onClick={() => void take()}
          aria-disabled={snapshotAction.busy}
        >
          {t('history.take')}
        </button>
        <StatusMessage status={snapshotAction.status} />
      </div>
      <div class="history-retention field">
        <label for={retentionId}>{t('history.retentionLabel')}</label>
        <input
          id={retentionId}
          type="number"
          min={1}
          max={3650}
          value={retention}
          onInput={(event) => setRetention(event.currentTarget.value)}
        />
        <button type="button" class="btn" onClick={saveRetention}>
          {t('history.saveRetention')}
        </button>
        <StatusMessage status={settingsAction.status} />
      </div>
      {progress}

      <h3>{t('history.snapshotsHeading')}</h3>
      {view && view.snapshots.length === 0 ? (
        <p class="hint">{t('history.noSnapshots')}</p>
      ) : (
        <table class="table history-snapshots">
          <thead>
            <tr>
              <th scope="col">{t('history.when')}</th>
              <th scope="col">{t('history.reason')}</th>
              <th scope="col">{t('history.size')}</th>
              <th scope="col">
                <span class="visually-hidden">{t('history.compare')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(view?.snapshots ?? []).map((snapshot) => (
              <tr key={snapshot.id}>
                <WhenCell at={snapshot.takenAt} />
                <td>{reasonText(snapshot.reason)}</td>
                <td>{kb(snapshot.size)}</td>
                <td>
                  <button
                    type="button"
                    class="btn"
                    aria-label={`${t('history.compare')}: ${when(snapshot.takenAt)}`}
                    onClick={() => void compare(snapshot.id)}
                  >
                    {t('history.compare')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <StatusMessage status={diffAction.status} />

      {diff && diff.lines.length > 0 && (
        <DiffPanel
          diff={diff}
          unticked={unticked}
          onToggle={(line, ticked) => {
            const next = new Set(unticked);
            if (ticked) next.delete(lineKey(line));
            else next.add(lineKey(line));
            setUnticked(next);
          }}
          onAll={(ticked) => setUnticked(ticked ? new Set() : new Set(diff.lines.map(lineKey)))}
          chosenCount={possible.length}
          onRollBack={() => setConfirming(true)}
          busy={rollbackAction.busy}
        />
      )}
      <StatusMessage status={rollbackAction.status} />
      {confirming && diff && (
        <ConfirmDialog
          title={t('history.confirmTitle', { when: when(diff.snapshot.takenAt) })}
          message={
            <>
              <p>
                {t('history.confirmProfiles', {
                  count: formatNumber(possible.length),
                  profiles: chosenProfiles.join(', '),
                })}
              </p>
              <p>
                {t('history.confirmPace', {
                  pace: formatNumber(ROLLBACK_CALLS_PER_SECOND),
                  minutes: formatNumber(
                    Math.max(1, Math.ceil(possible.length / ROLLBACK_CALLS_PER_SECOND / 60)),
                  ),
                })}
              </p>
            </>
          }
          confirmLabel={tn('history.confirmButton', possible.length)}
          onClose={(confirmed) => {
            setConfirming(false);
            if (confirmed) void rollBack();
          }}
        />
      )}

      <h3>{t('history.changesHeading')}</h3>
      <ChangeFilters filter={filter} profiles={profiles} onChange={setFilter} />
      {view && view.rows.length === 0 ? (
        <p class="hint">{t('history.noChanges')}</p>
      ) : (
        <>
          <div class="history-actions">
            <p class="hint">
              {t('history.shown', {
                shown: formatNumber(Math.min(rows.length, ROWS_SHOWN)),
                count: formatNumber(rows.length),
              })}
            </p>
            <button type="button" class="btn" onClick={exportCsv}>
              {t('history.exportCsv')}
            </button>
          </div>
          <table class="table history-changes">
            <thead>
              <tr>
                <th scope="col">{t('history.when')}</th>
                <th scope="col">{t('history.columnProfile')}</th>
                <th scope="col">{t('history.columnChange')}</th>
                <th scope="col">{t('history.columnEntry')}</th>
                <th scope="col">{t('history.columnMade')}</th>
                {withNotes && <th scope="col">{t('history.columnNote')}</th>}
              </tr>
            </thead>
            <tbody>
              {shownRows.map((row, index) => (
                <tr key={`${row.snapshotId}-${index}`} class={row.madeHere ? 'made-here' : 'made-elsewhere'}>
                  <WhenCell at={row.takenAt} />
                  <td>{scopeText(row.scope)}</td>
                  <td>{t(`history.change.${row.kind}.${row.change}`)}</td>
                  <td dir="auto">
                    <Entry kind={row.kind} entry={row.entry} />
                  </td>
                  <td>{madeByText(row)}</td>
                  {withNotes && <td dir="auto">{row.note ?? ''}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

function ChangeFilters({
  filter,
  profiles,
  onChange,
}: {
  filter: ChangeFilter;
  profiles: readonly string[];
  onChange: (filter: ChangeFilter) => void;
}) {
  const ids = { profile: useId(), kind: useId(), origin: useId(), text: useId() };
  return (
    <div class="history-filters">
      <div class="field">
        <label for={ids.profile}>{t('history.filterProfile')}</label>
        <select
          id={ids.profile}
          value={filter.profile}
          onChange={(e) => onChange({ ...filter, profile: e.currentTarget.value })}
        >
          <option value="">{t('history.anyProfile')}</option>
          {profiles.map((profile) => (
            <option key={profile} value={profile}>
              {scopeText(profile)}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for={ids.kind}>{t('history.filterKind')}</label>
        <select
          id={ids.kind}
          value={filter.kind}
          onChange={(e) => onChange({ ...filter, kind: e.currentTarget.value as SectionKind | '' })}
        >
          <option value="">{t('history.anyKind')}</option>
          {SECTION_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {t(`history.kind.${kind}`)}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for={ids.origin}>{t('history.filterOrigin')}</label>
        <select
          id={ids.origin}
          value={filter.origin}
          onChange={(e) => onChange({ ...filter, origin: e.currentTarget.value as ChangeFilter['origin'] })}
        >
          <option value="all">{t('history.anyOrigin')}</option>
          <option value="here">{t('history.originHere')}</option>
          <option value="elsewhere">{t('history.originElsewhere')}</option>
        </select>
      </div>
      <div class="field">
        <label for={ids.text}>{t('history.filterText')}</label>
        <input
          id={ids.text}
          type="search"
          value={filter.text}
          onInput={(e) => onChange({ ...filter, text: e.currentTarget.value })}
        />
      </div>
    </div>
  );
}

function DiffPanel({
  diff,
  unticked,
  onToggle,
  onAll,
  chosenCount,
  onRollBack,
  busy,
}: {
  diff: SnapshotDiff;
  unticked: ReadonlySet<string>;
  onToggle: (line: DiffLine, ticked: boolean) => void;
  onAll: (ticked: boolean) => void;
  chosenCount: number;
  onRollBack: () => void;
  busy: boolean;
}) {
  const headingId = useId();
  const shown = diff.lines.slice(0, LINES_SHOWN);
  const impossible = diff.plan.impossible.map((step) => step.entry);
  return (
    <section aria-labelledby={headingId} class="history-diff card">
      <h3 id={headingId}>{t('history.diffHeading', { when: when(diff.snapshot.takenAt) })}</h3>
      <p class="hint">{t('history.diffAbout')}</p>
      {impossible.length > 0 && (
        <p class="message message-warning">
          {tParts('history.impossible', {
            tlds: (
              <>
                {impossible.map((tld, index) => (
                  <Fragment key={tld}>
                    {index > 0 && ', '}
                    <DomainName domain={tld} />
                  </Fragment>
                ))}
              </>
            ),
          })}
        </p>
      )}
      <div class="history-actions">
        <button type="button" class="btn" onClick={() => onAll(true)}>
          {t('history.selectAll')}
        </button>
        <button type="button" class="btn" onClick={() => onAll(false)}>
          {t('history.selectNone')}
        </button>
      </div>
      <ul class="history-lines">
        {shown.map((line) => {
          const key = lineKey(line);
          const cannot = line.kind === 'tlds' && line.change === 'added';
          return (
            <li key={key} class={line.change === 'added' ? 'line-now' : 'line-snapshot'}>
              <label>
                <input
                  type="checkbox"
                  checked={!cannot && !unticked.has(key)}
                  disabled={cannot}
                  onChange={(event) => onToggle(line, event.currentTarget.checked)}
                />
                <span class="badge">
                  {t(line.change === 'added' ? 'history.nowHas' : 'history.snapshotHad')}
                </span>{' '}
                {/* One flex item: the label's gap would widen the space before the entry alone. */}
                <span>
                  {t(`history.kind.${line.kind}`)} · {scopeText(line.scope)} ·{' '}
                  <Entry kind={line.kind} entry={line.entry} />
                </span>
              </label>
            </li>
          );
        })}
      </ul>
      {diff.lines.length > shown.length && (
        <p class="hint">
          {t('history.moreLines', { count: formatNumber(diff.lines.length - shown.length) })}
        </p>
      )}
      <button
        type="button"
        class="btn btn-danger"
        aria-disabled={busy || chosenCount === 0}
        onClick={() => {
          if (!busy && chosenCount > 0) onRollBack();
        }}
      >
        {chosenCount === diff.plan.steps.length
          ? t('history.rollBack')
          : tn('history.rollBackChosen', chosenCount)}
      </button>
    </section>
  );
}
