/**
 * One change to several profiles (Form A): the same whitelist or blocklist addition for each
 * chosen profile, queued as one outbox change per profile under a shared group, all in one write,
 * so either every profile's change is kept (and sent, retried, reported) or none is
 * (docs/several-profiles.md). The worker runs `submitToProfiles`; pages use the preview and the
 * summary.
 */
import { listName } from '@/lib/api/attempts';
import { capabilitiesOf } from '@/lib/api/forms';
import type { Membership } from '@/lib/cache/list-changes';
import { isQuotaError } from '@/lib/cache/storage-room';
import { t } from '@/lib/i18n';
import type { ChangeOutcome, ListChange, SeveralOutcomes } from '@/lib/messaging/protocol';
import { describeChange, enqueueChanges, type OutboxDeps, OutboxFullError, outcomeOf } from '@/lib/outbox';
import { OUTBOX_LIMIT } from '@/lib/settings/storage';
import { normaliseDomainInput } from '@/lib/validation';

export type ProfileOutcome = SeveralOutcomes['outcomes'][number];

export interface SeveralDeps extends OutboxDeps {
  /** A new group's id (lib/outbox/lease.ts `randomId`). */
  newGroupId: () => string;
}

const allFailed = (profiles: readonly string[], message: string): SeveralOutcomes => ({
  outcomes: profiles.map((profile) => ({ profile, state: 'failed', message })),
});

/**
 * Queues `change` for each of `profiles` (the change's own profile is ignored) and answers with
 * each one's outcome, in the order asked: delivered, failed (the service's reason) or pending
 * (kept and retried). A retry passes the group of the first try in `change.group`. Nothing is
 * queued when any of them cannot be (a full outbox, storage refusing the write): then every
 * profile's outcome says so. Never rejects.
 */
export async function submitToProfiles(
  change: ListChange,
  profiles: readonly string[],
  deps: SeveralDeps,
): Promise<SeveralOutcomes> {
  const unique = [...new Set(profiles)];
  const account = await deps.getAccount();
  if (!capabilitiesOf(account.identity.form).profileSelection)
    return allFailed(unique, t('profileGroups.noProfilesInForm'));
  const domain = normaliseDomainInput(change.domain);
  if (!domain.ok)
    return allFailed(
      unique,
      t('api.couldNot', { attempted: describeChange(change), detail: domain.message }),
    );
  const group = change.group ?? deps.newGroupId();
  const changes = unique.map((profile): ListChange => ({ ...change, domain: domain.value, profile, group }));
  let entries: Awaited<ReturnType<typeof enqueueChanges>>;
  try {
    entries = await enqueueChanges(changes, account.identity.id, deps.now, { ahead: true });
  } catch (error) {
    const attempted = t('profileGroups.attempted', {
      domain: domain.value,
      list: listName(change.list),
      count: unique.length,
    });
    if (error instanceof OutboxFullError)
      return allFailed(unique, t('outbox.full', { attempted, count: OUTBOX_LIMIT }));
    return allFailed(
      unique,
      t(isQuotaError(error) ? 'outbox.storageFull' : 'outbox.notStored', { attempted }),
    );
  }
  const outcomes = await Promise.all(
    entries.map((entry) =>
      outcomeOf(entry, deps).catch(
        (): ChangeOutcome => ({
          state: 'pending',
          message: `${t('outbox.waiting', { attempted: describeChange(entry.change) })} ${t('outbox.keptAndRetried')}`,
        }),
      ),
    ),
  );
  return {
    outcomes: outcomes.map((outcome, index) => ({
      profile: unique[index] ?? '',
      state: outcome.state,
      message: outcome.message,
    })),
  };
}

/** What the change will do for one profile, before anything is sent. */
export interface ProfilePreview {
  profile: string;
  /**
   * `add`: goes on the list; `move`: comes off the other list and goes on this one; `already`:
   * on the list already (sent again: harmless, and it confirms); `unknown`: this browser has not
   * read that profile's lists, so it may come off the other list too.
   */
  effect: 'add' | 'move' | 'already' | 'unknown';
  text: string;
}

/**
 * The preview of adding `domain` to `list` for each profile. `membershipOf` says where the domain
 * is in a profile's lists as this browser last read them, or null when it has not read them.
 */
export function previewForProfiles(
  list: ListChange['list'],
  domain: string,
  profiles: readonly string[],
  membershipOf: (profile: string) => Membership | null,
): ProfilePreview[] {
  const other = listName(list === 'whitelist' ? 'blocklist' : 'whitelist');
  const words = { domain, list: listName(list) };
  return profiles.map((profile) => {
    const membership = membershipOf(profile);
    if (membership === null)
      return { profile, effect: 'unknown', text: t('profileGroups.preview.unknown', { ...words, other }) };
    if (membership === list)
      return { profile, effect: 'already', text: t('profileGroups.preview.already', words) };
    if (membership === 'none') return { profile, effect: 'add', text: t('profileGroups.preview.add', words) };
    return { profile, effect: 'move', text: t('profileGroups.preview.move', { ...words, other }) };
  });
}

/** The profiles whose change was refused: what a Retry sends again. */
export const failedProfiles = (outcomes: readonly ProfileOutcome[]): string[] =>
  outcomes.filter((outcome) => outcome.state === 'failed').map((outcome) => outcome.profile);

/**
 * One line over the outcomes: how many profiles have the change, and which are waiting or were
 * refused, so a change that reached only some profiles is never reported as done.
 */
export function summaryOf(outcomes: readonly ProfileOutcome[]): {
  state: ChangeOutcome['state'];
  text: string;
} {
  const done = outcomes.filter((outcome) => outcome.state === 'delivered').length;
  const failed = failedProfiles(outcomes);
  const waiting = outcomes.filter((outcome) => outcome.state === 'pending').map((outcome) => outcome.profile);
  const parts = [t('profileGroups.summary.done', { done, total: outcomes.length })];
  if (waiting.length > 0) parts.push(t('profileGroups.summary.waiting', { profiles: waiting.join(', ') }));
  if (failed.length > 0) parts.push(t('profileGroups.summary.failed', { profiles: failed.join(', ') }));
  const state = failed.length > 0 ? 'failed' : waiting.length > 0 ? 'pending' : 'delivered';
  return { state, text: parts.join(' ') };
}
