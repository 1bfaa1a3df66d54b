/**
 * The account a piece of work belongs to: the service's origin, the API form and a fingerprint
 * of the key. Queued changes, cached views, registered addresses and temporary allows all carry
 * its id, and each is delivered, shown or undone only while the configured connection has the
 * same id (docs/service-api.md, "Account identity"). A new key on the same
 * origin, another origin or another form is another account.
 *
 * The key itself is never part of it: the fingerprint is the first 16 hex digits of the key's
 * SHA-256, enough to tell two keys apart, useless for finding the key.
 *
 * Several configured accounts (each with its own key, origin and form) will each have their own
 * id from the same function; nothing here assumes there is only one.
 */

import { API_FORMS, isApiForm } from '@/lib/api/forms';
import type { ApiForm } from '@/lib/api/types';

/** A stable string naming one account: `<form> <origin> <fingerprint>`. Compare with `===`. */
export type AccountId = string;

/** The fingerprint of an empty key: work made while no key was set. */
export const NO_KEY = 'no-key';
/**
 * The fingerprint of work stored before identities existed whose account was not the one
 * configured at the update: its key is unknown, so it matches no account there is.
 */
export const UNKNOWN_KEY = 'unknown-key';

export interface AccountIdentity {
  readonly id: AccountId;
  /** `https://my.cleanbrowsing.org`: scheme, host and port only. */
  readonly origin: string;
  readonly form: ApiForm;
  /** 16 hex digits of the key's SHA-256, `NO_KEY` or `UNKNOWN_KEY`. */
  readonly keyFingerprint: string;
}

/** 16 hex digits of a key's SHA-256, or one of the two words above. */
const FINGERPRINT_PATTERN = `[0-9a-f]{16}|${NO_KEY}|${UNKNOWN_KEY}`;
const FINGERPRINT = new RegExp(`^(?:${FINGERPRINT_PATTERN})$`);
/** What storage accepts as an account id (lib/settings/schemas.ts `accountIdSchema`). */
export const ACCOUNT_ID_PATTERN = new RegExp(`^(${API_FORMS.join('|')}) (\\S+) (${FINGERPRINT_PATTERN})$`);

/** The origin of a base URL; a value that is no URL stays as it is (it never matches a real one). */
export function originOf(baseUrl: string): string {
  try {
    const origin = new URL(baseUrl).origin;
    return origin === 'null' ? baseUrl : origin;
  } catch {
    return baseUrl;
  }
}

/**
 * The first 16 hex digits of the key's SHA-256 (of its UTF-8 bytes); `NO_KEY` for an empty key.
 * Worked out when a key is saved, imported or switched to, and stored beside it
 * (`apiKeyFingerprintItem`), so the popup finds its account without the key (docs/architecture.md,
 * "The popup's start path: invariants").
 */
export async function keyFingerprint(key: string): Promise<string> {
  if (key === '') return NO_KEY;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key));
  return [...new Uint8Array(digest).slice(0, 8)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

export function identityOf(parts: Omit<AccountIdentity, 'id'>): AccountIdentity {
  if (!FINGERPRINT.test(parts.keyFingerprint)) throw new Error('not a key fingerprint');
  const origin = originOf(parts.origin);
  return {
    id: `${parts.form} ${origin} ${parts.keyFingerprint}`,
    origin,
    form: parts.form,
    keyFingerprint: parts.keyFingerprint,
  };
}

/** The one place an identity is made from connection settings. */
export async function accountIdentity(settings: {
  key: string;
  connection: { baseUrl: string; form: ApiForm };
}): Promise<AccountIdentity> {
  return identityOf({
    origin: settings.connection.baseUrl,
    form: settings.connection.form,
    keyFingerprint: await keyFingerprint(settings.key),
  });
}

/** The identity an id names, for showing it; null for a value that is no account id. */
export function parseAccountId(id: string): AccountIdentity | null {
  const match = ACCOUNT_ID_PATTERN.exec(id);
  if (!match) return null;
  return { id, form: match[1] as ApiForm, origin: match[2]!, keyFingerprint: match[3]! };
}

/**
 * Before identities, work was tagged `<form> <baseUrl>` (no key). Such a tag gets `current`'s id
 * when it names the connection configured at the update (the key then is the best knowledge
 * there is), and otherwise an id with `UNKNOWN_KEY`, which no configured account ever has.
 */
export function identityForLegacyTag(tag: string, current: AccountIdentity): AccountId {
  const space = tag.indexOf(' ');
  const form = tag.slice(0, space);
  const origin = originOf(tag.slice(space + 1));
  if (space < 0 || !isApiForm(form) || origin === '' || /\s/.test(origin)) {
    return identityOf({ origin: current.origin, form: current.form, keyFingerprint: UNKNOWN_KEY }).id;
  }
  if (form === current.form && origin === current.origin) return current.id;
  return identityOf({ origin, form, keyFingerprint: UNKNOWN_KEY }).id;
}
