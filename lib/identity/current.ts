/**
 * The account configured now (the active one of lib/accounts): its identity and its client, made
 * from one reading of the settings, so work is never checked against one key and then sent with
 * another. `readConfiguredAccounts` gives every account of this browser the same way.
 */

import { readAccounts } from '@/lib/accounts/store';
import { type ClientSettings, createConfiguredClient, readClientSettings } from '@/lib/api/configured-client';
import type { DnsFilterApi } from '@/lib/api/types';
import { apiTimeoutForTestsItem, readsApiTimeoutForTests } from '@/lib/settings/storage';
import { type AccountIdentity, accountIdentity } from './identity';

export interface CurrentAccount {
  identity: AccountIdentity;
  /** Null while no key is set. */
  client: DnsFilterApi | null;
}

/** An account of this browser with its client: `accountId` is its stable id (lib/accounts). */
export interface ConfiguredAccount extends CurrentAccount {
  accountId: string;
  active: boolean;
}

/** `settings`, when the caller has just read them, saves reading them again. */
export async function readCurrentAccount(deps: { settings?: ClientSettings } = {}): Promise<CurrentAccount> {
  const settings = deps.settings ?? (await readClientSettings());
  const [identity, client] = await Promise.all([
    accountIdentity(settings),
    createConfiguredClient({ settings }),
  ]);
  return { identity, client };
}

/**
 * Every account of this browser, each with its own identity and a client made from its own key
 * and connection (one reading of all of them): one account's key never goes with another's origin.
 */
export async function readConfiguredAccounts(): Promise<ConfiguredAccount[]> {
  const [state, timeoutMs] = await Promise.all([
    readAccounts(),
    readsApiTimeoutForTests ? apiTimeoutForTestsItem.getValue() : null,
  ]);
  return Promise.all(
    state.accounts.map(async (account) => {
      const settings: ClientSettings = { key: account.key, connection: account.connection, timeoutMs };
      const { identity, client } = await readCurrentAccount({ settings });
      return { identity, client, accountId: account.id, active: account.active };
    }),
  );
}
