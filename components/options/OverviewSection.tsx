import { useEffect, useId, useMemo, useRef } from 'preact/hooks';
import { describeForm } from '@/lib/api/forms';
import type { DnsFilterApi } from '@/lib/api/types';
import { formatDay, formatNumber, messageLocale, t, tn } from '@/lib/i18n';
import type { AccountIdentity } from '@/lib/identity/identity';
import type { DaySummary } from '@/lib/logs/stats';
import { hourlyChartLabel } from '@/lib/logs/stats';
import { worker } from '@/lib/messaging/worker-client';
import {
  type AccountOverview,
  createOverviewLoader,
  readLocalState,
  waitingChanges,
} from '@/lib/options/overview';
import { hashFor, type SectionId, sectionById } from '@/lib/options/routes';
import type { ConnectionSettings } from '@/lib/settings/storage';
import { outboxItem } from '@/lib/settings/storage';
import { resolvedColor, useColorScheme } from '../logs/chart-colors';
import { StatusMessage } from '../StatusMessage';
import { useRemoteAction } from '../useRemoteAction';
import { useRemoteData } from '../useRemoteData';
import { useStoredValue } from '../useStoredValue';
import { ActiveSchedules } from './ActiveSchedules';

interface OverviewProps {
  client: DnsFilterApi;
  connection: ConnectionSettings;
  account: AccountIdentity;
  /** The outcome of the first-run Save, shown once on arrival from the welcome. */
  welcome: string | null;
}

/** A link to another section, by its id in the routes table. */
function SectionLink({ id, label }: { id: SectionId; label?: string }) {
  const section = sectionById(id);
  if (!section) return null;
  return (
    <a class="section-link" href={hashFor(section)}>
      {label ?? t('overview.open', { section: t(section.title) })}
    </a>
  );
}

/** Today's queries per hour, allowed and blocked stacked: the Logs section's chart, small. */
function TodayChart({ date, summary }: { date: string; summary: DaySummary }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  // Redrawn when the page turns light or dark: the canvas holds colours, not tokens.
  const scheme = useColorScheme();
  useEffect(() => {
    let disposed = false;
    let chart: { destroy(): void } | undefined;
    void import('../logs/charts').then(({ drawBarChart }) => {
      if (disposed || !canvas.current) return;
      const color = (token: string) =>
        resolvedColor(
          (canvas.current as HTMLElement).parentElement ?? (canvas.current as HTMLElement),
          `var(${token})`,
        );
      chart = drawBarChart(
        canvas.current,
        {
          labels: Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, '0')),
          series: [
            { label: t('dayStats.allowed'), values: summary.allowedByHour, color: color('--color-allowed') },
            { label: t('dayStats.blocked'), values: summary.blockedByHour, color: color('--color-blocked') },
          ],
          stacked: true,
        },
        { locale: messageLocale(), text: color('--color-text'), grid: color('--color-divider') },
      );
    });
    return () => {
      disposed = true;
      chart?.destroy();
    };
  }, [date, summary, scheme]);
  return (
    <div class="overview-chart">
      <canvas ref={canvas} role="img" aria-label={hourlyChartLabel(date, summary)} />
    </div>
  );
}

function ConnectionCard({
  overview,
  connection,
}: {
  overview: AccountOverview;
  connection: ConnectionSettings;
}) {
  const { connection: state } = overview;
  return state.ok ? (
    <p class="state-line state-good">
      {t('overview.connected', {
        origin: new URL(connection.baseUrl).host,
        form: describeForm(connection.form).path,
      })}
    </p>
  ) : (
    <>
      <p class="state-line state-bad">{t('overview.notConnected', { reason: state.message })}</p>
      <SectionLink id="setup" />
    </>
  );
}

