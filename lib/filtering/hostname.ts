/**
 * The host a page address stands for. Kept apart from lib/filtering/domain.ts, which carries the
 * Public Suffix List (tldts, about 47 kB gzipped): the popup needs the host on every opening, the
 * list only for hosts it has not seen before (lib/cache/registrable-domains.ts).
 */

const IPV4_SHAPE = /^\d{1,3}(\.\d{1,3}){3}$/;

/** A page's host as this browser keeps it (a note's page, a change's page): never a whole address. */
export const PAGE_HOST = /^[a-z0-9._-]{1,253}$/i;

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
