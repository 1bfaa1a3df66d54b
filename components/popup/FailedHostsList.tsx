/**
 * Page diagnosis in the popup: "Failed hosts on this page" under the verdict, each host with
 * whether today's statistics confirm a block and a one-click Whitelist, and the temporary allow
 * of the shown domain. Reads what the worker recorded (lib/diagnosis); changes go through the
 * popup controller and the worker's outbox like every other one-click change.
 */
import { useEffect, useId, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { localDate } from '@/lib/cache/freshness';
import type { Membership } from '@/lib/cache/list-changes';
import { describeFailure } from '@/lib/diagnosis/classify';
import { recordForPage } from '@/lib/diagnosis/records';
import { findTemporaryAllow } from '@/lib/diagnosis/temporary-allow';
import { canonicalHost } from '@/lib/filtering/domain-index';
import { t, tn } from '@/lib/i18n';
import {
  diagnosisSettingsItem,
  type FailedHost,
  failedHostsItem,
  type TabFailures,
  type TemporaryAllow as TemporaryAllowEntry,
} from '@/lib/settings/storage';
import type { PopupController, ReadyState } from './popup-controller';
import type { PageKnowledge, PopupView } from './popup-view';
import { membershipOf } from './popup-view';
import { registrableDomainsOf } from './registrable';
import { TemporaryAllow, useTemporaryAllows } from './TemporaryAllow';

export interface PageDiagnosis {
  enabled: boolean;
  /** The failures of the page the tab shows, or null (none recorded, or diagnosis off). */
  record: TabFailures | null;
}

const OFF: PageDiagnosis = { enabled: false, record: null };

/** `popup.html?tabId=<id>` (the detached view) or the active tab, as the popup itself reads it. */
async function currentTabId(): Promise<number | undefined> {
  const requested = new URLSearchParams(location.search).get('tabId');
  if (requested !== null) {
    const id = Number(requested);
    return Number.isSafeInteger(id) && id >= 0 ? id : undefined;
  }
  const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  return tab?.id;
}

/**
 * What the worker recorded for the page on `host`, following new failures while the popup is
 * open. `host` is null until the popup knows the page.
 */
export function usePageDiagnosis(
  host: string | null,
  readTabId: () => Promise<number | undefined> = currentTabId,
): PageDiagnosis {
  const [diagnosis, setDiagnosis] = useState<PageDiagnosis>(OFF);
  useEffect(() => {
    if (host === null) return;
    let live = true;
    let tabId: number | undefined;
    let enabled = false;
    let records: Readonly<Record<string, TabFailures>> = {};
    const publish = () => {
      if (!live) return;
      const record = enabled && tabId !== undefined ? recordForPage(records, tabId, host) : null;
      setDiagnosis((current) =>
        current.enabled === enabled && current.record === record ? current : { enabled, record },
      );
    };
    const unwatch = [
      diagnosisSettingsItem.watch((value) => {
        enabled = value.enabled;
        publish();
      }),
      failedHostsItem.watch((value) => {
        records = value;
        publish();
      }),
    ];
    void Promise.all([readTabId(), diagnosisSettingsItem.getValue(), failedHostsItem.getValue()])
      .then(([id, settings, stored]) => {
        tabId = id;
        enabled = settings.enabled;
        records = stored;
        publish();
      })
      .catch(() => undefined);
    return () => {
      live = false;
      for (const stop of unwatch) stop();
    };
  }, [host, readTabId]);
  return diagnosis;
}

/** The verdict's input from page diagnosis: the page's own DNS-type failure, if any. */
export function pageKnowledge(diagnosis: PageDiagnosis, host: string | null): PageKnowledge {
  const failed = diagnosis.record?.mainFrame;
  if (!failed || host === null || canonicalHost(failed.host) !== canonicalHost(host)) return {};
  return { mainFrameFailure: { error: failed.error } };
}

type Statistics =
  | { state: 'known'; blocked: ReadonlyMap<string, number> }
  | { state: 'loading' }
  | { state: 'unavailable'; message: string };

/** Fetches today's statistics once, directly: the popup had none it could lend. */
async function fetchBlockedToday(): Promise<ReadonlyMap<string, number>> {
  const [{ createConfiguredClient }, { summariseDay }] = await Promise.all([
    import('@/lib/api/configured-client'),
    import('@/lib/logs/stats'),
  ]);
  const api = await createConfiguredClient();
  if (api === null) throw new Error('no key');
  const summary = summariseDay(await api.getStats(localDate(new Date())));
  return new Map(summary.blockedDomains.map(({ key, count }) => [key, count]));
}

/** The popup's statistics when it has them; otherwise one fetch, made only when there is a host to check. */
function useStatistics(
  known: ReadonlyMap<string, number> | undefined,
  needed: boolean,
  fetchStats: () => Promise<ReadonlyMap<string, number>>,
): Statistics {
  const [fetched, setFetched] = useState<Statistics | null>(null);
  const shouldFetch = known === undefined && needed && fetched === null;
  useEffect(() => {
    if (!shouldFetch) return;
    setFetched({ state: 'loading' });
    fetchStats().then(
      (blocked) => setFetched({ state: 'known', blocked }),
      (error: unknown) =>
        setFetched({
          state: 'unavailable',
          message: error instanceof Error && error.message !== 'no key' ? error.message : '',
        }),
    );
  }, [shouldFetch, fetchStats]);
  if (known !== undefined) return { state: 'known', blocked: known };
  return fetched ?? { state: 'loading' };
}

function statisticsText(host: string, statistics: Statistics): string {
  if (statistics.state === 'loading') return t('popup.failedHosts.statsChecking');
  if (statistics.state === 'unavailable') return t('popup.failedHosts.statsUnavailable');
  const count = statistics.blocked.get(canonicalHost(host)) ?? 0;
  if (count === 0) return t('popup.failedHosts.statsNone');
  return tn('popup.failedHosts.statsConfirm', count);
}

export interface FailedHostsListProps {
  hosts: readonly FailedHost[];
  /** The page's own host: its row points to the buttons above rather than repeating them. */
  pageHost: string;
  statistics: Statistics;
  /** Registrable domain of a host (Public Suffix List); undefined while the list loads. */
  registrable: ((host: string) => string) | undefined;
  membershipOf(domain: string): Membership | null;
  busy: boolean;
  onWhitelist(domain: string, before: Membership): void;
  temporaryAllow: { profile: string | undefined; account: string; allows: readonly TemporaryAllowEntry[] };
}

export function FailedHostsList(props: FailedHostsListProps) {
  const { hosts, pageHost, statistics, registrable, busy, onWhitelist, temporaryAllow } = props;
  const heading = useId();
  return (
    <section class="failed-hosts">
      <h2 id={heading} class="hint">
        {t('popup.failedHosts.heading')}
      </h2>
      <ul aria-labelledby={heading}>
        {hosts.map((failed) => {
          const domain = registrable?.(failed.host);
          const isPage = canonicalHost(failed.host) === canonicalHost(pageHost);
          return (
            <li key={failed.host}>
              <strong class="domain">{failed.host}</strong>{' '}
              <span class="hint">
                {tn('popup.failedHosts.failure', failed.count, {
                  description: describeFailure(failed.kind),
                  error: failed.error,
                })}
              </span>
              <br />
              <span class="hint">{statisticsText(failed.host, statistics)}</span>
              {isPage ? (
                <p class="hint">{t('popup.failedHosts.thisPage')}</p>
              ) : domain === undefined ? null : (
                <HostActions
                  host={failed.host}
                  domain={domain}
                  membershipOf={props.membershipOf}
                  busy={busy}
                  onWhitelist={onWhitelist}
                  temporaryAllow={temporaryAllow}
                />
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function HostActions({
  host,
  domain,
  membershipOf: placeOf,
  busy,
  onWhitelist,
  temporaryAllow,
}: {
  host: string;
  domain: string;
} & Pick<FailedHostsListProps, 'membershipOf' | 'busy' | 'onWhitelist' | 'temporaryAllow'>) {
  const membership = placeOf(domain);
  const exact = canonicalHost(host) === canonicalHost(domain) ? null : placeOf(host);
  // Allowed for a while: the time left says more than "on the whitelist".
  if (findTemporaryAllow(temporaryAllow.allows, { domain, ...temporaryAllow })) {
    return <TemporaryAllow domain={domain} membership={membership} {...temporaryAllow} />;
  }
  if (membership === 'whitelist' || exact === 'whitelist') {
    return <p class="hint">{t('popup.failedHosts.onWhitelist')}</p>;
  }
  return (
    <>
      <div class="actions">
        <button
          type="button"
          disabled={busy || membership === null}
          onClick={() => membership !== null && onWhitelist(domain, membership)}
        >
          {t('popup.failedHosts.whitelistDomain', { domain })}
        </button>
        {exact !== null && (
          <button
            type="button"
            class="link"
            disabled={busy}
            aria-label={t('popup.failedHosts.whitelistOnlyLabel', { host })}
            onClick={() => onWhitelist(host, exact)}
          >
            {t('popup.failedHosts.only', { host })}
          </button>
        )}
      </div>
      <TemporaryAllow domain={domain} membership={membership} {...temporaryAllow} />
    </>
  );
}

/**
 * The registrable domain of each failed host, asked of the worker once the hosts are known (the
 * popup does not load the Public Suffix List itself); undefined until the answer is in.
 */
function useRegistrable(hosts: readonly FailedHost[]): ((host: string) => string) | undefined {
  const names = hosts.map((failed) => failed.host).join(' ');
  const [known, setKnown] = useState<{ names: string; domains: ReadonlyMap<string, string> } | null>(null);
  useEffect(() => {
    if (names === '') return;
    let live = true;
    const asked = names.split(' ');
    void registrableDomainsOf(asked).then(
      (domains) => live && setKnown({ names, domains: new Map(asked.map((host, i) => [host, domains[i]!])) }),
    );
    return () => {
      live = false;
    };
  }, [names]);
  if (known === null || known.names !== names) return undefined;
  return (host) => known.domains.get(host) ?? host;
}

export interface PageDiagnosisPanelProps {
  state: ReadyState;
  view: PopupView;
  controller: Pick<PopupController, 'act'>;
  diagnosis: PageDiagnosis;
  fetchStats?: () => Promise<ReadonlyMap<string, number>>;
}

/** Everything page diagnosis adds to the popup, in one place under the verdict and its buttons. */
export function PageDiagnosisPanel({
  state,
  view,
  controller,
  diagnosis,
  fetchStats = fetchBlockedToday,
}: PageDiagnosisPanelProps) {
  const allows = useTemporaryAllows();
  const hosts = diagnosis.enabled ? (diagnosis.record?.hosts ?? []) : [];
  const registrable = useRegistrable(hosts);
  const statistics = useStatistics(state.blockedToday?.value, hosts.length > 0, fetchStats);
  const temporaryAllow = { profile: state.profile, account: state.account, allows };
  return (
    <>
      <TemporaryAllow domain={view.domain} membership={view.membership} {...temporaryAllow} />
      {diagnosis.enabled &&
        (hosts.length > 0 ? (
          <FailedHostsList
            hosts={hosts}
            pageHost={state.host}
            statistics={statistics}
            registrable={registrable}
            membershipOf={(domain) => membershipOf(state, domain)}
            busy={state.change.state === 'running'}
            onWhitelist={(domain, before) => void controller.act('add', 'whitelist', domain, before)}
            temporaryAllow={temporaryAllow}
          />
        ) : (
          <p class="hint">{t('popup.failedHosts.noneFailed')}</p>
        ))}
    </>
  );
}
