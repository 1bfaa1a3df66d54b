/**
 * What the popup's verdict takes into account, assembled in one place: the scope's lists with the
 * changes made since they were fetched, the TLDs and default-block set from this browser, today's
 * statistics, and what page diagnosis saw of the page. The rules that weigh them are
 * lib/filtering/verdict.ts; the controller (controller.ts) fetches what they need, the view model
 * (view.ts) says the outcome.
 */
import { type Membership, replayChanges } from '@/lib/cache/list-changes';
import { listsCover } from '@/lib/cache/view-cache';
import {
  canonicalHost,
  type DomainIndex,
  packedDomainIndex,
  withChanges,
} from '@/lib/filtering/domain-index';
import { needsStatistics, type Verdict, verdictFor } from '@/lib/filtering/verdict';
import { carriesListChange } from '@/lib/messaging/queued-change';
import { scopeKey } from '@/lib/settings/storage';
import type { PageDiagnosis } from './page-diagnosis';
import type { ReadyState } from './state';

export function inScope(state: ReadyState, change: { profile?: string }): boolean {
  return scopeKey(state.form, change.profile) === state.scope;
}

/** A queued or settled change of the account shown: another account's are never counted here. */
export const ofAccount = (state: ReadyState, entry: { account: string }) => entry.account === state.account;

export interface Indexes {
  whitelist: DomainIndex;
  blocklist: DomainIndex;
}

/**
 * The lists as fetched, plus changes the service confirmed after the fetch (the worker's settled
 * changes, e.g. from the context menu), plus, when `withPending`, changes still in the outbox.
 */
export function indexes(state: ReadyState, withPending: boolean): Indexes | null {
  if (state.lists === null) return null;
  const fetchedAt = state.lists.fetchedAt;
  const confirmed = state.settled
    .filter(carriesListChange)
    .filter(
      (s) => s.state === 'delivered' && s.at > fetchedAt && ofAccount(state, s) && inScope(state, s.change),
    )
    .map((s) => s.change)
    .reverse();
  const waiting = withPending
    ? state.outbox
        .filter(carriesListChange)
        .filter((e) => ofAccount(state, e))
        .map((e) => e.change)
        .filter((c) => inScope(state, c))
    : [];
  const delta = replayChanges([...confirmed, ...waiting]);
  return {
    whitelist: withChanges(packedDomainIndex(state.lists.value.whitelist), delta.whitelist),
    blocklist: withChanges(packedDomainIndex(state.lists.value.blocklist), delta.blocklist),
  };
}

/** What page diagnosis (lib/diagnosis) knows about the page, when it is on. */
export interface PageKnowledge {
  mainFrameFailure?: { error: string };
}

/** The verdict's input from page diagnosis: the page's own DNS-type failure, if any. */
export function pageKnowledge(diagnosis: PageDiagnosis, host: string | null): PageKnowledge {
  const failed = diagnosis.record?.mainFrame;
  if (!failed || host === null || canonicalHost(failed.host) !== canonicalHost(host)) return {};
  return { mainFrameFailure: { error: failed.error } };
}

export function verdictWith(state: ReadyState, lists: Indexes, page: PageKnowledge = {}): Verdict {
  return verdictFor(state.host, {
    ...lists,
    blockedTlds: state.blockedTlds,
    defaultBlock: state.defaultBlock,
    blockedToday: state.blockedToday?.value,
    ...page,
  });
}

/** Where `domain` is in `lists`: the whitelist wins, as in the verdict. */
export function membershipIn(lists: Indexes, domain: string): Membership {
  if (lists.whitelist.has(domain)) return 'whitelist';
  return lists.blocklist.has(domain) ? 'blocklist' : 'none';
}

/**
 * Where `domain` is in the scope's lists, counting waiting changes; null while the lists are
 * unknown, or only read for other hosts (lib/cache/list-buckets.ts).
 */
export function membershipOf(state: ReadyState, domain: string): Membership | null {
  if (state.lists !== null && !listsCover(state.lists.value, domain)) return null;
  const lists = indexes(state, true);
  return lists === null ? null : membershipIn(lists, domain);
}

/** True when the lists leave the verdict open, so today's statistics could settle it. */
export function statisticsNeeded(state: ReadyState): boolean {
  const lists = indexes(state, true);
  return lists !== null && needsStatistics(verdictWith(state, lists));
}
