/**
 * "Unbreak this page" in the popup, after the actions: the offer while page diagnosis has failed
 * hosts on this page (UnbreakOffer.tsx), and the review of an unbreak of this site
 * (UnbreakReview.tsx), with one status for what the worker answered. The choice and the review
 * are worked out in lib/diagnosis; the worker allows, notes loads and keeps (lib/diagnosis/unbreak.ts).
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { findTemporaryAllow } from '@/lib/diagnosis/temporary-allow-choices';
import {
  chooseUnbreakDomains,
  type UnbreakRequestEntry,
  type UnbreakScope,
} from '@/lib/diagnosis/unbreak-choice';
import { askToReview, askToUnbreak } from '@/lib/diagnosis/unbreak-requests';
import { reviewForSite } from '@/lib/diagnosis/unbreak-review';
import { canonicalHost } from '@/lib/filtering/domain-index';
import { t } from '@/lib/i18n';
import type { ChangeOutcome } from '@/lib/messaging/protocol';
import type { PopupController } from '@/lib/popup/controller';
import { failedHostsOf, type PageDiagnosis } from '@/lib/popup/page-diagnosis';
import type { ReadyState } from '@/lib/popup/state';
import { indexes } from '@/lib/popup/verdict-inputs';
import { accountChanged } from '@/lib/popup/worker-requests';
import { type TemporaryAllow, unbreakSessionsItem } from '@/lib/settings/storage';
import { useStoredValue } from '../useStoredValue';
import { useRegistrable } from './PageDiagnosisPanel';
import { FLAT, STACK, UnbreakOffer } from './UnbreakOffer';
import { UnbreakReview } from './UnbreakReview';

export interface UnbreakPanelProps {
  state: ReadyState;
  controller: Pick<PopupController, 'registrableDomainsOf' | 'shownAccountId'>;
  diagnosis: PageDiagnosis;
  /** The running temporary allows (page-facts.ts's useTemporaryAllows). */
  allows: readonly TemporaryAllow[];
  now?: () => number;
  unbreak?: typeof askToUnbreak;
  review?: typeof askToReview;
}

/** Renders again when the allows of `expiresAt` end, so an open popup turns "so far" into the review. */
function useEndOf(expiresAt: number | undefined, now: () => number): void {
  const [, setEnded] = useState(0);
  useEffect(() => {
    if (expiresAt === undefined) return;
    const left = expiresAt - now();
    if (left <= 0) return;
    const timer = setTimeout(() => setEnded(expiresAt), Math.min(left + 50, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [expiresAt, now]);
}

export function UnbreakPanel({
  state,
  controller,
  diagnosis,
  allows,
  now = Date.now,
  unbreak = askToUnbreak,
  review: answerReview = askToReview,
}: UnbreakPanelProps) {
  const sessions = useStoredValue(unbreakSessionsItem, []);
  const [scope, setScope] = useState<UnbreakScope>('domain');
  const [outcome, setOutcome] = useState<ChangeOutcome | null>(null);
  const [busy, setBusy] = useState(false);

  const page = canonicalHost(state.host);
  const hosts = failedHostsOf(diagnosis).filter((failed) => canonicalHost(failed.host) !== page);
  const registrable = useRegistrable(hosts, controller.registrableDomainsOf);
  const choice = useMemo(() => {
    const lists = indexes(state, true);
    if (lists === null || registrable === undefined || hosts.length === 0) return null;
    return chooseUnbreakDomains({
      failedHosts: hosts.map((failed) => failed.host),
      pageHost: state.host,
      scope,
      registrable,
      lists,
      allowedForAWhile: (domain) =>
        findTemporaryAllow(allows, { domain, profile: state.profile, account: state.account }) !== undefined,
    });
  }, [state, registrable, hosts, scope, allows]);

  // The site's unbreaks are kept under its registrable domain, or its host for a public suffix.
  const site = state.registrable === null ? state.host : state.registrable;
  const review = site === undefined ? null : reviewForSite(sessions, { account: state.account, site }, now());
  useEndOf(review?.phase === 'running' ? review.session.expiresAt : undefined, now);

  /** Sends a request for the account the popup shows (the controller's `shownAccountId`). */
  const send = async (ask: (accountId: string) => Promise<ChangeOutcome>) => {
    if (busy) return;
    setBusy(true);
    setOutcome({ state: 'pending', message: t('unbreak.popup.sending') });
    const accountId = await controller.shownAccountId();
    setOutcome(accountId === null ? accountChanged() : await ask(accountId));
    setBusy(false);
  };
  const onUnbreak = (domains: UnbreakRequestEntry[], durationMs: number) =>
    void send((accountId) =>
      unbreak({
        pageHost: state.host,
        ...(state.profile === undefined ? {} : { profile: state.profile }),
        durationMs,
        domains,
        accountId,
      }),
    );

  const offered =
    diagnosis.enabled &&
    hosts.length > 0 &&
    (choice === null || choice.allow.length > 0 || choice.onBlocklist.length > 0);
  if (!offered && review === null && outcome === null) return null;
  return (
    <section class="card unbreak" style={{ ...STACK, padding: 'var(--space-3, 12px)' }}>
      {offered && (
        <UnbreakOffer choice={choice} scope={scope} onScope={setScope} busy={busy} onUnbreak={onUnbreak} />
      )}
      <p
        role="status"
        aria-label={t('unbreak.popup.outcomeRegion')}
        class={`small status-${outcome?.state ?? 'idle'}`}
        style={FLAT}
      >
        {outcome?.message ?? ''}
      </p>
      {review !== null && (
        <UnbreakReview
          review={review}
          busy={busy}
          onAnswer={(keep) => void send((accountId) => answerReview(review.session.id, keep, accountId))}
        />
      )}
    </section>
  );
}
