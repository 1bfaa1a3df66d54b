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

function range(cidr: string): Ipv4Range {
  const [address, bits] = cidr.split('/') as [string, string];
  const size = 2 ** (32 - Number(bits));
  const first = ipv4ToNumber(address);
  return { cidr, first, last: first + size - 1 };
}

/**
 * Ranges no provider can see a DNS query come from (RFC 6890 and its updates). The documentation
 * ranges (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24) are deliberately not here: they are not
 * routed either, but the emulator and the tests register them as stand-ins for public addresses.
 */
export const NON_PUBLIC_IPV4_RANGES: readonly Ipv4Range[] = [
  '0.0.0.0/8', // "this network"
  '10.0.0.0/8', // private
  '100.64.0.0/10', // carrier-grade NAT: shared by many customers behind one public address
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local
  '172.16.0.0/12', // private
  '192.168.0.0/16', // private
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, and 255.255.255.255 broadcast
].map(range);

/** A dotted quad (already checked by validateIpv4) as an unsigned 32-bit number. */
function ipv4ToNumber(ip: string): number {
  return ip.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

/** The non-public range holding `ip`, or null when it may be this network's public address. */
export function nonPublicRange(ip: string): Ipv4Range | null {
  const value = ipv4ToNumber(ip);
  return (
    NON_PUBLIC_IPV4_RANGES.find((candidate) => value >= candidate.first && value <= candidate.last) ?? null
  );
}