function AccountCard({ overview }: { overview: AccountOverview }) {
  const { connection, lists, networks, thisNetwork } = overview;
  const network = (() => {
    if (thisNetwork.ip === null || thisNetwork.registered === null) return t('overview.thisNetworkUnknown');
    if (!thisNetwork.registered) return t('overview.thisNetworkNotRegistered', { ip: thisNetwork.ip });
    return thisNetwork.byDynamicIp
      ? t('overview.thisNetworkByDynamicIp', { ip: thisNetwork.ip })
      : t('overview.thisNetworkRegistered', { ip: thisNetwork.ip });
  })();
  return (
    <>
      {connection.ok && (
        <p>
          {tn('overview.profiles', connection.value.profiles.length, {
            profiles: connection.value.profiles.join(', '),
          })}
        </p>
      )}
      {lists.ok ? (
        <table class="table overview-lists">
          <caption>{t('overview.listsCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('overview.scope')}</th>
              <th scope="col">{t('overview.whitelist')}</th>
              <th scope="col">{t('overview.blocklist')}</th>
            </tr>
          </thead>
          <tbody>
            {lists.value.map((row) => (
              <tr key={row.scope}>
                <th scope="row">
                  <bdi>{row.scope}</bdi>
                </th>
                <td>{formatNumber(row.whitelist)}</td>
                <td>{formatNumber(row.blocklist)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p class="status-failed">{t('overview.listsFailed', { reason: lists.message })}</p>
      )}
      <p>
        {networks.ok
          ? tn('overview.networks', networks.value.count)
          : t('overview.networksFailed', { reason: networks.message })}
      </p>
      <p class={thisNetwork.registered === false ? 'state-line state-warn' : 'state-line'}>{network}</p>
      <p class="card-links">
        <SectionLink id="categories" />
        <SectionLink id="networks" />
      </p>
    </>
  );
}

function TodayCard({ overview }: { overview: AccountOverview }) {
  const { today } = overview;
  if (!today.ok) return <p class="status-failed">{t('overview.todayFailed', { reason: today.message })}</p>;
  if (today.value === null) return <p>{t('overview.todayNone')}</p>;
  const { date, summary } = today.value;
  return (
    <>
      <p class="today-totals">
        {t('overview.todayTotals', {
          allowed: formatNumber(summary.totals.allowed),
          blocked: formatNumber(summary.totals.blocked),
        })}
      </p>
      <TodayChart date={date} summary={summary} />
      <p class="card-links">
        <SectionLink id="logs" />
      </p>
    </>
  );
}

/** What waits in the outbox, followed live (the worker changes it). */
function WaitingCard({ accountId }: { accountId: string }) {
  const outbox = useStoredValue(outboxItem, []);
  const waiting = waitingChanges(outbox, accountId);
  const { status, run, busy } = useRemoteAction();
  const sendNow = () =>
    run(
      t('overview.sending'),
      () => worker.retryOutbox(),
      () => t('overview.sent'),
    );
  return (
    <>
      <p>{waiting.count === 0 ? t('overview.waitingNone') : tn('overview.waiting', waiting.count)}</p>
      {waiting.lastError !== undefined && (
        <p class="status-failed">{t('overview.retrying', { reason: waiting.lastError })}</p>
      )}
      {waiting.count > 0 && (
        <button type="button" class="btn btn-secondary" disabled={busy} onClick={() => void sendNow()}>
          {t('overview.sendNow')}
        </button>
      )}
      <StatusMessage status={status} label={t('overview.waitingHeading')} />
      {waiting.otherAccounts > 0 && (
        <p>
          {tn('overview.otherAccounts', waiting.otherAccounts)} <SectionLink id="other-accounts" />
        </p>
      )}
    </>
  );
}

function Card({
  title,
  area,
  children,
}: {
  title: string;
  area: string;
  children: preact.ComponentChildren;
}) {
  const id = useId();
  return (
    <section class={`card overview-card overview-${area}`} aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}

/** The account at a glance: connection, profiles and lists, networks, today's queries, what waits. */
export function OverviewSection({ client, connection, account, welcome }: OverviewProps) {
  const headingId = useId();
  const load = useMemo(
    () => createOverviewLoader({ client, accountId: account.id, readLocal: readLocalState }),
    [client, account.id],
  );
  const { data, reload } = useRemoteData(load, [load]);
  const overview = data.data;
  const date = overview?.today.ok && overview.today.value ? overview.today.value.date : null;
  return (
    <section aria-labelledby={headingId} class="overview" aria-busy={data.state === 'loading'}>
      <div class="section-title">
        <h2 id={headingId}>{t('overview.heading')}</h2>
        <button type="button" class="btn btn-ghost btn-sm" onClick={reload}>
          {t('overview.reload')}
        </button>
      </div>
      {welcome !== null && (
        <p role="status" class="status status-done welcome-outcome">
          {welcome}
        </p>
      )}
      <ActiveSchedules />
      {overview === undefined ? (
        data.state === 'failed' ? (
          <p class="status-failed">{t('overview.notConnected', { reason: data.message })}</p>
        ) : (
          <p class="hint">{t('overview.loading')}</p>
        )
      ) : (
        <div class="overview-grid">
          <Card area="connection" title={t('overview.connectionHeading')}>
            <ConnectionCard overview={overview} connection={connection} />
          </Card>
          <Card
            area="today"
            title={
              date === null ? t('dayStats.queries') : t('overview.todayHeading', { date: formatDay(date) })
            }
          >
            <TodayCard overview={overview} />
          </Card>
          <Card area="account" title={t('overview.accountHeading')}>
            <AccountCard overview={overview} />
          </Card>
          <Card area="waiting" title={t('overview.waitingHeading')}>
            <WaitingCard accountId={account.id} />
          </Card>
        </div>
      )}
    </section>
  );
}
