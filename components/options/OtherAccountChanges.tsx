import { useId } from 'preact/hooks';
import { followedAccounts } from '@/lib/accounts';
import { ApiError } from '@/lib/api/errors';
import { describeForm } from '@/lib/api/forms';
import { t, tn } from '@/lib/i18n';
import { type AccountIdentity, NO_KEY, UNKNOWN_KEY } from '@/lib/identity/identity';
import { WorkerUnanswered, worker } from '@/lib/messaging/worker-client';
import { changesForOtherAccounts, describeChange, type OtherAccountChanges } from '@/lib/outbox';
import { outboxItem } from '@/lib/settings/storage';
import { useConfirm } from '../ConfirmDialog';
import { StatusMessage } from '../StatusMessage';
import { useAccountIdentity } from '../useAccountIdentity';
import { useRemoteAction } from '../useRemoteAction';
import { useStoredValue } from '../useStoredValue';

/** "https://my.cleanbrowsing.org (/api), key fingerprint 3f2a9c01": which account, never the key. */
function accountText(account: AccountIdentity): string {
  const words = { origin: account.origin, form: describeForm(account.form).path };
  if (account.keyFingerprint === NO_KEY) return t('otherAccounts.accountNoKey', words);
  if (account.keyFingerprint === UNKNOWN_KEY) return t('otherAccounts.accountUnknownKey', words);
  return t('otherAccounts.account', { ...words, fingerprint: account.keyFingerprint.slice(0, 8) });
}

async function decide(action: 'keep' | 'discard', group: OtherAccountChanges): Promise<number> {
  try {
    const answer = await worker.otherAccountChanges(
      action,
      group.account.id,
      group.entries.map((entry) => entry.id),
    );
    return answer.count;
  } catch (error) {
    if (error instanceof WorkerUnanswered) throw new ApiError('unexpected', t('otherAccounts.noAnswer'));
    throw error;
  }
}

/**
 * Changes queued for an account that is not the one configured now (a new key, service address
 * or API form was saved since). They are never sent to this one; the user keeps them for their
 * account or discards them, after a confirmation. Shown only while there are some.
 */
export function OtherAccountChangesSection() {
  const current = useAccountIdentity();
  const accounts = useStoredValue(followedAccounts, null);
  const outbox = useStoredValue(outboxItem, []);
  const { status, run, busy } = useRemoteAction();
  const { confirm, dialog } = useConfirm();
  const headingId = useId();
  if (current === null) return null;
  // Changes of every account of this browser are delivered to it: only the others wait here.
  const groups = changesForOtherAccounts(outbox, [
    current.id,
    ...(accounts?.accounts.map((account) => account.identity.id) ?? []),
  ]);
  if (groups.length === 0 && status.state === 'idle') return null;

  const keep = (group: OtherAccountChanges) =>
    run(
      t('otherAccounts.working'),
      () => decide('keep', group),
      (count) => tn('otherAccounts.keptDone', count),
    );
  const discard = async (group: OtherAccountChanges) => {
    const confirmed = await confirm({
      title: t('otherAccounts.confirmTitle'),
      message: tn('otherAccounts.confirmMessage', group.entries.length, {
        account: accountText(group.account),
      }),
      confirmLabel: t('otherAccounts.discard'),
    });
    if (!confirmed) return;
    await run(
      t('otherAccounts.working'),
      () => decide('discard', group),
      (count) => tn('otherAccounts.discarded', count),
    );
  };

  return (
    <section aria-labelledby={headingId} class="other-accounts">
      <h2 id={headingId}>{t('otherAccounts.heading')}</h2>
      <p class="hint">{t('otherAccounts.intro')}</p>
      {groups.map((group) => (
        <div key={group.account.id} class="other-account">
          <h3>
            <bdi>{accountText(group.account)}</bdi>
          </h3>
          <ul>
            {group.entries.map((entry) => (
              <li key={entry.id}>
                <bdi>{t('otherAccounts.waiting', { attempted: describeChange(entry.change) })}</bdi>
              </li>
            ))}
          </ul>
          {!group.undecided && <p class="hint">{t('otherAccounts.kept')}</p>}
          <div class="actions">
            {group.undecided && (
              <button type="button" disabled={busy} onClick={() => void keep(group)}>
                {t('otherAccounts.keep')}
              </button>
            )}
            <button type="button" class="btn-danger" disabled={busy} onClick={() => void discard(group)}>
              {t('otherAccounts.discard')}
            </button>
          </div>
        </div>
      ))}
      <StatusMessage status={status} label={t('otherAccounts.heading')} />
      {dialog}
    </section>
  );
}
