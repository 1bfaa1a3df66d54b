/** Network entries as the options page shows them. */
import type { NetworkEntry } from '@/lib/api/types';

export interface NetworkRow extends NetworkEntry {
  /** Stable key: Form A may list the same address under two profiles. */
  key: string;
  /** The address this browser is reaching the internet from right now. */
  isThisBrowser: boolean;
}

export function networkRows(networks: readonly NetworkEntry[], currentIp: string | null): NetworkRow[] {
  return networks
    .map((network) => ({
      ...network,
      key: `${network.profile ?? ''}|${network.ip}`,
      isThisBrowser: currentIp !== null && network.ip === currentIp,
    }))
    .sort((a, b) => compareIpv4(a.ip, b.ip) || (a.profile ?? '').localeCompare(b.profile ?? ''));
}

function ipv4Number(ip: string): number {
  const parts = ip.split('.').map(Number);
  if (parts.length !== 4 || parts.some((part) => !Number.isInteger(part))) return Number.POSITIVE_INFINITY;
  return parts.reduce((total, part) => total * 256 + part, 0);
}

function compareIpv4(a: string, b: string): number {
  const difference = ipv4Number(a) - ipv4Number(b);
  return Number.isNaN(difference) ? a.localeCompare(b) : difference;
}
