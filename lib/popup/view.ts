/**
 * What the popup shows, derived from the controller's state by pure functions: the verdict and
 * its sentence, how current it is, the domain the buttons act on and the changes still waiting.
 */
import { capabilitiesOf } from '@/lib/api/forms';
import { ageText } from '@/lib/cache/freshness';
import type { ChangeLike, Membership } from '@/lib/cache/list-changes';
import { isFreshView } from '@/lib/cache/view-cache';
import { canonicalHost } from '@/lib/filtering/domain-index';
import { needsStatistics, type Verdict } from '@/lib/filtering/verdict';
import { t, tn } from '@/lib/i18n';
import type { OutboxEntry, SettledChange } from '@/lib/settings/storage';
import type { PopupState, ReadyState } from './state';
import { indexes, inScope, membershipIn, ofAccount, type PageKnowledge, verdictWith } from './verdict-inputs';

export interface DomainChoice {
  domain: string;
  /** The switch button's text, naming the domain it switches to. */
  label: string;
}

export interface PopupView {
  verdict: Verdict | null;
  /** The status region's text: the verdict sentence, or what stands in for it. */
  statusText: string;
  /** The verdict rests on the service's current data (or a cache young enough to count as such). */
  fresh: boolean;
  /** A line saying how old the view is, when it is not fresh or is being refreshed. */
  freshnessText: string | null;
  /** The domain the buttons act on. */
  domain: string;
  alternatives: DomainChoice[];
  /** Where the shown domain is, counting changes still waiting; null while the lists are unknown. */
  membership: Membership | null;
  /** Waiting changes of this account for the shown domain, oldest first. */
  pending: OutboxEntry[];
  /** Waiting changes made for another account (another key, origin or form): never sent to this one. */
  otherAccounts: number;
  /** A change for the shown domain the service refused after a retry, within the last hour. */
  recentFailure: SettledChange | null;
}

const RECENT_FAILURE_MS = 60 * 60 * 1000;

export function scopeLabel(state: Pick<ReadyState, 'form' | 'profile'>): string {
  return choosesProfile(state)
    ? t('common.profileNamed', { profile: state.profile ?? 'default' })
    : t('popup.scopeAccount');
}

/** The popup offers a profile picker where the account's form can aim a change at one profile. */
export function choosesProfile(state: Pick<ReadyState, 'form'>): boolean {
  return capabilitiesOf(state.form).profileSelection;
}

export function derivePopupView(state: ReadyState, now: number, page: PageKnowledge = {}): PopupView {
  const lists = indexes(state, true);
  const verdict = lists === null ? null : verdictWith(state, lists, page);
  const confirmedOnly = indexes(state, false);
  const includesPending =
    verdict !== null &&
    confirmedOnly !== null &&
    JSON.stringify(verdictWith(state, confirmedOnly, page)) !== JSON.stringify(verdict);

  const statsSettled = isFreshView(state.blockedToday, now) || state.statsProblem !== null;
  const fresh =
    verdict !== null &&
    isFreshView(state.lists, now) &&
    state.problem === null &&
    (!needsStatistics(verdict) || statsSettled);

  const { domain, alternatives } = domainChoices(state, verdict);
  const membership = lists === null ? null : membershipIn(lists, domain);
  const canonical = canonicalHost(domain);
  const concernsDomain = (change: ChangeLike & { profile?: string }) =>
    inScope(state, change) && canonicalHost(change.domain) === canonical;
  const pending = state.outbox.filter((entry) => ofAccount(state, entry) && concernsDomain(entry.change));
  const otherAccounts = state.outbox.filter((entry) => !ofAccount(state, entry)).length;
  const latest = state.settled.find((settled) => ofAccount(state, settled) && concernsDomain(settled.change));
  const recentFailure =
    latest !== undefined && latest.state === 'failed' && now - latest.at < RECENT_FAILURE_MS ? latest : null;

  return {
    verdict,
    statusText: statusText(state, verdict, includesPending),
    fresh,
    freshnessText: freshnessText(state, now),
    domain,
    alternatives,
    membership,
    pending,
    otherAccounts,
    recentFailure,
  };
}

/**
 * The registrable domain by default (docs/service-api.md), or the list entry that decides the verdict,
 * so removing it is one click; the others are one click away.
 */
