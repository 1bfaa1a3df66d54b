/**
 * Which IPv4 addresses can stand for this network on the internet. A lookup service behind a
 * captive portal, a proxy or a misconfigured VPN may answer with a private or reserved address;
 * registering it would replace the real public address at the provider (the previous one is
 * deleted after the add), so filtering would stop without a word. Pure.
 */

export interface Ipv4Range {
  /** CIDR notation, as shown to the user. */
  cidr: string;
  first: number;
  last: number;
}

/**
 * The IANA IPv4 Special-Purpose Address Registry (RFC 6890 and its updates), row by row: its
 * name and its "Globally Reachable" column (null where it says N/A: a deprecated block). Kept
 * whole, so a check against the registry is a comparison of two tables.
 */
export const IANA_IPV4_SPECIAL_PURPOSE: readonly {
  cidr: string;
  name: string;
  globallyReachable: boolean | null;
}[] = [
  { cidr: '0.0.0.0/8', name: '"This network"', globallyReachable: false },
  { cidr: '0.0.0.0/32', name: '"This host on this network"', globallyReachable: false },
  { cidr: '10.0.0.0/8', name: 'Private-Use', globallyReachable: false },
  { cidr: '100.64.0.0/10', name: 'Shared Address Space', globallyReachable: false },
  { cidr: '127.0.0.0/8', name: 'Loopback', globallyReachable: false },
  { cidr: '169.254.0.0/16', name: 'Link Local', globallyReachable: false },
  { cidr: '172.16.0.0/12', name: 'Private-Use', globallyReachable: false },
  { cidr: '192.0.0.0/24', name: 'IETF Protocol Assignments', globallyReachable: false },
  { cidr: '192.0.0.0/29', name: 'IPv4 Service Continuity Prefix', globallyReachable: false },
  { cidr: '192.0.0.8/32', name: 'IPv4 dummy address', globallyReachable: false },
  { cidr: '192.0.0.9/32', name: 'Port Control Protocol Anycast', globallyReachable: true },
  { cidr: '192.0.0.10/32', name: 'Traversal Using Relays around NAT Anycast', globallyReachable: true },
  { cidr: '192.0.0.170/32', name: 'NAT64/DNS64 Discovery', globallyReachable: false },
  { cidr: '192.0.0.171/32', name: 'NAT64/DNS64 Discovery', globallyReachable: false },
  { cidr: '192.0.2.0/24', name: 'Documentation (TEST-NET-1)', globallyReachable: false },
  { cidr: '192.31.196.0/24', name: 'AS112-v4', globallyReachable: true },
  { cidr: '192.52.193.0/24', name: 'AMT', globallyReachable: true },
  { cidr: '192.88.99.0/24', name: 'Deprecated (6to4 Relay Anycast)', globallyReachable: null },
  { cidr: '192.168.0.0/16', name: 'Private-Use', globallyReachable: false },
  { cidr: '192.175.48.0/24', name: 'Direct Delegation AS112 Service', globallyReachable: true },
  { cidr: '198.18.0.0/15', name: 'Benchmarking', globallyReachable: false },
  { cidr: '198.51.100.0/24', name: 'Documentation (TEST-NET-2)', globallyReachable: false },
  { cidr: '203.0.113.0/24', name: 'Documentation (TEST-NET-3)', globallyReachable: false },
  { cidr: '240.0.0.0/4', name: 'Reserved', globallyReachable: false },
  { cidr: '255.255.255.255/32', name: 'Limited Broadcast', globallyReachable: false },
];

/**
 * The documentation blocks are not routed either, but the emulator and the tests register them as
 * stand-ins for public addresses, so they are accepted (docs/service-api.md, "Current IP").
 */
export const DOCUMENTATION_IPV4_RANGES: readonly string[] = [
  '192.0.2.0/24',
  '198.51.100.0/24',
  '203.0.113.0/24',
];

/** Multicast (the IANA multicast registry, not the special-purpose one): never a source address. */
const MULTICAST = '224.0.0.0/4';

function range(cidr: string): Ipv4Range {
  const [address, bits] = cidr.split('/') as [string, string];
  const size = 2 ** (32 - Number(bits));
  const first = ipv4ToNumber(address);
  return { cidr, first, last: first + size - 1 };
}

/**
 * Ranges no provider can see a DNS query come from: every block of the registry that is not
 * globally reachable (a block inside one of them too, such as the anycast addresses in
 * 192.0.0.0/24: no lookup service can truthfully answer with one), and multicast.
 */
export const NON_PUBLIC_IPV4_RANGES: readonly Ipv4Range[] = [
  ...IANA_IPV4_SPECIAL_PURPOSE.filter(
    (block) => block.globallyReachable !== true && !DOCUMENTATION_IPV4_RANGES.includes(block.cidr),
  ).map((block) => block.cidr),
  MULTICAST,
].map(range);

/** A dotted quad (already checked by validateIpv4) as an unsigned 32-bit number. */
function ipv4ToNumber(ip: string): number {
  return ip.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

/**
 * The non-public range holding `ip` (the narrowest, which names it best: 255.255.255.255/32
 * rather than 240.0.0.0/4), or null when it may be this network's public address.
 */
export function nonPublicRange(ip: string): Ipv4Range | null {
  const value = ipv4ToNumber(ip);
  let found: Ipv4Range | null = null;
  for (const candidate of NON_PUBLIC_IPV4_RANGES) {
    if (value < candidate.first || value > candidate.last) continue;
    if (found === null || candidate.last - candidate.first < found.last - found.first) found = candidate;
  }
  return found;
}
