/**
 * Domain input rules (docs/service-api.md, "Domain input"). Kept free of tldts so the API client can
 * validate domains without pulling the Public Suffix List into its bundle.
 */
import { t } from '@/lib/i18n';
import { invalid, quoteInput, type Validation, valid } from './result';

const IPV4_SHAPE = /^\d{1,3}(\.\d{1,3}){3}$/;
const SCHEME_PREFIX = /^[a-z][a-z0-9+.-]*:\/\//i;
const LABEL_CHARS = /^[a-z0-9_-]+$/;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const LEADING_SLASHES = /^[/\\]+/;
const AUTHORITY_END = /[/\\?#]/;

/**
 * True when the authority part of `input` (after an optional scheme and slashes, up to the first
 * `/`, `\`, `?` or `#`) holds an `@`. The URL parser reads everything before an `@` in the
 * authority as a user name and password, so `example.com@evil.com` names the host `evil.com`: a
 * domain, a list entry or a service origin the user did not mean. Such input is refused with a
 * message instead of being reduced to the host after the `@`. Stricter than the URL parser:
 * `https:\\a@b` and `example.com:80@evil.com` count too; an `@` in a path or query does not.
 */
export function hasUserInfo(input: string): boolean {
  const afterScheme = input.trim().replace(SCHEME, '').replace(LEADING_SLASHES, '');
  const authority = afterScheme.split(AUTHORITY_END, 1)[0] ?? '';
  // Without a scheme, `user:pass@host` loses `user:` as if it were one: the `@` remains.
  return authority.includes('@');
}

/**
 * Reduces what a user typed or pasted (a domain, a URL, an IDN, `Example.COM.`) to the bare
 * lower-case ASCII domain the service stores. Never throws.
 */
export function normaliseDomainInput(input: string): Validation {
  if (typeof input !== 'string') return invalid(t('validation.domainEmpty'));
  const trimmed = input.trim();
  if (trimmed === '') return invalid(t('validation.domainEmpty'));
  if (/\s/.test(trimmed)) return invalid(t('validation.domainSpaces'));
  if (trimmed.includes('*') || trimmed.startsWith('.')) return invalid(t('validation.domainWildcard'));
  if (hasUserInfo(trimmed)) return invalid(t('validation.domainUserInfo', { input: quoteInput(trimmed) }));
  // Any scheme is replaced by http: only special schemes get IDN-to-punycode and lower-casing
  // from the WHATWG parser (a `foo://` URL keeps an opaque, percent-encoded host).
  const withoutScheme = trimmed.replace(SCHEME_PREFIX, '');
  let host: string;
  try {
    host = new URL(`http://${withoutScheme}`).hostname;
  } catch {
    return invalid(t('validation.notDomain', { input: quoteInput(trimmed) }));
  }
  if (host.startsWith('[') || IPV4_SHAPE.test(host.replace(/\.$/, ''))) {
    return invalid(t('validation.domainIsIp'));
  }
  if (host.endsWith('.')) host = host.slice(0, -1);
  const problem = hostnameProblem(host, trimmed);
  return problem === null ? valid(host) : invalid(problem);
}

/** True when `value` is already in the normalised form `normaliseDomainInput` produces. */
export function isValidDomain(value: string): boolean {
  if (typeof value !== 'string' || hostnameProblem(value, value) !== null || IPV4_SHAPE.test(value)) {
    return false;
  }
  try {
    return new URL(`http://${value}`).hostname === value;
  } catch {
    return false;
  }
}

function hostnameProblem(host: string, original: string): string | null {
  if (host === '') return t('validation.noDomainIn', { input: quoteInput(original) });
  if (host.length > 253) return t('validation.domainLong');
  const labels = host.split('.');
  if (labels.length < 2) return t('validation.domainNoDot');
  for (const label of labels) {
    if (label === '') return t('validation.domainEmptyPart', { input: quoteInput(original) });
    if (label.length > 63) return t('validation.domainPartLong');
    if (!LABEL_CHARS.test(label)) return t('validation.domainChars');
    if (label.startsWith('-') || label.endsWith('-')) return t('validation.domainHyphen');
  }
  if (/^\d+$/.test(labels[labels.length - 1]!)) return t('validation.domainIsIp');
  return null;
}
