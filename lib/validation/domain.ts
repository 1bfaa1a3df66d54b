/**
 * Domain input rules (decisions.md "Domain input"). Kept free of tldts so the API client can
 * validate domains without pulling the Public Suffix List into its bundle.
 */
import { invalid, quoteInput, type Validation, valid } from './result';

const IPV4_SHAPE = /^\d{1,3}(\.\d{1,3}){3}$/;
const SCHEME_PREFIX = /^[a-z][a-z0-9+.-]*:\/\//i;
const LABEL_CHARS = /^[a-z0-9_-]+$/;

/**
 * Reduces what a user typed or pasted (a domain, a URL, an IDN, `Example.COM.`) to the bare
 * lower-case ASCII domain the service stores. Never throws.
 */
export function normaliseDomainInput(input: string): Validation {
  if (typeof input !== 'string') return invalid('Enter a domain, such as example.com.');
  const trimmed = input.trim();
  if (trimmed === '') return invalid('Enter a domain, such as example.com.');
  if (/\s/.test(trimmed)) return invalid('A domain cannot contain spaces.');
  if (trimmed.includes('*') || trimmed.startsWith('.')) {
    return invalid('Leave out the wildcard: an entry for example.com already covers all its subdomains.');
  }
  // Any scheme is replaced by http: only special schemes get IDN-to-punycode and lower-casing
  // from the WHATWG parser (a `foo://` URL keeps an opaque, percent-encoded host).
  const withoutScheme = trimmed.replace(SCHEME_PREFIX, '');
  let host: string;
  try {
    host = new URL(`http://${withoutScheme}`).hostname;
  } catch {
    return invalid(`${quoteInput(trimmed)} is not a valid domain.`);
  }
  if (host.startsWith('[') || IPV4_SHAPE.test(host.replace(/\.$/, ''))) {
    return invalid('Enter a domain name, not an IP address.');
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
  if (host === '') return `${quoteInput(original)} has no domain in it.`;
  if (host.length > 253) return 'A domain can be at most 253 characters long.';
  const labels = host.split('.');
  if (labels.length < 2) return 'Enter a full domain with a dot, such as example.com.';
  for (const label of labels) {
    if (label === '')
      return `${quoteInput(original)} is not a valid domain: it has an empty part between dots.`;
    if (label.length > 63) return 'Each part of a domain between dots can be at most 63 characters long.';
    if (!LABEL_CHARS.test(label)) return 'A domain can contain only letters, digits, hyphens and dots.';
    if (label.startsWith('-') || label.endsWith('-')) {
      return 'A part of a domain between dots cannot start or end with a hyphen.';
    }
  }
  if (/^\d+$/.test(labels[labels.length - 1]!)) return 'Enter a domain name, not an IP address.';
  return null;
}
