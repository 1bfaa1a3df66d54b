/**
 * Which domain a page stands for, and how a typed domain is normalised. The input rules live in
 * lib/validation/domain.ts (no Public Suffix List there, so the API client stays light).
 */
import { getDomain } from 'tldts';

export { isValidDomain, normaliseDomainInput } from '@/lib/validation/domain';

const IPV4_SHAPE = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * The domain a page belongs to for filtering, or null when there is nothing the service could
 * filter: non-web schemes (`chrome:`, `about:`, `file:`, `moz-extension:`), bare IP addresses,
 * `localhost` and single-label intranet names (no list entry can name them).
 */
export function hostnameFromUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  const host = parsed.hostname.replace(/\.$/, '');
  if (host === '' || host.startsWith('[') || IPV4_SHAPE.test(host)) return null;
  if (host === 'localhost' || host.endsWith('.localhost')) return null;
  if (!host.includes('.')) return null;
  return host;
}

/**
 * The registrable domain of a hostname from the Public Suffix List (`news.bbc.co.uk` gives
 * `bbc.co.uk`). Private suffixes count (`alice.github.io` stays `alice.github.io`) so one click
 * never whitelists every site of a hosting provider. Falls back to the hostname itself when the
 * list has no answer (the host is itself a suffix, or an IP).
 */
export function registrableDomain(host: string): string {
  const normalised = host.trim().toLowerCase().replace(/\.$/, '');
  return getDomain(normalised, { allowPrivateDomains: true }) ?? normalised;
}
