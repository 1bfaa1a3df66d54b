/**
 * What the popup shows, derived from the controller's state by pure functions: the verdict and
 * its sentence, how current it is, the domain the buttons act on and the changes still waiting.
 */
import { attempts } from '@/lib/api/attempts';
import { capabilitiesOf } from '@/lib/api/forms';
import { ageText } from '@/lib/cache/freshness';
import type { ChangeLike, Membership } from '@/lib/cache/list-changes';
import { isFreshView } from '@/lib/cache/view-cache';
import { canonicalHost } from '@/lib/filtering/domain-index';
import { needsStatistics, type Verdict } from '@/lib/filtering/verdict';
import { t, tn } from '@/lib/i18n';
import type { ListChange, QueuedChange } from '@/lib/messaging/protocol';
import { carriesListChange, isListChange } from '@/lib/messaging/queued-change';
import { recordOf, verdictAddition } from '@/lib/notes';
import type { SectionId } from '@/lib/options/routes';
import { describeSetting, describeSettingWithSource } from '@/lib/outbox/setting-text';
import type { OutboxEntry, SettledChange } from '@/lib/settings/storage';
import type { PopupState, ReadyState } from './state';
import { indexes, inScope, membershipIn, ofAccount, type PageKnowledge, verdictWith } from './verdict-inputs';

export interface DomainChoice {
  domain: string;
  /** The switch button's text, naming the domain it switches to. */
  label: string;
}

/** A section of the options page, which `options.html#<section>` opens (lib/options/routes.ts). */
export type OptionsSection = SectionId;

export interface PopupView {
  verdict: Verdict | null;
  /** The status region's text: the verdict's word and reason, or what stands in for it. */
  statusText: string;
  /** The verdict's word and one line of reason; null while there is no verdict (statusText says why). */
  headline: VerdictHeadline | null;
  /** What the verdict rests on, shown on demand. */
  details: string[];
  /** The verdict rests on the service's current data (or a cache young enough to count as such). */
  fresh: boolean;
  /** A line saying how old the view is, when it is not fresh or is being refreshed. */
  freshnessText: string | null;
  /** The domain the buttons act on. */
  domain: string;
  /**
   * `domain` is the tab's public suffix or above it (co.uk, cloudfront.net): the sites of many
   * owners share it, so the buttons add it only once the user typed it (`typedNameMatches`).
   */
  publicSuffix: boolean;
  alternatives: DomainChoice[];
  /** Where the shown domain is, counting changes still waiting; null while the lists are unknown. */
  membership: Membership | null;
  /**
   * Waiting changes of this account for the shown domain, and its setting changes for the shown
   * profile (a schedule's category), oldest first.
   */
  pending: OutboxEntry[];
  /** Waiting changes made for another account (another key, origin or form): never sent to this one. */
  otherAccounts: number;
  /** A change for the shown domain the service refused after a retry, within the last hour. */
  recentFailure: SettledChange | null;
  /**
   * The waiting changes in one line each, naming what the user asked for and why it is not through
   * ("Waiting to add … to the blocklist. The service did not answer…"), never a step of the delivery.
   */
  waiting: string[];
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
  // A setting waiting for the profile shown (a schedule's category) may change every verdict in it.
  const concernsView = (change: QueuedChange) =>
    isListChange(change) ? concernsDomain(change) : inScope(state, change);
  const pending = state.outbox.filter((entry) => ofAccount(state, entry) && concernsView(entry.change));
  const otherAccounts = state.outbox.filter((entry) => !ofAccount(state, entry)).length;
  const latest = state.settled
    .filter(carriesListChange)
    .find((settled) => ofAccount(state, settled) && concernsDomain(settled.change));
  const recentFailure =
    latest !== undefined && latest.state === 'failed' && now - latest.at < RECENT_FAILURE_MS ? latest : null;

  const headline =
    verdict === null
      ? null
      : verdictHeadline(
          verdict,
          state.host,
          scopeLabel(state),
          includesPending,
          // A verdict that counts a change not sent yet rests on no entry of the service's lists.
          includesPending ? null : entryLine(state, verdict, now),
        );
  return {
    verdict,
    statusText: headline === null ? statusText(state) : t('popup.headline', headline),
    headline,
    details: verdict === null ? [] : verdictDetails(state, verdict, includesPending),
    fresh,
    freshnessText: freshnessText(state, now),
    domain,
    publicSuffix: sharedByManySites(state, domain),
    alternatives,
    membership,
    pending,
    otherAccounts,
    recentFailure,
    waiting: waitingLines(pending, state.change),
  };
}

