/**
 * "Failed hosts on this page": each host the worker saw fail on the page, with whether today's
 * statistics confirm a block and a one-click Whitelist (or the temporary allow running for it).
 * Part of the page diagnosis panel (PageDiagnosisPanel.tsx).
 */
import { useId } from 'preact/hooks';
import type { Membership } from '@/lib/cache/list-changes';
import { describeFailure } from '@/lib/diagnosis/classify';
import { findTemporaryAllow } from '@/lib/diagnosis/temporary-allow-choices';
import { canonicalHost } from '@/lib/filtering/domain-index';
import { t, tn } from '@/lib/i18n';
import { type Statistics, statisticsText } from '@/lib/popup/page-diagnosis';
import type { RegistrableAnswer } from '@/lib/popup/registrable';
import type { FailedHost, TemporaryAllow as TemporaryAllowEntry } from '@/lib/settings/storage';
import { TemporaryAllow } from './TemporaryAllow';

export interface FailedHostsListProps {
  hosts: readonly FailedHost[];
  /** The page's own host: its row points to the buttons above rather than repeating them. */
  pageHost: string;
  statistics: Statistics;
  /**
   * Registrable domain of a host (Public Suffix List), null for a host that is itself a public
   * suffix; undefined while the list loads.
   */
  registrable: ((host: string) => RegistrableAnswer) | undefined;
  membershipOf(domain: string): Membership | null;
  busy: boolean;
  onWhitelist(domain: string, before: Membership): void;
  temporaryAllow: {
    profile: string | undefined;
    account: string;
    allows: readonly TemporaryAllowEntry[];
    shownAccount: () => Promise<string | null>;
  };
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
              ) : domain === undefined ? null : domain === null ? (
                // Shared by the sites of many owners: one click must not cover them all.
                <p class="hint">{t('popup.failedHosts.publicSuffix', { host: failed.host })}</p>
              ) : (
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
