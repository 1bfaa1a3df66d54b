import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLookupAnswer } from '@/lib/network';
import { NON_PUBLIC_IPV4_RANGES, nonPublicRange } from '@/lib/network/public-ipv4';

/**
 * The blocks of the IANA IPv4 Special-Purpose Address Registry that are not globally reachable
 * (documentation blocks aside, below), and multicast.
 */
const REFUSED = [
  '0.0.0.0/8',
  '0.0.0.0/32',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.0.0/29',
  '192.0.0.8/32',
  '192.0.0.170/32',
  '192.0.0.171/32',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '240.0.0.0/4',
  '255.255.255.255/32',
  '224.0.0.0/4',
];
const DOCUMENTATION = ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24'];

function toDottedQuad(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

function addressIsIn(ip: string, cidr: string): boolean {
  const [address, bits] = cidr.split('/') as [string, string];
  const number = (dotted: string) =>
    dotted.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
  const first = number(address);
  return number(ip) >= first && number(ip) < first + 2 ** (32 - Number(bits));
}

/** Any address inside `cidr`. */
function addressIn(cidr: string): fc.Arbitrary<string> {
  const [address, bits] = cidr.split('/') as [string, string];
  const first = address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
  return fc
    .integer({ min: 0, max: 2 ** (32 - Number(bits)) - 1 })
    .map((offset) => toDottedQuad(first + offset));
}

describe('addresses a lookup service may answer with', () => {
  it('knows exactly the reserved ranges that cannot be a public address', () => {
    expect(NON_PUBLIC_IPV4_RANGES.map((range) => range.cidr)).toEqual(REFUSED);
  });

  it('every address of a reserved range is refused, naming the address and the range it is in', () => {
    fc.assert(
      fc.property(fc.constantFrom(...REFUSED).chain(addressIn), (ip) => {
        const named = nonPublicRange(ip);
        expect(named).not.toBeNull();
        expect(REFUSED.some((cidr) => cidr === named?.cidr && addressIsIn(ip, cidr))).toBe(true);
        const answer = parseLookupAnswer(`${ip}\n`);
        expect(answer).toMatchObject({ ok: false, reason: 'not-public' });
        expect(!answer.ok && answer.problem).toContain(ip);
        expect(!answer.ok && answer.problem).toContain(named?.cidr);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['198.18.0.1', '198.18.0.0/15'], // benchmarking
    ['198.19.255.255', '198.18.0.0/15'],
    ['192.0.0.1', '192.0.0.0/29'], // IETF protocol assignments
    ['192.0.0.9', '192.0.0.0/24'], // anycast inside them: no lookup answer can truthfully be one
    ['192.0.0.200', '192.0.0.0/24'],
    ['192.88.99.1', '192.88.99.0/24'], // the deprecated 6to4 relay anycast
    ['100.64.0.1', '100.64.0.0/10'],
    ['240.0.0.1', '240.0.0.0/4'],
    ['0.1.2.3', '0.0.0.0/8'],
    ['0.0.0.0', '0.0.0.0/32'],
    ['169.254.10.10', '169.254.0.0/16'],
    ['255.255.255.255', '255.255.255.255/32'],
  ])('%s is not public (%s)', (ip, cidr) => {
    expect(nonPublicRange(ip)?.cidr).toBe(cidr);
    expect(parseLookupAnswer(ip)).toMatchObject({ ok: false, reason: 'not-public' });
  });

  it('every documentation-range address is accepted (the emulator and tests register them)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...DOCUMENTATION).chain(addressIn), (ip) => {
        expect(nonPublicRange(ip)).toBeNull();
        expect(parseLookupAnswer(`{"ip":"${ip}"}`)).toEqual({ ok: true, ip });
      }),
      { numRuns: 1000 },
    );
  });

  it.each([
    ['9.255.255.255', true],
    ['11.0.0.0', true],
    ['100.63.255.255', true],
    ['100.128.0.0', true],
    ['172.15.255.255', true],
    ['172.32.0.0', true],
    ['192.167.255.255', true],
    ['192.169.0.0', true],
    ['223.255.255.255', true],
    ['1.1.1.1', true],
    ['198.17.255.255', true],
    ['198.20.0.0', true],
    ['192.0.1.0', true],
    ['192.88.98.255', true],
    ['192.88.100.0', true],
    ['192.31.196.1', true], // AS112: globally reachable
    ['192.0.0.255', false],
    ['255.255.255.255', false],
    ['172.31.255.255', false],
    ['100.127.255.255', false],
  ])('the edges of the ranges: %s public = %s', (ip, isPublic) => {
    expect(nonPublicRange(ip) === null).toBe(isPublic);
  });
});
