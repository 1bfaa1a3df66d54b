/**
 * Which account the popup shows, by its stable id (lib/accounts): every change request names it,
 * and the worker refuses one when another account is active by the time it arrives
 * (lib/messaging/handlers.ts). Read when the popup is idle after its first view, off the
 * verdict's path (lib/popup/controller.ts).
 */
import { type AccountId, identityOf, keyFingerprint } from '@/lib/identity/identity';
import { getValues } from '@/lib/settings/item';
import { accountsItem, apiKeyFingerprintItem, apiKeyItem, connectionItem } from '@/lib/settings/storage';

/**
 * The stable id of the account whose identity is `shown` (the one the popup's view was read for),
 * or null when another account became active since. The accounts list, key and connection come
 * from one storage read: switching rewrites all three in one write (lib/accounts/store.ts
 * `activateAccount`), so the active entry read here is the account of the key and connection read
 * with it.
 */
export async function readShownAccountId(shown: AccountId): Promise<string | null> {
  const [accounts, fingerprint, connection] = await getValues([
    accountsItem,
    apiKeyFingerprintItem,
    connectionItem,
  ] as const);
  let active: { id: string | null; connection: typeof connection; key?: string } = {
    id: accounts.active,
    connection,
  };
  if (!accounts.accounts.some((entry) => entry.id === accounts.active)) {
    // Storage from before several accounts (the worker adopts it as it starts): the first reading
    // of the accounts makes the setup an account of its own.
    const { readAccounts } = await import('@/lib/accounts/store');
    const adopted = (await readAccounts()).accounts.find((account) => account.active);
    if (adopted === undefined) return null;
    active = adopted;
  }
  // By the fingerprint stored beside the key, as the view named its account: a locked popup has
  // no key (docs/lock.md). The key only for storage from before the fingerprint was kept.
  const { baseUrl: origin, form } = active.connection;
  const keyFingerprintNow =
    fingerprint !== '' ? fingerprint : await keyFingerprint(active.key ?? (await apiKeyItem.getValue()));
  return identityOf({ origin, form, keyFingerprint: keyFingerprintNow }).id === shown ? active.id : null;
}
