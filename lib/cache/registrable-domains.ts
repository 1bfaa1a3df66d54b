/**
 * The registrable domain of hosts the popup has already shown, remembered in storage
 * (`registrableDomainsItem`). The Public Suffix List's answer for a host only changes with the
 * list itself, and loading the list (tldts) is the heaviest part of an opening: with the answer
 * at hand, an opening on a known host never loads it.
 */
import { version as tldtsVersion } from 'tldts/package.json';
import { MAX_REMEMBERED_HOSTS } from '@/lib/settings/storage';

/**
 * tldts ships the list: another version of it may answer differently. "suffixes apart": a host
 * that is itself a public suffix is no longer remembered as its own registrable domain (the
 * popup asks each time it opens on one), so what earlier versions remembered is dropped once.
 */
export const PSL_VERSION = `tldts ${tldtsVersion}, suffixes apart`;

export interface RememberedDomains {
  psl: string;
  /** [host, registrable domain], oldest first. */
  hosts: ReadonlyArray<readonly [string, string]>;
}

/** The domain is the host itself or one of its parents: anything else is not a registrable domain of it. */
function covers(domain: string, host: string): boolean {
  return domain === host || host.endsWith(`.${domain}`);
}

/** The remembered registrable domain of `host`, if it was worked out with the current list. */
export function rememberedRegistrable(remembered: RememberedDomains, host: string): string | undefined {
  if (remembered.psl !== PSL_VERSION) return undefined;
  const pair = remembered.hosts.find(([known]) => known === host);
  return pair !== undefined && covers(pair[1], host) ? pair[1] : undefined;
}

/** The map with `host` added (or moved to the newest place), the oldest hosts dropped beyond the limit. */
export function rememberRegistrable(
  remembered: RememberedDomains,
  host: string,
  domain: string,
): { psl: string; hosts: [string, string][] } {
  const kept = remembered.psl === PSL_VERSION ? remembered.hosts.filter(([known]) => known !== host) : [];
  const hosts: [string, string][] = [...kept.map(([h, d]): [string, string] => [h, d]), [host, domain]];
  return { psl: PSL_VERSION, hosts: hosts.slice(-MAX_REMEMBERED_HOSTS) };
}
