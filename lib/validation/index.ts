/**
 * Checks of user input before any call to the service, following docs/service-api.md. Each returns the
 * normalised value or the message the user sees. None of them throws.
 */
import { t } from '@/lib/i18n';
import { ACCOUNT_NAME_MAX } from '@/lib/settings/limits';
import { hasUserInfo } from './domain';
import { invalid, quoteInput, type Validation, valid } from './result';

export { hasUserInfo, isValidDomain, normaliseDomainInput } from './domain';
export { invalid, quoteInput, type Validation, valid } from './result';

// Control characters, lone surrogates and line/paragraph separators cannot be displayed or typed
// back; they would make a stored label differ invisibly from what the user sees.
const UNPRINTABLE = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}]/u;

// Direction overrides and isolates reorder the text around them: a label holding one can show as
// something else than what is stored ("Trojan Source"). Plain right-to-left text needs none.
const DIRECTION_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/;

const PROFILE_NAME_MAX = 64;
const NETWORK_LABEL_MAX = 64;

/** A new profile's name: letters and digits only, 4 to 64 characters. */
export function validateProfileName(input: string): Validation {
  const name = typeof input === 'string' ? input.trim() : '';
  if (name === '') return invalid(t('validation.profileEmpty'));
  if (!/^[A-Za-z0-9]+$/.test(name)) return invalid(t('validation.profileChars'));
  if (name.length < 4) return invalid(t('validation.profileShort'));
  if (name.length > PROFILE_NAME_MAX) return invalid(t('validation.profileLong', { max: PROFILE_NAME_MAX }));
  return valid(name);
}

/**
 * A profile the caller acts on (select, delete, list). Looser than `validateProfileName`: a
 * profile made in the provider's dashboard may not follow this extension's naming rule, and the
 * user must still be able to use or delete it.
 */
export function validateProfileReference(input: string): Validation {
  const name = typeof input === 'string' ? input.trim() : '';
  if (name === '') return invalid(t('validation.chooseProfile'));
  if (UNPRINTABLE.test(name) || name.length > 256)
    return invalid(t('validation.notProfile', { input: quoteInput(name) }));
  return valid(name);
}

/** A category identifier; unknown ids reported by the service are accepted too. */
export function validateCategoryId(input: string): Validation {
  const id = typeof input === 'string' ? input.trim() : '';
  if (id === '') return invalid(t('validation.chooseCategory'));
  if (UNPRINTABLE.test(id) || /\s/.test(id) || id.length > 128) {
    return invalid(t('validation.notCategory', { input: quoteInput(id) }));
  }
  return valid(id);
}

