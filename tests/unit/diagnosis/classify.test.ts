import { describe, expect, it } from 'vitest';
import { classifyFailure, isSinkholeAddress } from '@/lib/diagnosis/classify';

describe('classifyFailure', () => {
  it.each([
    // What a filter's "no such name" answer becomes.
    ['net::ERR_NAME_NOT_RESOLVED', undefined, 'name-not-resolved'],
    ['net::ERR_NAME_RESOLUTION_FAILED', undefined, 'name-not-resolved'],
    ['net::ERR_DNS_SERVER_FAILED', undefined, 'name-not-resolved'],
    ['ERR_NAME_NOT_RESOLVED', undefined, 'name-not-resolved'],
    ['NS_ERROR_UNKNOWN_HOST', undefined, 'name-not-resolved'],
    // A sinkhole address: the network stack refuses to connect to it at all.
    ['net::ERR_ADDRESS_UNREACHABLE', undefined, 'sinkhole'],
    ['net::ERR_ADDRESS_INVALID', undefined, 'sinkhole'],
    // Connection failures count only towards a sinkhole address.
    ['net::ERR_CONNECTION_REFUSED', '0.0.0.0', 'sinkhole'],
    ['net::ERR_CONNECTION_REFUSED', '127.0.0.1', 'sinkhole'],
    ['net::ERR_CONNECTION_RESET', '::', 'sinkhole'],
    ['net::ERR_CONNECTION_TIMED_OUT', '[::1]', 'sinkhole'],
    ['NS_ERROR_CONNECTION_REFUSED', '::ffff:0.0.0.0', 'sinkhole'],
    ['net::ERR_CONNECTION_REFUSED', '203.0.113.9', null],
    ['net::ERR_CONNECTION_REFUSED', undefined, null],
    ['net::ERR_CONNECTION_TIMED_OUT', '198.51.100.4', null],
    ['net::ERR_CONNECTION_RESET', undefined, null],
    ['NS_ERROR_NET_TIMEOUT', undefined, null],
    // The user, the page or another extension stopped it; or everything is failing.
    ['net::ERR_ABORTED', undefined, null],
    ['NS_BINDING_ABORTED', undefined, null],
    ['NS_ERROR_ABORT', undefined, null],
    ['net::ERR_BLOCKED_BY_CLIENT', '0.0.0.0', null],
    ['net::ERR_BLOCKED_BY_RESPONSE', undefined, null],
    ['net::ERR_INTERNET_DISCONNECTED', undefined, null],
    ['NS_ERROR_OFFLINE', undefined, null],
    ['net::ERR_DNS_TIMED_OUT', undefined, null],
    ['net::ERR_CERT_COMMON_NAME_INVALID', undefined, null],
    // Firefox progress states reported as errors (e.g. with no network at all).
    ['NS_ERROR_NET_ON_RESOLVED', undefined, null],
    ['NS_ERROR_NET_ON_RESOLVING', undefined, null],
    ['NS_ERROR_NET_ON_CONNECTING_TO', '0.0.0.0', null],
    ['', undefined, null],
  ])('%s (ip %s) → %s', (error, ip, expected) => {
    expect(classifyFailure({ error, ...(ip === undefined ? {} : { ip }) })).toBe(expected);
  });
});

describe('isSinkholeAddress', () => {
  it.each([
    ['0.0.0.0', true],
    ['127.0.0.1', true],
    ['127.255.0.7', true],
    ['::', true],
    ['::1', true],
    ['[::1]', true],
    ['::ffff:127.0.0.1', true],
    ['10.0.0.1', false],
    ['203.0.113.1', false],
    ['::ffff:203.0.113.1', false],
    ['1270.0.0.1', false],
    ['', false],
    [undefined, false],
  ])('%s → %s', (ip, expected) => {
    expect(isSinkholeAddress(ip)).toBe(expected);
  });
});
