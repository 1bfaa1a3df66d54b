/**
 * "Unbreak this page": one click allows, for a while, every entry the popup chose from the page's
 * failed hosts (unbreak-choice.ts); while those allows run, the worker notes which of them pages
 * of the same site really load; when they end (or when the popup opens on that site again) the
 * popup offers the review, and one more click keeps what was needed on the whitelist for good.
 * Nothing is kept without that click: the rest lapse as any temporary allow does.
 *
 * - The allows are ordinary temporary allows (temporary-allow.ts), so they go through the outbox,
 *   end by the same alarm and put a blocklisted entry back on the blocklist.
 * - "Needed" means: a request to a host the entry covers that succeeded (HTTP status below 400)
 *   after that entry's allow started and before the allows ended, made by a page of the site (its
 *   registrable domain). A request that failed again (the resolvers had not caught up yet) proves
 *   nothing and is not counted.
 * - Everything is in `unbreakSessionsItem` (storage.local), per account identity, bounded
 *   (MAX_UNBREAK_SESSIONS, MAX_UNBREAK_DOMAINS, reviews dropped a week after they end), so a
 *   worker stopped between two events, or a browser restart, loses nothing.
 */

import { DEFAULT_PROFILE, profileFor } from '@/lib/api/forms';
import { canonicalHost } from '@/lib/filtering/domain-index';
import { hostnameFromUrl } from '@/lib/filtering/hostname';
import { formatList, t, tn } from '@/lib/i18n';
import type { CurrentAccount } from '@/lib/identity/current';
import {
  type ChangeOutcome,
  type ListChange,
  MAX_UNBREAK_DOMAINS,
  type RequestOf,
  type TemporaryAllowResponse,
  type UnbreakResponse,
} from '@/lib/messaging/protocol';
import { exclusively } from '@/lib/outbox/lease';
import { MAX_UNBREAK_SESSIONS, type UnbreakSession, unbreakSessionsItem } from '@/lib/settings/storage';
import { normaliseDomainInput } from '@/lib/validation';
import type { TemporaryAllowRequest } from './temporary-allow';
import { endTimeText } from './temporary-allow-choices';
import { reviewOf, reviewText } from './unbreak-review';

/** A review nobody opened is dropped this long after its allows ended. */
export const REVIEW_KEPT_MS = 7 * 24 * 60 * 60_000;
/** Loads counted per entry at most (the count is shown, not summed). */
const MAX_LOADS = 1_000_000;

/** What the worker's unbreak takes: the request, once its account was checked (lib/messaging/handlers.ts). */
export type UnbreakRequest = Omit<RequestOf<'unbreak'>, 'type' | 'accountId'>;

export interface UnbreakDeps {
  /** The account configured now (lib/identity/current.ts); only its identity is read here. */
  getAccount(): Promise<Pick<CurrentAccount, 'identity'>>;
  /** Allows one entry for a while (temporary-allow.ts `startTemporaryAllow`, with the worker's deps). */
  allowForAWhile(request: TemporaryAllowRequest): Promise<TemporaryAllowResponse>;
  /**
   * A one-click change through the outbox, as the popup's (the worker's `submit`). The outbox
   * records where an added entry came from (lib/notes): the change's source and page.
   */
  submit(change: ListChange): Promise<ChangeOutcome>;
  /** Registrable domain of a host (Public Suffix List). */
  registrable(host: string): string;
  /** Tells the user something no page is open to show. */
  notify(title: string, message: string): Promise<unknown>;
  now?: () => number;
}

// --- Pure parts ---

/** True when the whitelist entry `domain` covers `host` (the entry itself or a subdomain of it). */
export function covers(domain: string, host: string): boolean {
  const entry = canonicalHost(domain);
  const name = canonicalHost(host);
  return name === entry || name.endsWith(`.${entry}`);
}

/** Drops reviews a week old and, beyond the bound, the oldest unbreaks. */
export function pruneSessions(sessions: readonly UnbreakSession[], now: number): UnbreakSession[] {
  return sessions
    .filter((session) => now - session.expiresAt < REVIEW_KEPT_MS)
    .sort((a, b) => a.startedAt - b.startedAt)
    .slice(-MAX_UNBREAK_SESSIONS);
}

