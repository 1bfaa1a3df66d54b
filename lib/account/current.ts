/**
 * The account configured now: its identity and its client, made from one reading of the
 * settings, so work is never checked against one key and then sent with another.
 */

import { type ClientSettings, createConfiguredClient, readClientSettings } from '@/lib/api/configured-client';
import type { DnsFilterApi } from '@/lib/api/types';
import { type AccountIdentity, accountIdentity } from './identity';

export interface CurrentAccount {
  identity: AccountIdentity;
  /** Null while no key is set. */
  client: DnsFilterApi | null;
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
