/**
 * Which domain a page stands for, and how a typed domain is normalised. The input rules live in
 * lib/validation/domain.ts (no Public Suffix List there, so the API client stays light).
 */
import { getDomain } from 'tldts';

export { isValidDomain, normaliseDomainInput } from '@/lib/validation/domain';
// Re-exported for callers that need both; the popup imports it from ./hostname, without tldts.
export { hostnameFromUrl } from './hostname';

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