const sameScope = (a: Pick<UnbreakSession, 'account' | 'profile' | 'site'>, b: typeof a) =>
  a.account === b.account && a.profile === b.profile && canonicalHost(a.site) === canonicalHost(b.site);

/**
 * A new unbreak of a site that has one already (same account and profile) joins it: entries seen
 * loading stay needed, new entries start their allow now, the end is the later of the two.
 */
export function withUnbreak(sessions: readonly UnbreakSession[], next: UnbreakSession): UnbreakSession[] {
  const earlier = sessions.find((session) => sameScope(session, next));
  if (!earlier) return [...sessions, next];
  const known = new Set(earlier.domains.map((entry) => canonicalHost(entry.domain)));
  const merged: UnbreakSession = {
    ...earlier,
    pageHost: next.pageHost,
    expiresAt: Math.max(earlier.expiresAt, next.expiresAt),
    domains: [
      ...earlier.domains,
      ...next.domains.filter((entry) => !known.has(canonicalHost(entry.domain))),
    ].slice(0, MAX_UNBREAK_DOMAINS),
  };
  // Announced before: the new end is worth announcing again.
  if (merged.expiresAt > earlier.expiresAt) delete merged.announcedAt;
  return sessions.map((session) => (session === earlier ? merged : session));
}

/** A request that finished, as webRequest.onCompleted reports it (the fields read here). */
export interface CompletedRequest {
  url: string;
  statusCode?: number;
  /** 'main_frame', 'script', 'image' … */
  type?: string;
  /** Chromium: the origin of the page that made the request. */
  initiator?: string;
  /** Firefox: the document that made the request, and where it came from. */
  documentUrl?: string;
  originUrl?: string;
  /** ms since the epoch. */
  timeStamp?: number;
}

const succeeded = (status: number | undefined) => status !== undefined && status >= 200 && status < 400;

/**
 * What a finished request changes: every running unbreak of the page's site whose entry covers
 * the request's host, and whose allow had started, counts one load (the first sets `loadedAt`).
 * Returns `sessions` itself when nothing changes.
 */
export function afterLoad(
  sessions: UnbreakSession[],
  load: { host: string; site: string; at: number },
): UnbreakSession[] {
  const next = sessions.map((session) => {
    if (load.at >= session.expiresAt || canonicalHost(session.site) !== canonicalHost(load.site))
      return session;
    const domains = session.domains.map((entry) => {
      if (load.at < entry.allowedAt || !covers(entry.domain, load.host)) return entry;
      return { ...entry, loadedAt: entry.loadedAt ?? load.at, loads: Math.min(entry.loads + 1, MAX_LOADS) };
    });
    return domains.some((entry, i) => entry !== session.domains[i]) ? { ...session, domains } : session;
  });
  return next.some((session, i) => session !== sessions[i]) ? next : sessions;
}

// --- Storage ---

const updateSessions = (update: (sessions: UnbreakSession[]) => UnbreakSession[]) =>
  exclusively('unbreak-sessions', async () => {
    const before = await unbreakSessionsItem.getValue();
    const after = update(before);
    if (after !== before) await unbreakSessionsItem.setValue(after);
    return after;
  });

/** Notes a finished request (webRequest.onCompleted); cheap when no unbreak runs. */
export async function noteLoad(
  deps: Pick<UnbreakDeps, 'registrable' | 'now'>,
  request: CompletedRequest,
): Promise<void> {
  if (request.type === 'main_frame' || !succeeded(request.statusCode)) return;
  const host = hostnameFromUrl(request.url);
  if (host === null) return;
  const at = request.timeStamp ?? (deps.now ?? Date.now)();
  const sessions = await unbreakSessionsItem.getValue();
  const concerned = sessions.some(
    (session) =>
      at < session.expiresAt &&
      session.domains.some((entry) => at >= entry.allowedAt && covers(entry.domain, host)),
  );
  if (!concerned) return;
  // The page that made it: a request the site did not make says nothing about the site's needs.
  const pageHost = hostnameFromUrl(request.initiator ?? request.documentUrl ?? request.originUrl ?? '');
  if (pageHost === null) return;
  const site = deps.registrable(pageHost);
  await updateSessions((stored) => afterLoad(stored, { host, site, at }));
}

