/**
 * Which failed requests point at the DNS filter. A DNS filter blocks a host in one of two ways:
 * it answers that the name does not exist (NXDOMAIN, REFUSED or SERVFAIL, which browsers report
 * as "name not resolved"), or it answers with an address that leads nowhere (a sinkhole:
 * `0.0.0.0`, `::` or a loopback address). Only those two signatures count; everything else a
 * request can fail with (user aborts, other extensions, servers that are down or slow, offline)
 * would make the popup blame the filter for problems it did not cause.
 *
 * Decisions, per error (Chromium `net::ERR_*`, Firefox `NS_*`):
 * - Name not resolved: `ERR_NAME_NOT_RESOLVED`, `ERR_NAME_RESOLUTION_FAILED`,
 *   `ERR_DNS_SERVER_FAILED`, `ERR_DNS_MALFORMED_RESPONSE`, Firefox `NS_ERROR_UNKNOWN_HOST`. These
 *   are what a filter's "no such name" answer becomes.
 * - Sinkhole address: `ERR_ADDRESS_INVALID` and `ERR_ADDRESS_UNREACHABLE` always (what the
 *   network stack says when asked to connect to `0.0.0.0` or `::`); a refused, reset, closed or
 *   timed-out connection only when the request went to an unspecified or loopback address: a
 *   public host name answered with such an address is what a sinkhole does, whereas the same
 *   errors from a real address mean the server is down or overloaded.
 * - Never: `ERR_ABORTED` / `NS_BINDING_ABORTED` / `NS_ERROR_ABORT` (the user or the page stopped
 *   it), `ERR_BLOCKED_BY_CLIENT` (another extension, e.g. an ad blocker), other `ERR_BLOCKED_BY_*`
 *   (the page's own policies), `ERR_INTERNET_DISCONNECTED` / `NS_ERROR_OFFLINE` (everything
 *   fails), `ERR_DNS_TIMED_OUT` (the resolver did not answer at all, which a filter never does on
 *   purpose), certificate and proxy errors, and Firefox's `NS_ERROR_NET_ON_*`: those are progress
 *   states (resolving, connecting, waiting …) that Firefox reports when a request stopped at that
 *   stage, e.g. with no network at all, not an answer from the resolver.
 */

import { t } from '@/lib/i18n';

export type FailureKind = 'name-not-resolved' | 'sinkhole';

export interface FailedRequest {
  /** `details.error` of webRequest.onErrorOccurred or webNavigation.onErrorOccurred. */
  error: string;
  /** `details.ip`, the address the request went to, when the browser knows it. */
  ip?: string;
}

const NAME_NOT_RESOLVED = new Set([
  'ERR_NAME_NOT_RESOLVED',
  'ERR_NAME_RESOLUTION_FAILED',
  'ERR_DNS_SERVER_FAILED',
  'ERR_DNS_MALFORMED_RESPONSE',
  'NS_ERROR_UNKNOWN_HOST',
]);

const UNREACHABLE_ADDRESS = new Set(['ERR_ADDRESS_INVALID', 'ERR_ADDRESS_UNREACHABLE']);

/** Errors that count only when the connection went to a sinkhole address. */
const CONNECTION_FAILED = new Set([
  'ERR_CONNECTION_REFUSED',
  'ERR_CONNECTION_RESET',
  'ERR_CONNECTION_CLOSED',
  'ERR_CONNECTION_FAILED',
  'ERR_CONNECTION_TIMED_OUT',
  'ERR_TIMED_OUT',
  'ERR_EMPTY_RESPONSE',
  'NS_ERROR_CONNECTION_REFUSED',
  'NS_ERROR_NET_RESET',
  'NS_ERROR_NET_TIMEOUT',
  'NS_ERROR_NET_INTERRUPT',
  'NS_ERROR_NET_EMPTY_RESPONSE',
]);

/** `0.0.0.0`, `::`, `127.0.0.0/8` and `::1`, in the forms browsers report them. */
export function isSinkholeAddress(ip: string | undefined): boolean {
  if (ip === undefined) return false;
  const address = ip
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  if (address === '0.0.0.0' || address === '::' || address === '::1') return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address)) return true;
  // IPv4-mapped IPv6 (`::ffff:0.0.0.0`, `::ffff:127.0.0.1`).
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address)?.[1];
  return mapped !== undefined && isSinkholeAddress(mapped);
}

/** The kind of DNS-filter signature `request` shows, or null when it does not show one. */
export function classifyFailure(request: FailedRequest): FailureKind | null {
  // Without the `net::` prefix Chromium puts in front.
  const code = request.error.trim().replace(/^net::/, '');
  if (NAME_NOT_RESOLVED.has(code)) return 'name-not-resolved';
  if (UNREACHABLE_ADDRESS.has(code)) return 'sinkhole';
  if (CONNECTION_FAILED.has(code) && isSinkholeAddress(request.ip)) return 'sinkhole';
  return null;
}

/** Short words for the popup: what the failure means, not the browser's code. */
export function describeFailure(kind: FailureKind): string {
  return t(kind === 'name-not-resolved' ? 'failedRequest.nameNotResolved' : 'failedRequest.sinkhole');
}
