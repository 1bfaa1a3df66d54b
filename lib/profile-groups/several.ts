/**
 * One change to several profiles (Form A): the same whitelist or blocklist addition for each
 * chosen profile, queued as one outbox change per profile under a shared group, all in one write,
 * so either every profile's change is kept (and sent, retried, reported) or none is
 * (docs/several-profiles.md). The worker runs it; pages use ./preview.ts.
 */
import { listName } from '@/lib/api/attempts';
import { capabilitiesOf } from '@/lib/api/forms';
import { isQuotaError } from '@/lib/cache/storage-room';
import { t } from '@/lib/i18n';
import type { ChangeOutcome, ListChange, SeveralOutcomes } from '@/lib/messaging/protocol';
import { describeChange, enqueueChanges, type OutboxDeps, OutboxFullError, outcomeOf } from '@/lib/outbox';
import { OUTBOX_LIMIT } from '@/lib/settings/storage';
import { normaliseDomainInput } from '@/lib/validation';
import { allFailed } from './preview';

export interface SeveralDeps extends OutboxDeps {
  /** A new group's id (lib/outbox/lease.ts `randomId`). */
  newGroupId: () => string;
}

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