function worstState(outcomes: readonly ChangeOutcome[]): ChangeOutcome['state'] {
  if (outcomes.some((outcome) => outcome.state === 'failed')) return 'failed';
  return outcomes.some((outcome) => outcome.state === 'pending') ? 'pending' : 'delivered';
}

/** Allows every chosen entry for a while, and starts noting what the site loads. */
export async function startUnbreak(deps: UnbreakDeps, request: UnbreakRequest): Promise<UnbreakResponse> {
  const now = deps.now ?? Date.now;
  const { identity } = await deps.getAccount();
  const profile = profileFor(identity.form, request.profile ?? DEFAULT_PROFILE);
  const pageHost = canonicalHost(request.pageHost);
  const site = canonicalHost(deps.registrable(pageHost));
  const entries = new Map<string, 'none' | 'blocklist'>();
  for (const { domain, before } of request.domains) {
    const normalised = normaliseDomainInput(domain);
    if (normalised.ok && !entries.has(normalised.value)) entries.set(normalised.value, before);
  }
  if (entries.size === 0) return { state: 'failed', message: t('unbreak.nothingToAllow'), allowed: [] };

  const startedAt = now();
  const expiresAt = startedAt + request.durationMs;
  const session: UnbreakSession = {
    id: `${startedAt} ${site}`,
    account: identity.id,
    ...(profile === undefined ? {} : { profile }),
    site,
    pageHost,
    startedAt,
    expiresAt,
    domains: [...entries].map(([domain, before]) => ({ domain, before, allowedAt: startedAt, loads: 0 })),
  };
  // Stored before the allows are sent: a load that succeeds at once is counted.
  await updateSessions((sessions) => pruneSessions(withUnbreak(sessions, session), startedAt));

  const results = await Promise.all(
    [...entries].map(async ([domain, before]) => ({
      domain,
      outcome: await deps.allowForAWhile({
        domain,
        ...(profile === undefined ? {} : { profile }),
        durationMs: request.durationMs,
        before,
      }),
    })),
  );
  // Refused, or on the whitelist for good already: nothing of it to review.
  const allowed = results.filter(
    ({ outcome }) => outcome.state !== 'failed' && outcome.expiresAt !== undefined,
  );
  const dropped = new Set(
    results.filter((result) => !allowed.includes(result)).map(({ domain }) => canonicalHost(domain)),
  );
  if (dropped.size > 0) {
    await updateSessions((sessions) =>
      sessions.flatMap((stored) => {
        if (!sameScope(stored, session)) return [stored];
        const domains = stored.domains.filter(
          (entry) => entry.loadedAt !== undefined || !dropped.has(canonicalHost(entry.domain)),
        );
        return domains.length === 0 ? [] : [{ ...stored, domains }];
      }),
    );
  }

  const failures = results
    .filter(({ outcome }) => outcome.state === 'failed')
    .map(({ domain, outcome }) => t('unbreak.failedOne', { domain, reason: outcome.message }));
  // The allows decide the state; without any, the refusals do.
  const state = worstState((allowed.length > 0 ? allowed : results).map(({ outcome }) => outcome));
  const parts: string[] = [];
  if (allowed.length > 0) {
    const key = state === 'pending' ? 'unbreak.queued' : 'unbreak.allowed';
    const words = { domains: formatList(allowed.map(({ domain }) => domain)), end: endTimeText(expiresAt) };
    parts.push(
      profile === undefined ? t(key, words) : t(`${key}Profile`, { ...words, profile }),
      t('unbreak.honest'),
    );
  }
  parts.push(...failures);
  const kept = results.filter(({ outcome }) => outcome.state !== 'failed' && outcome.expiresAt === undefined);
  if (kept.length > 0)
    parts.push(t('unbreak.alreadyKept', { domains: formatList(kept.map(({ domain }) => domain)) }));
  return {
    state,
    message: parts.join(' '),
    ...(allowed.length > 0 ? { expiresAt } : {}),
    allowed: allowed.map(({ domain }) => domain),
  };
}