/**
 * One line per waiting change: what the user asked for and why it is not through, never the step
 * of its delivery that failed. "Still waiting" right after Send now left it waiting.
 */
function waitingLines(pending: readonly OutboxEntry[], change: ReadyState['change']): string[] {
  const still = change.state === 'pending' && change.retried;
  return pending.map(({ change, lastError }) => {
    const asked = isListChange(change) ? attempted(change) : describeSettingWithSource(change);
    if (!lastError) return t(still ? 'popup.stillWaitingTo' : 'popup.waitingTo', { attempted: asked });
    const reason = failureDetail(lastError, change);
    return t(still ? 'popup.stillWaitingToBecause' : 'popup.waitingToBecause', { attempted: asked, reason });
  });
}

function attempted({ op, list, domain, profile }: ListChange): string {
  return op === 'add'
    ? attempts.addDomain(list, domain, profile)
    : attempts.deleteDomain(list, domain, profile);
}

/**
 * The failure without the step it names: delivering a change may first take the domain off the
 * other list (docs/service-api.md), and "Could not remove … from the blocklist" names a step the
 * user never asked for; a setting's "Could not …" repeats what is waiting. The failures are the
 * client's "Could not {attempted}: {detail}".
 */
function failureDetail(failure: string, change: QueuedChange): string {
  const steps = isListChange(change)
    ? [
        attempted(change),
        attempts.deleteDomain(
          change.list === 'whitelist' ? 'blocklist' : 'whitelist',
          change.domain,
          change.profile,
        ),
        attempts.addDomain(change.list, change.domain, change.profile),
      ]
    : [describeSetting(change)];
  for (const step of steps) {
    const prefix = t('api.couldNot', { attempted: step, detail: '' });
    if (failure.startsWith(prefix)) return failure.slice(prefix.length);
  }
  return failure;
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
  const choices: DomainChoice[] = [];
  const add = (domain: string, label: string) => {
    if (!choices.some((choice) => choice.domain === domain)) choices.push({ domain, label });
  };
  if (entry !== undefined) add(entry, t('popup.useEntry', { domain: entry }));
  // A host that is itself a public suffix has no registrable domain: only the host is left.
  if (state.registrable !== null) {
    const registrable = state.registrable ?? state.host;
    add(registrable, t('popup.useRegistrable', { domain: registrable }));
  }
  add(state.host, t('popup.useExact', { domain: state.host }));
  const chosen = choices.find((choice) => choice.domain === state.chosenDomain) ?? choices[0]!;
  return { domain: chosen.domain, alternatives: choices.filter((choice) => choice !== chosen) };
}

/**
 * Whether `domain`, which covers the tab's host, is the host's public suffix or above it: every
 * site under it shares it. Worked out without the Public Suffix List, from the registrable domain
 * the popup holds: a host that is a suffix has none (null), and above a registrable domain there
 * are only its suffix and that suffix's parents.
 */
function sharedByManySites(state: Pick<ReadyState, 'host' | 'registrable'>, domain: string): boolean {
  const name = canonicalHost(domain);
  const covers = (below: string) => below === name || below.endsWith(`.${name}`);
  if (state.registrable === null) return covers(canonicalHost(state.host));
  if (state.registrable === undefined) return false;
  const registrable = canonicalHost(state.registrable);
  return registrable !== name && covers(registrable);
}

/** Whether what the user typed names `domain`: in any case, with or without a trailing dot, as Unicode or punycode. */
export function typedNameMatches(typed: string, domain: string): boolean {
  const name = canonicalHost(typed);
  return name !== '' && name === canonicalHost(domain);
}

/** The status region's text while there is no verdict. */
function statusText(state: ReadyState): string {
  if (state.problem !== null)
    return t('popup.couldNotCheck', { host: state.host, reason: state.problem.message });
  return t('popup.checking', { host: state.host });
}