function domainChoices(
  state: ReadyState,
  verdict: Verdict | null,
): { domain: string; alternatives: DomainChoice[] } {
  const entry =
    verdict !== null && (verdict.reason === 'whitelist' || verdict.reason === 'blocklist')
      ? verdict.entry
      : undefined;
  const registrable = state.registrable ?? state.host;
  const choices: DomainChoice[] = [];
  const add = (domain: string, label: string) => {
    if (!choices.some((choice) => choice.domain === domain)) choices.push({ domain, label });
  };
  if (entry !== undefined) add(entry, t('popup.useEntry', { domain: entry }));
  add(registrable, t('popup.useRegistrable', { domain: registrable }));
  add(state.host, t('popup.useExact', { domain: state.host }));
  const chosen = choices.find((choice) => choice.domain === state.chosenDomain) ?? choices[0]!;
  return { domain: chosen.domain, alternatives: choices.filter((choice) => choice !== chosen) };
}

function statusText(state: ReadyState, verdict: Verdict | null, includesPending: boolean): string {
  if (verdict === null) {
    if (state.problem !== null)
      return t('popup.couldNotCheck', { host: state.host, reason: state.problem.message });
    return t('popup.checking', { host: state.host });
  }
  const sentence = verdictSentence(verdict, state.host, scopeLabel(state));
  return includesPending ? t('popup.countsPending', { sentence }) : sentence;
}

export function verdictSentence(verdict: Verdict, host: string, scope: string): string {
  switch (verdict.reason) {
    case 'whitelist':
      return verdict.entry === host
        ? t('popup.verdict.whitelistExact', { host, scope })
        : t('popup.verdict.whitelistEntry', { host, entry: verdict.entry, scope });
    case 'blocklist':
      return verdict.entry === host
        ? t('popup.verdict.blocklistExact', { host, scope })
        : t('popup.verdict.blocklistEntry', { host, entry: verdict.entry, scope });
    case 'tld':
      return t('popup.verdict.tld', { tld: verdict.tld, scope });
    case 'default-block':
      return t('popup.verdict.defaultBlock', { host, scope });
    case 'stats':
      return tn('popup.verdict.stats', verdict.count, { host });
    case 'dns-failure': {
      // Page diagnosis saw the page fail; nothing above explains it, so the filter is the likely cause.
      const sentence = t('popup.verdict.dnsFailure', { host, error: verdict.error, scope });
      return verdict.statsChecked ? `${sentence} ${t('popup.verdict.dnsFailureNoStats')}` : sentence;
    }
    case 'none': {
      const parts = [t('popup.verdict.none', { scope })];
      if (verdict.statsChecked) parts.push(t('popup.verdict.noneNoStats', { host }));
      parts.push(t('popup.verdict.categoryCaveat'));
      return parts.join(' ');
    }
  }
}

function freshnessText(state: ReadyState, now: number): string | null {
  const lists = state.lists;
  if (lists === null) return null;
  const age = t('popup.listsChecked', { age: ageText(lists.fetchedAt, now) });
  const fresh = isFreshView(lists, now);
  if (state.refreshing && !fresh) return t('popup.checkingChanges', { age });
  if (state.problem !== null) return t('popup.couldNotCheckAgain', { age, reason: state.problem.message });
  if (!fresh) return t('popup.mayHaveChanged', { age });
  return null;
}

/** What the popup says before (or instead of) a verdict. */
export function notReadyText(state: Exclude<PopupState, ReadyState>): string {
  if (state.phase === 'nothing-to-filter') {
    return state.unreadable ? t('popup.nothingUnreadable') : t('popup.nothingNoDomain');
  }
  if (state.phase === 'failed') return t('popup.couldNotStart', { reason: state.message });
  if (state.phase === 'no-key') return t('popup.noKey');
  return '';
}

/** The profile picker's choices: the chosen profile is offered even before the service lists it. */
export function profileChoices(state: Pick<ReadyState, 'profile' | 'profiles'>): {
  chosen: string;
  options: readonly string[];
} {
  const chosen = state.profile ?? 'default';
  const profiles = state.profiles?.value ?? [];
  return { chosen, options: profiles.includes(chosen) ? profiles : [chosen, ...profiles] };
}

/** The worker's outcome may carry the 30-to-45-minutes reminder already: it is not said twice. */
export function mentionsPropagation(message: string): boolean {
  return /30\D+45/.test(message);
}
