/**
 * What a delivered setting change leaves in this browser's records (docs/schedules.md,
 * "Sending"): default block cannot be read back from the service, so the state a schedule set
 * through the outbox is remembered in the account's `defaultBlockItem`, as the options page
 * remembers its own (lib/settings/local-records.ts). The popup's verdict and the history read it.
 */
import { scopeKey } from '@/lib/api/forms';
import type { ConfiguredAccount } from '@/lib/identity/current';
import { defaultBlockItem, type SettledChange } from '@/lib/settings/storage';
import { accountValue, readAccounts, writeAccountValue } from './store';

/** Remembers the default block a delivered change set, in the account it was sent to (active or not). */
export async function rememberDeliveredSetting(
  settled: SettledChange,
  accounts: readonly ConfiguredAccount[],
): Promise<void> {
  const { change } = settled;
  if (settled.state !== 'delivered' || change.op !== 'set-default-block') return;
  const account = accounts.find((candidate) => candidate.identity.id === settled.account);
  if (!account) return;
  const stored = (await readAccounts()).accounts.find((candidate) => candidate.id === account.accountId);
  if (!stored) return;
  await writeAccountValue(account.accountId, defaultBlockItem, {
    ...accountValue(stored, defaultBlockItem),
    [scopeKey(account.identity.form, change.profile)]: { enabled: change.enabled, at: settled.at },
  });
}
