/**
 * The review of an unbreak (unbreak.ts), as the popup shows it: which of the entries allowed for
 * a while the site really loaded ("needed") and which it never did, in one sentence. Pure, and
 * kept apart from the worker's side so the popup loads only this.
 */

import { canonicalHost } from '@/lib/filtering/domain-index';
import { formatList, t, tn } from '@/lib/i18n';
import type { AccountId } from '@/lib/identity/identity';
import type { UnbreakDomain, UnbreakSession } from '@/lib/settings/storage';
import { endTimeText } from './temporary-allow-choices';

export interface UnbreakReview {
  session: UnbreakSession;
  /** 'running' while the allows run (the popup says "so far"), 'ended' after. */
  phase: 'running' | 'ended';
  needed: UnbreakDomain[];
  unneeded: UnbreakDomain[];
}

export function reviewOf(session: UnbreakSession, now: number): UnbreakReview {
  return {
    session,
    phase: now < session.expiresAt ? 'running' : 'ended',
    needed: session.domains.filter((entry) => entry.loadedAt !== undefined),
    unneeded: session.domains.filter((entry) => entry.loadedAt === undefined),
  };
}

/** The review the popup shows on a page of `site`: the newest unbreak of this account there. */
export function reviewForSite(
  sessions: readonly UnbreakSession[],
  where: { account: AccountId; site: string },
  now: number,
): UnbreakReview | null {
  const site = canonicalHost(where.site);
  const session = sessions
    .filter((entry) => entry.account === where.account && canonicalHost(entry.site) === site)
    .reduce<UnbreakSession | null>(
      (newest, entry) => (newest === null || entry.startedAt > newest.startedAt ? entry : newest),
      null,
    );
  return session === null ? null : reviewOf(session, now);
}

/** The review's sentence: "This page used a.example and b.example; c.example was never needed." */
export function reviewText(review: UnbreakReview): string {
  const needed = formatList(review.needed.map((entry) => entry.domain));
  const unneeded = formatList(review.unneeded.map((entry) => entry.domain));
  const count = review.unneeded.length;
  if (review.phase === 'running') {
    const end = endTimeText(review.session.expiresAt);
    if (review.needed.length === 0) return t('unbreak.review.runningNone', { end });
    if (count === 0) return t('unbreak.review.runningAll', { needed, end });
    return tn('unbreak.review.running', count, { needed, unneeded, end });
  }
  if (review.needed.length === 0) return t('unbreak.review.endedNone', { unneeded });
  if (count === 0) return t('unbreak.review.endedAll', { needed });
  return tn('unbreak.review.ended', count, { needed, unneeded });
}
