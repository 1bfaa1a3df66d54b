/**
 * Temporary allow: a domain goes on the whitelist for 1, 8 or 24 hours, and the worker takes it
 * off again when the time is up. Both changes go through the outbox (source 'temporary-allow'),
 * so they are retried like any other. The end time is stored (`temporaryAllowsItem`) and an alarm
 * wakes the worker for the earliest one; on browser start, ends that passed while the browser was
 * closed are carried out at once.
 *
 * What "taking it off" means depends on where the domain was before: off the whitelist when it
 * was on neither list, back on the blocklist when it was blocklisted (adding to the whitelist took
 * it off the blocklist: docs/service-api.md, "Both lists"). A domain already on the whitelist gets
 * no entry at all, so an expiry never removes an entry the user made permanent.
 *
 * A later change of the same domain by the user (keep it, remove it, blocklist it) ends the
 * temporary allow without undoing anything, whichever way it was made: a one-click change passes
 * the worker's `submit` (`forgetTemporaryAllowFor`); an options-page list edit goes to the service
 * directly and never passes the worker, so the page ends the allow itself, in its `onListChanged`
 * hook (`endTemporaryAllowsFor`; docs/architecture.md, "A click, through the outbox, to the service").
 */

import { DEFAULT_PROFILE, profileFor } from '@/lib/api/forms';
import { canonicalHost } from '@/lib/filtering/domain-index';
import { t } from '@/lib/i18n';
import type { CurrentAccount } from '@/lib/identity/current';
import type { AccountId } from '@/lib/identity/identity';
import type { ChangeOutcome, ListChange, TemporaryAllowResponse } from '@/lib/messaging/protocol';
import { carriesListChange } from '@/lib/messaging/queued-change';
import type { AlarmsApi } from '@/lib/outbox/alarms';
import { exclusively } from '@/lib/outbox/lease';
import {
  type OutboxEntry,
  outboxItem,
  type TemporaryAllow,
  temporaryAllowsItem,
} from '@/lib/settings/storage';
import { normaliseDomainInput } from '@/lib/validation';
import {
  endTimeText,
  findTemporaryAllow,
  sameTarget,
  type TemporaryAllowTarget,
} from './temporary-allow-choices';

export const TEMPORARY_ALLOW_ALARM = 'temporary-allow-expiry';

export type Placement = 'none' | 'whitelist' | 'blocklist';

/** The change that ends a temporary allow: back to where the domain was. */
export function restoreChange(entry: TemporaryAllow): ListChange {
  const base = { domain: entry.domain, source: 'temporary-allow' as const };
  const profile = entry.profile === undefined ? {} : { profile: entry.profile };
  return entry.before === 'blocklist'
    ? { op: 'add', list: 'blocklist', ...base, ...profile }
    : { op: 'remove', list: 'whitelist', ...base, ...profile };
}

/**
 * Where the domain is now, as far as this browser knows: a change of this account still in the
 * outbox wins (it is what the user last asked for), then the service's lists, then the popup's
 * cached lists.
 */
export function placementFromOutbox(
  entries: readonly Pick<OutboxEntry, 'change' | 'account'>[],
  target: TemporaryAllowTarget,
): Placement | null {
  const canonical = canonicalHost(target.domain);
  const last = entries
    .filter(carriesListChange)
    .findLast(
      ({ change, account }) =>
        account === target.account &&
        change.profile === target.profile &&
        canonicalHost(change.domain) === canonical,
    )?.change;
  if (!last) return null;
  return last.op === 'add' ? last.list : 'none';
}

export interface TemporaryAllowDeps {
  /** The active account, with its client (lib/identity/current.ts): new allows are made in it. */
  getAccount(): Promise<CurrentAccount>;
  /** Every account of this browser (lib/identity/current.ts); default: the active one only. */
  getAccounts?(): Promise<CurrentAccount[]>;
  /** Sends a change through the outbox and waits for its outcome (lib/outbox submitChange). */
  submit(change: ListChange): Promise<ChangeOutcome>;
  /** Writes a change for `account` to the outbox without waiting (lib/outbox enqueueChange). */
  enqueue(change: ListChange, account: AccountId): Promise<unknown>;
  /** Sends what waits in the outbox now. */
  deliver(): Promise<unknown>;
  alarms: AlarmsApi;
  /** Tells the user something no page is open to show. */
  notify(title: string, message: string): Promise<unknown>;
  now?: () => number;
}

