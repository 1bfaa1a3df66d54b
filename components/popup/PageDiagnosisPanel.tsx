/**
 * Page diagnosis in the popup: while "Diagnose pages" is on, the failed hosts of the page under
 * the verdict and its buttons. What the worker recorded is read through
 * lib/popup/page-diagnosis.ts; today's statistics and registrable domains come from the popup
 * controller; changes go through the controller and the worker's outbox like every other
 * one-click change.
 */
import { useEffect, useState } from 'preact/hooks';
import { t } from '@/lib/i18n';
import type { PopupController } from '@/lib/popup/controller';
import { failedHostsOf, type PageDiagnosis, statisticsOf } from '@/lib/popup/page-diagnosis';
import type { RegistrableAnswer } from '@/lib/popup/registrable';
import type { ReadyState } from '@/lib/popup/state';
import { membershipOf } from '@/lib/popup/verdict-inputs';
import type { FailedHost, TemporaryAllow as TemporaryAllowEntry } from '@/lib/settings/storage';
import { FailedHostsList } from './FailedHostsList';

/**
 * The registrable domain of each failed host, asked of the worker once the hosts are known (the
 * popup does not load the Public Suffix List itself); undefined until the answer is in. Null for a
 * host that is itself a public suffix: no entry is offered for it.
 */
export function useRegistrable(
  hosts: readonly FailedHost[],
  lookup: PopupController['registrableDomainsOf'],
): ((host: string) => RegistrableAnswer) | undefined {
  const names = hosts.map((failed) => failed.host).join(' ');
  const [known, setKnown] = useState<{
    names: string;
    domains: ReadonlyMap<string, RegistrableAnswer>;
  } | null>(null);
  useEffect(() => {
    if (names === '') return;
    let live = true;
    const asked = names.split(' ');
    void lookup(asked).then(
      (domains) => live && setKnown({ names, domains: new Map(asked.map((host, i) => [host, domains[i]!])) }),
    );
    return () => {
      live = false;
    };
  }, [names, lookup]);
  if (known === null || known.names !== names) return undefined;
  return (host) => {
    const found = known.domains.get(host);
    return found === undefined ? host : found;
  };
}

export interface PageDiagnosisPanelProps {
  state: ReadyState;
  controller: Pick<PopupController, 'act' | 'requestStatistics' | 'registrableDomainsOf' | 'shownAccountId'>;
  diagnosis: PageDiagnosis;
  /** The running temporary allows (page-facts.ts's useTemporaryAllows). */
  allows: readonly TemporaryAllowEntry[];
}

/** Everything page diagnosis adds to the popup, in one place under the verdict and its buttons. */
export function PageDiagnosisPanel({ state, controller, diagnosis, allows }: PageDiagnosisPanelProps) {
  const hosts = failedHostsOf(diagnosis);
  const registrable = useRegistrable(hosts, controller.registrableDomainsOf);
  const anyFailed = hosts.length > 0;
  // What today's statistics say of each failed host: the verdict's own when it had them.
  useEffect(() => {
    if (anyFailed) void controller.requestStatistics();
  }, [anyFailed, controller]);
  const temporaryAllow = {
    profile: state.profile,
    account: state.account,
    allows,
    shownAccount: controller.shownAccountId,
  };
  if (!diagnosis.enabled) return null;
  return anyFailed ? (
    <FailedHostsList
      hosts={hosts}
      pageHost={state.host}
      statistics={statisticsOf(state)}
      registrable={registrable}
      membershipOf={(domain) => membershipOf(state, domain)}
      busy={state.change.state === 'running'}
      onWhitelist={(domain, before) => void controller.act('add', 'whitelist', domain, before)}
      temporaryAllow={temporaryAllow}
    />
  ) : (
    <p class="muted small">{t('popup.failedHosts.noneFailed')}</p>
  );
}