/** The verdict at a glance: the large word (its colour and icon follow `verdict.kind`) and one line of reason. */
export interface VerdictHeadline {
  word: string;
  reason: string;
}

const VERDICT_WORDS = {
  blocked: 'popup.word.blocked',
  allowed: 'popup.word.allowed',
  'not-blocked': 'popup.word.notBlocked',
} as const satisfies Record<Verdict['kind'], string>;

/**
 * The word and the one line of reason. The domain stands above it in the popup, so the reason
 * names the list entry or rule that decides, not the host again; the rest is in `verdictDetails`.
 */
export function verdictHeadline(
  verdict: Verdict,
  host: string,
  scope: string,
  includesPending = false,
  /** When, from where and why the deciding entry was added here (`entryLine`). */
  entry: string | null = null,
): VerdictHeadline {
  const reason =
    entry === null ? verdictReason(verdict, host, scope) : `${verdictReason(verdict, host, scope)} ${entry}`;
  return {
    word: t(VERDICT_WORDS[verdict.kind]),
    reason: includesPending ? t('popup.reason.countsPending', { reason }) : reason,
  };
}

/** The record of the list entry that decides the verdict, in words (lib/notes), or null. */
function entryLine(state: ReadyState, verdict: Verdict, now: number): string | null {
  if (!state.entryNotes || (verdict.reason !== 'whitelist' && verdict.reason !== 'blocklist')) return null;
  const address = { scope: state.scope, list: verdict.reason, domain: verdict.entry };
  return verdictAddition(recordOf(state.entryNotes, address), now);
}

function verdictReason(verdict: Verdict, host: string, scope: string): string {
  switch (verdict.reason) {
    case 'whitelist':
      return verdict.entry === host
        ? t('popup.reason.whitelist', { scope })
        : t('popup.reason.whitelistEntry', { entry: verdict.entry, scope });
    case 'blocklist':
      return verdict.entry === host
        ? t('popup.reason.blocklist', { scope })
        : t('popup.reason.blocklistEntry', { entry: verdict.entry, scope });
    case 'tld':
      return t('popup.reason.tld', { tld: verdict.tld, scope });
    case 'default-block':
      return t('popup.reason.defaultBlock', { scope });
    case 'stats':
      return tn('popup.reason.stats', verdict.count);
    case 'dns-failure':
      return t('popup.reason.dnsFailure');
    case 'none':
      return verdict.statsChecked
        ? t('popup.reason.noneNoStats', { scope })
        : t('popup.reason.none', { scope });
  }
}

/**
 * What the verdict rests on, beyond its one line: shown on demand (a disclosure), never by default.
 */
export function verdictDetails(
  state: Pick<ReadyState, 'host' | 'statsProblem'>,
  verdict: Verdict,
  includesPending = false,
): string[] {
  const { host } = state;
  const lines: string[] = [];
  switch (verdict.reason) {
    case 'whitelist':
      lines.push(t('popup.details.whitelist'));
      break;
    case 'blocklist':
      lines.push(t('popup.details.blocklist'));
      break;
    case 'tld':
      lines.push(t('popup.details.tld'));
      break;
    case 'default-block':
      lines.push(t('popup.details.defaultBlock', { host }));
      break;
    case 'stats':
      lines.push(t('popup.details.stats', { host }));
      break;
    case 'dns-failure':
      // Page diagnosis saw the page fail; nothing above explains it, so the filter is the likely cause.
      lines.push(t('popup.details.dnsFailure', { host, error: verdict.error }));
      if (verdict.statsChecked) lines.push(t('popup.details.dnsFailureNoStats'));
      break;
    case 'none':
      lines.push(t('popup.details.none'));
      if (state.statsProblem !== null) lines.push(t('popup.statsUnreadable', { reason: state.statsProblem }));
      break;
  }
  if (includesPending) lines.push(t('popup.details.countsPending'));
  return lines;
}

/** The options page's section about the rule behind a verdict, when it has one (`options.html#<section>`). */
export function sectionOf(verdict: Verdict): OptionsSection | null {
  switch (verdict.reason) {
    case 'whitelist':
    case 'blocklist':
      return verdict.reason;
    case 'tld':
      return 'tlds';
    case 'default-block':
      return 'default-block';
    default:
      return null;
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
