/**
 * Which domain a page stands for, and how a typed domain is normalised. The input rules live in
 * lib/validation/domain.ts (no Public Suffix List there, so the API client stays light).
 */
import { getDomain, parse } from 'tldts';

export { isValidDomain, normaliseDomainInput } from '@/lib/validation/domain';
// Re-exported for callers that need both; the popup imports it from ./hostname, without tldts.
export { hostnameFromUrl } from './hostname';

const normalised = (host: string) => host.trim().toLowerCase().replace(/\.$/, '');

/**
 * The registrable domain of a hostname from the Public Suffix List (`news.bbc.co.uk` gives
 * `bbc.co.uk`). Private suffixes count (`alice.github.io` stays `alice.github.io`) so one click
 * never whitelists every site of a hosting provider. Falls back to the hostname itself when the
 * list has no answer (the host is itself a suffix, or an IP): what names a site, never what a
 * list entry may be. A surface that offers an entry asks `registrableDomainOrNull` instead.
 */
export function registrableDomain(host: string): string {
  const name = normalised(host);
  return getDomain(name, { allowPrivateDomains: true }) ?? name;
}

/**
 * Whether `host` is itself a rule of the Public Suffix List, ICANN or private: `co.uk`, `com`,
 * `cloudfront.net`, `blogspot.com`. The sites of many unrelated owners sit under it, so a list
 * entry for it covers every one of them: unbreak, the popup and the menu never offer one, and the
 * worker adds one only when the user typed it to confirm (docs/service-api.md, "Which domain one
 * click adds"). A name the list does not know (`localhost`, an intranet name) and an IP are not.
 */
export function isPublicSuffix(host: string): boolean {
  const name = normalised(host);
  const parsed = parse(name, { allowPrivateDomains: true });
  return (
    !parsed.isIp &&
    parsed.domain === null &&
    parsed.publicSuffix === parsed.hostname &&
    (parsed.isIcann === true || parsed.isPrivate === true)
  );
}

/** The registrable domain of `host`, or null when the host is itself a public suffix: it has none. */
export function registrableDomainOrNull(host: string): string | null {
  return isPublicSuffix(host) ? null : registrableDomain(host);
}