/**
 * The review: `keep` puts every entry the site loaded on the whitelist for good (one-click changes
 * through the outbox); then the unbreak is done and the other entries lapse when their allow ends.
 * A keep that the service refused leaves the review in place, so the user can try again.
 */
export async function reviewUnbreak(
  deps: UnbreakDeps,
  request: { id: string; keep: boolean },
): Promise<ChangeOutcome> {
  const now = deps.now ?? Date.now;
  const { identity } = await deps.getAccount();
  const session = (await unbreakSessionsItem.getValue()).find((stored) => stored.id === request.id);
  if (!session) return { state: 'delivered', message: t('unbreak.review.gone') };
  // Made in another account: its entries must never reach this one.
  if (session.account !== identity.id) return { state: 'failed', message: t('unbreak.review.otherAccount') };
  const forget = () => updateSessions((sessions) => sessions.filter((stored) => stored.id !== session.id));
  const review = reviewOf(session, now());
  if (!request.keep || review.needed.length === 0) {
    await forget();
    return {
      state: 'delivered',
      message:
        review.phase === 'running'
          ? t('unbreak.review.lapseAt', { end: endTimeText(session.expiresAt) })
          : t('unbreak.review.nothingKept'),
    };
  }
  const profile = session.profile === undefined ? {} : { profile: session.profile };
  const outcomes: ChangeOutcome[] = [];
  for (const entry of review.needed) {
    // The page goes with the change: the entry's record says it was kept from this page (lib/notes).
    const change: ListChange = {
      op: 'add',
      list: 'whitelist',
      domain: entry.domain,
      ...profile,
      source: 'unbreak',
      page: session.pageHost,
    };
    outcomes.push(await deps.submit(change));
  }
  const state = worstState(outcomes);
  if (state !== 'failed') await forget();
  const needed = formatList(review.needed.map((entry) => entry.domain));
  const kept =
    state === 'failed'
      ? outcomes
          .filter((outcome) => outcome.state === 'failed')
          .map((outcome) => outcome.message)
          .join(' ')
      : t(state === 'pending' ? 'unbreak.review.keptPending' : 'unbreak.review.kept', { needed });
  const lapsing =
    state === 'failed' || review.unneeded.length === 0
      ? ''
      : ` ${tn('unbreak.review.othersLapse', review.unneeded.length, {
          unneeded: formatList(review.unneeded.map((entry) => entry.domain)),
        })}`;
  return { state, message: `${kept}${lapsing}` };
}

/**
 * After the allows of an unbreak ended (the temporary allow alarm, or a browser start), tells the
 * user once that its review waits in the popup on that site. Unbreaks of another account wait
 * silently until it is configured again.
 */
export async function announceEndedUnbreaks(deps: UnbreakDeps): Promise<UnbreakSession[]> {
  const now = (deps.now ?? Date.now)();
  const { identity } = await deps.getAccount();
  const due = (await unbreakSessionsItem.getValue()).filter(
    (session) =>
      session.account === identity.id && session.expiresAt <= now && session.announcedAt === undefined,
  );
  if (due.length === 0) return [];
  const ids = new Set(due.map((session) => session.id));
  await updateSessions((sessions) =>
    pruneSessions(
      sessions.map((session) => (ids.has(session.id) ? { ...session, announcedAt: now } : session)),
      now,
    ),
  );
  for (const session of due) {
    const review = reviewOf(session, now);
    await deps.notify(
      t('unbreak.endedTitle', { site: session.site }),
      review.needed.length === 0
        ? reviewText(review)
        : `${reviewText(review)} ${t('unbreak.endedOpenPopup', { site: session.site })}`,
    );
  }
  return due;
}
