/**
 * Account ids for tests, worked out with Node's own SHA-256 (independently of
 * lib/identity/identity.ts, whose fingerprint they thereby check) and synchronously.
 */
import { createHash } from 'node:crypto';
import type { ApiForm, DnsFilterApi } from '@/lib/api/types';
import type { CurrentAccount } from '@/lib/identity/current';
import { type AccountIdentity, identityOf, NO_KEY } from '@/lib/identity/identity';

export function fingerprintOf(key: string): string {
  return key === '' ? NO_KEY : createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/** The id of the account with this form, base URL and key. */
export function accountIdFor(form: ApiForm, baseUrl: string, key: string): string {
  return identityOf({ origin: baseUrl, form, keyFingerprint: fingerprintOf(key) }).id;
}

/** An account for worker tests: a fixed identity, no key involved. */
export function testAccount(
  form: ApiForm = 'A',
  keyFingerprint = '0123456789abcdef',
  origin = 'https://my.cleanbrowsing.org',
): AccountIdentity {
  return identityOf({ origin, form, keyFingerprint });
}

/** `getAccount` for worker deps: `identity` (by default one of the client's form) with `client`. */
export function currentAccountOf(
  client: DnsFilterApi | null,
  identity: AccountIdentity = testAccount(client?.form ?? 'A'),
): () => Promise<CurrentAccount> {
  return async () => ({ identity, client });
}