async function placementNow(
  client: CurrentAccount['client'],
  target: TemporaryAllowTarget,
  hint: Placement,
): Promise<Placement> {
  const { domain, profile } = target;
  const waiting = placementFromOutbox(await outboxItem.getValue(), target);
  if (waiting !== null) return waiting;
  try {
    if (client) {
      const [whitelist, blocklist] = await Promise.all([
        client.listDomains('whitelist', profile),
        client.listDomains('blocklist', profile),
      ]);
      const on = (list: string[]) => list.some((entry) => canonicalHost(entry) === domain);
      if (on(whitelist)) return 'whitelist';
      return on(blocklist) ? 'blocklist' : 'none';
    }
  } catch {
    // Offline or refused: the popup's view of the lists is the best left.
  }
  return hint;
}

/** Sets the alarm for the earliest end, or clears it when nothing runs. */
export async function scheduleExpiry(deps: Pick<TemporaryAllowDeps, 'alarms'>): Promise<void> {
  const ends = (await temporaryAllowsItem.getValue()).map((entry) => entry.expiresAt);
  if (ends.length === 0) await deps.alarms.clear(TEMPORARY_ALLOW_ALARM);
  else await deps.alarms.create(TEMPORARY_ALLOW_ALARM, { when: Math.min(...ends) });
}

const updateEntries = (update: (entries: TemporaryAllow[]) => TemporaryAllow[]) =>
  exclusively('temporary-allows', async () => {
    const before = await temporaryAllowsItem.getValue();
    const after = update(before);
    if (after !== before) await temporaryAllowsItem.setValue(after);
    return { before, after };
  });

export interface TemporaryAllowRequest {
  domain: string;
  profile?: string;
  durationMs: number;
  before: Placement;
}

/** Whitelists a domain until `now + durationMs`, or moves the end of one already running. */
export async function startTemporaryAllow(
  deps: TemporaryAllowDeps,
  request: TemporaryAllowRequest,
): Promise<TemporaryAllowResponse> {
  const now = deps.now ?? Date.now;
  const normalised = normaliseDomainInput(request.domain);
  if (!normalised.ok)
    return { state: 'failed', message: t('temporaryAllow.couldNot', { reason: normalised.message }) };
  const domain = normalised.value;
  const { identity, client } = await deps.getAccount();
  const profile = profileFor(identity.form, request.profile ?? DEFAULT_PROFILE);
  const target: TemporaryAllowTarget = { domain, profile, account: identity.id };
  const expiresAt = now() + request.durationMs;

  const { after: extended } = await updateEntries((entries) =>
    entries.some((entry) => sameTarget(entry, target))
      ? entries.map((entry) => (sameTarget(entry, target) ? { ...entry, expiresAt } : entry))
      : entries,
  );
  if (findTemporaryAllow(extended, target)) {
    await scheduleExpiry(deps);
    return {
      state: 'delivered',
      message:
        profile === undefined
          ? t('temporaryAllow.stays', { domain, end: endTimeText(expiresAt) })
          : t('temporaryAllow.staysProfile', { domain, profile, end: endTimeText(expiresAt) }),
      expiresAt,
    };
  }

  const before = await placementNow(client, target, request.before);
  if (before === 'whitelist') {
    return {
      state: 'delivered',
      message:
        profile === undefined
          ? t('temporaryAllow.alreadyKept', { domain })
          : t('temporaryAllow.alreadyKeptProfile', { domain, profile }),
    };
  }
  // Stored before the change is sent: a worker stopped in between still ends it on time.
  const entry: TemporaryAllow = {
    domain,
    ...(profile === undefined ? {} : { profile }),
    account: target.account,
    createdAt: now(),
    expiresAt,
    before,
  };
  await updateEntries((entries) => [...entries.filter((other) => !sameTarget(other, target)), entry]);
  await scheduleExpiry(deps);

  const outcome = await deps.submit({
    op: 'add',
    list: 'whitelist',
    domain,
    ...(profile === undefined ? {} : { profile }),
    source: 'temporary-allow',
  });
  if (outcome.state === 'failed') {
    await updateEntries((entries) => entries.filter((other) => !sameTarget(other, target)));
    await scheduleExpiry(deps);
    return outcome;
  }
  const ends = before === 'blocklist' ? 'temporaryAllow.endsOnBlocklist' : 'temporaryAllow.endsOffWhitelist';
  return {
    state: outcome.state,
    message: t(ends, { outcome: outcome.message, end: endTimeText(expiresAt) }),
    expiresAt,
  };
}

