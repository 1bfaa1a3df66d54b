/**
 * Account ids for tests, worked out with Node's own SHA-256 (independently of
 * lib/account/identity.ts, whose fingerprint they thereby check) and synchronously.
 */
import { createHash } from 'node:crypto';
import { identityOf, NO_KEY } from '@/lib/account/identity';
import type { ApiForm } from '@/lib/api/types';

export function fingerprintOf(key: string): string {
  return key === '' ? NO_KEY : createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/** The id of the account with this form, base URL and key. */
export function accountIdFor(form: ApiForm, baseUrl: string, key: string): string {
  return identityOf({ origin: baseUrl, form, keyFingerprint: fingerprintOf(key) }).id;
}