/** A top-level domain with its leading dot (`.xyz`); `xyz` and IDN TLDs are accepted. */
export function validateTld(input: string): Validation {
  const trimmed = typeof input === 'string' ? input.trim() : '';
  if (trimmed === '') return invalid(t('validation.tldEmpty'));
  const notTld = () => invalid(t('validation.notTld', { input: quoteInput(trimmed) }));
  const bare = (trimmed.startsWith('.') ? trimmed.slice(1) : trimmed).replace(/\.$/, '');
  if (bare.includes('*')) return invalid(t('validation.tldWildcard'));
  // `com@evil` would parse as the host `evil`; `com/x` as `com`: neither is what was typed.
  if (/[@/\\?#:]/.test(bare)) return notTld();
  if (bare.includes('.')) return invalid(t('validation.tldFull'));
  let ascii: string;
  try {
    // The WHATWG parser turns an IDN label into punycode and lower-cases it.
    ascii = new URL(`http://example.${bare}`).hostname.slice('example.'.length);
  } catch {
    return notTld();
  }
  if (!/^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(ascii)) return notTld();
  return valid(`.${ascii}`);
}

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);

/** An IPv4 address in dotted-quad form, without leading zeros (`010` is ambiguous: octal or decimal). */
export function validateIpv4(input: string): Validation {
  const ip = typeof input === 'string' ? input.trim() : '';
  if (ip === '') return invalid(t('validation.ipEmpty'));
  if (ip.includes(':')) return invalid(t('validation.ipv6'));
  if (!IPV4.test(ip)) return invalid(t('validation.notIpv4', { input: quoteInput(ip) }));
  return valid(ip);
}

/** A day as `yyyy-mm-dd`, which must exist in the calendar. */
export function validateDate(input: string): Validation {
  const date = typeof input === 'string' ? input.trim() : '';
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return invalid(t('validation.dateFormat'));
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const parsed = new Date(Date.UTC(year, month - 1, day));
  if (parsed.getUTCFullYear() !== year || parsed.getUTCMonth() !== month - 1 || parsed.getUTCDate() !== day) {
    return invalid(t('validation.notRealDate', { date }));
  }
  return valid(date);
}

/** A network label: 1 to 64 printable characters, trimmed. */
export function validateNetworkLabel(input: string): Validation {
  const label = typeof input === 'string' ? input.trim() : '';
  if (label === '') return invalid(t('validation.labelEmpty'));
  if (UNPRINTABLE.test(label)) return invalid(t('validation.labelControl'));
  if (DIRECTION_CONTROLS.test(label)) return invalid(t('validation.labelDirection'));
  if ([...label].length > NETWORK_LABEL_MAX)
    return invalid(t('validation.labelLong', { max: NETWORK_LABEL_MAX }));
  return valid(label);
}

/**
 * The name of an account of this browser (lib/accounts), typed or imported: trimmed, at most
 * ACCOUNT_NAME_MAX characters, nothing unprintable, no direction controls (a name holding one can
 * show as another: "Bank" written backwards after an override). Names taken by other accounts are
 * the caller's to check (`checkAccountName`).
 */
export function validateAccountName(input: string): Validation {
  const name = typeof input === 'string' ? input.trim() : '';
  if (name === '') return invalid(t('accounts.nameEmpty'));
  if (name.length > ACCOUNT_NAME_MAX || UNPRINTABLE.test(name)) {
    return invalid(t('accounts.nameInvalid', { max: ACCOUNT_NAME_MAX }));
  }
  if (DIRECTION_CONTROLS.test(name)) return invalid(t('accounts.nameDirection'));
  return valid(name);
}

/** The account's API key as pasted from the dashboard (surrounding spaces are dropped). */
export function validateApiKey(input: string): Validation {
  const key = typeof input === 'string' ? input.trim() : '';
  if (key === '') return invalid(t('validation.keyEmpty'));
  if (/\s/.test(key) || UNPRINTABLE.test(key)) return invalid(t('validation.keySpaces'));
  // Zero-width spaces and direction marks come along when a key is copied from a web page.
  if (/\p{Cf}/u.test(key)) return invalid(t('validation.keyInvisible'));
  if (key.length > 512) return invalid(t('validation.keyLong'));
  return valid(key);
}

export const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;
// The URL parser lets through host names no DNS server knows (`"`, `a{b}`); refused here, where
// the user can fix them, instead of failing later as an unreachable service.
const HOST_LABEL = '[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?';
const PLAUSIBLE_HOST = new RegExp(`^(?:${HOST_LABEL}\\.)*${HOST_LABEL}\\.?$|^\\[[0-9a-f:.]+\\]$`);

/** Whether a parsed URL's `hostname` can name a server (letters, digits, `-`, `_`, dots, or an IPv6 literal). */
export function isPlausibleHostname(hostname: string): boolean {
  return PLAUSIBLE_HOST.test(hostname);
}

/**
 * The service's origin. Only `https://`, or `http://` on this computer (loopback), because the
 * key travels in the query string. A pasted API address (`…/api/v1/?…`) is reduced to its origin.
 */
export function validateBaseUrl(input: string): Validation {
  const trimmed = typeof input === 'string' ? input.trim() : '';
  if (trimmed === '') return invalid(t('validation.baseUrlEmpty'));
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return invalid(t('validation.notUrl', { input: quoteInput(trimmed) }));
  }
  if (url.username !== '' || url.password !== '' || hasUserInfo(trimmed))
    return invalid(t('validation.baseUrlCredentials'));
  if ((url.protocol === 'https:' || url.protocol === 'http:') && !isPlausibleHostname(url.hostname)) {
    return invalid(t('validation.noServer', { input: quoteInput(trimmed) }));
  }
  if (url.protocol === 'https:' && url.hostname !== '') return valid(url.origin);
  if (url.protocol === 'http:' && LOOPBACK_HOST.test(url.hostname)) return valid(url.origin);
  if (url.protocol === 'http:') return invalid(t('validation.useHttps'));
  return invalid(t('validation.httpsOnly'));
}