/**
 * Ends every temporary allow whose time is up: its change is written to the outbox first and the
 * entry removed after, so a worker stopped in between repeats the change rather than losing it
 * (the outbox does not queue the same change twice in a row). The change is queued for the
 * account the allow was made in, and delivered there whichever account is active; when that
 * account is none of this browser's now (another key was saved since), it waits in the outbox
 * for that account and is never sent to another.
 */
export async function expireTemporaryAllows(deps: TemporaryAllowDeps): Promise<TemporaryAllow[]> {
  const now = deps.now ?? Date.now;
  const due = (await temporaryAllowsItem.getValue()).filter((entry) => entry.expiresAt <= now());
  const accounts = deps.getAccounts ? await deps.getAccounts() : [await deps.getAccount()];
  const configured = new Set(accounts.map((account) => account.identity.id));
  for (const entry of due) await deps.enqueue(restoreChange(entry), entry.account);
  await updateEntries((entries) =>
    entries.filter(
      (entry) => !due.some((gone) => sameTarget(gone, entry) && gone.expiresAt === entry.expiresAt),
    ),
  );
  await scheduleExpiry(deps);
  // The service settings changed since: the end waits for the account it belongs to.
  for (const entry of due.filter(({ account }) => !configured.has(account))) {
    await deps.notify(
      t('temporaryAllow.endedTitle'),
      t('temporaryAllow.endedOtherAccount', { domain: entry.domain }),
    );
  }
  if (due.some((entry) => configured.has(entry.account))) await deps.deliver();
  return due;
}

/** A list edit of one domain in one scope: the part of a change that names what it decided about. */
type EditedDomain = Pick<TemporaryAllowTarget, 'domain' | 'profile'>;

/**
 * Ends the temporary allows of `account` that `edits` decided about (same domain and profile):
 * the user's edit is final, and the allow's end must not undo it. Storage only: an alarm set for
 * an allow ended here finds nothing due when it fires, and is set for the next end then
 * (`expireTemporaryAllows`), so a page can call this without touching the worker's alarm.
 * Returns the allows ended.
 */
export async function endTemporaryAllowsFor(
  account: AccountId,
  edits: readonly EditedDomain[],
): Promise<TemporaryAllow[]> {
  const targets = edits.map(({ domain, profile }): TemporaryAllowTarget => ({ domain, profile, account }));
  const decided = (entry: TemporaryAllow) => targets.some((target) => sameTarget(entry, target));
  const { before } = await updateEntries((entries) =>
    entries.some(decided) ? entries.filter((entry) => !decided(entry)) : entries,
  );
  return before.filter(decided);
}

/**
 * A one-click change the user made to a domain that is allowed for a while (keep it on the
 * whitelist, remove it, blocklist it) ends the temporary allow: its expiry must not undo that
 * choice. The worker's `submit` calls it for every change but the allow's own.
 */
export async function forgetTemporaryAllowFor(
  deps: Pick<TemporaryAllowDeps, 'alarms' | 'getAccount'>,
  change: ListChange,
): Promise<boolean> {
  if (change.source === 'temporary-allow') return false;
  const account = (await deps.getAccount()).identity.id;
  const ended = await endTemporaryAllowsFor(account, [change]);
  if (ended.length === 0) return false;
  await scheduleExpiry(deps);
  return true;
}
