/**
 * The verdict for a host against a whitelist and a blocklist of 100,000 entries each, in Node
 * (lib/filtering/verdict.ts with the packed index of lib/filtering/domain-index.ts), as the popup
 * does it: lists are packed once when fetched, and looked up in place on each opening.
 */
import { performance } from 'node:perf_hooks';
import { packDomains, packedDomainIndex } from '../../lib/filtering/domain-index.ts';
import { type VerdictKnowledge, verdictFor } from '../../lib/filtering/verdict.ts';
import { below, type Figure, figure } from './figures.ts';

const TLDS = ['com', 'net', 'org', 'co.uk', 'de', 'io', 'com.au', 'xyz'];

/** A deterministic pseudo-random sequence (mulberry32), so every run indexes the same lists. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` list entries as a service returns them: mostly registrable domains, some subdomains,
 * a few in upper case or with a trailing dot, and duplicates.
 */
export function syntheticList(count: number, seed: number, prefix: string): string[] {
  const next = random(seed);
  const entries: string[] = [];
  for (let i = 0; i < count; i++) {
    const tld = TLDS[Math.floor(next() * TLDS.length)]!;
    const base = `${prefix}${Math.floor(next() * 36 ** 5).toString(36)}${i}.${tld}`;
    const roll = next();
    if (roll < 0.15) entries.push(`cdn${Math.floor(next() * 9)}.${base}`);
    else if (roll < 0.17) entries.push(base.toUpperCase());
    else if (roll < 0.19) entries.push(`${base}.`);
    else if (roll < 0.2 && entries.length > 0) entries.push(entries[Math.floor(next() * entries.length)]!);
    else entries.push(base);
  }
  return entries;
}

/** Hosts a person visits: half covered by an entry (its subdomains), half on no list. */
function visitedHosts(whitelist: string[], blocklist: string[], count: number, seed: number): string[] {
  const next = random(seed);
  const hosts: string[] = [];
  for (let i = 0; i < count; i++) {
    const roll = next();
    if (roll < 0.25) hosts.push(`www.${whitelist[Math.floor(next() * whitelist.length)]!.toLowerCase()}`);
    else if (roll < 0.5) hosts.push(`a.b.${blocklist[Math.floor(next() * blocklist.length)]!.toLowerCase()}`);
    else hosts.push(`static.site${Math.floor(next() * 1e9).toString(36)}.example.${TLDS[i % TLDS.length]}`);
  }
  return hosts;
}

export interface VerdictLookupOptions {
  entries?: number;
  runs?: number;
  lookupsPerRun?: number;
}

export function measureVerdictLookup({
  entries = 100_000,
  runs = 7,
  lookupsPerRun = 100_000,
}: VerdictLookupOptions = {}): Figure[] {
  const whitelistRaw = syntheticList(entries, 1, 'w');
  const blocklistRaw = syntheticList(entries, 2, 'b');

  // What a fetch of a list costs (lib/cache/view-cache.ts saveLists): canonical form,
  // deduplication, sort and packing into one string.
  const buildMs: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    packDomains(whitelistRaw);
    packDomains(blocklistRaw);
    buildMs.push((performance.now() - start) / 2);
  }

  const knowledge: VerdictKnowledge = {
    whitelist: packedDomainIndex(packDomains(whitelistRaw)),
    blocklist: packedDomainIndex(packDomains(blocklistRaw)),
    blockedTlds: ['.zip'],
    defaultBlock: false,
    blockedToday: new Map([['tracker.example.net', 3]]),
  };
  const hosts = visitedHosts(whitelistRaw, blocklistRaw, lookupsPerRun, 3);
  const outcomes = { allowed: 0, blocked: 0, 'not-blocked': 0 };
  // A popup opening does one lookup in a fresh page, with code not yet optimised: the very first
  // lookups here are the nearest Node has to that.
  const firstStart = performance.now();
  for (const host of hosts.slice(0, 3)) verdictFor(host, knowledge);
  const firstUs = ((performance.now() - firstStart) * 1000) / 3;
  // Warm-up, so the figure is the steady state the popup reaches after its first lookup or two.
  for (const host of hosts.slice(0, 10_000)) verdictFor(host, knowledge);
  const lookupUs: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    for (const host of hosts) outcomes[verdictFor(host, knowledge).kind]++;
    lookupUs.push(((performance.now() - start) * 1000) / hosts.length);
  }
  const perRun = (n: number) => Math.round(n / runs);

  return [
    figure(
      'verdict-lookup-us',
      'Verdict lookup, 100k-entry lists',
      'µs',
      lookupUs,
      below(50, '< 50 µs'),
      `${hosts.length.toLocaleString('en')} lookups per run (${perRun(outcomes.allowed)} allowed, ${perRun(outcomes.blocked)} blocked, ${perRun(outcomes['not-blocked'])} not blocked); the first 3 lookups of the process, code not yet optimised: ${firstUs.toFixed(0)} µs each`,
    ),
    figure(
      'verdict-index-build-ms',
      'Index build, 100k entries',
      'ms',
      buildMs,
      below(200, '< 200 ms'),
      'canonical form, deduplication, sort and packing of one list (packDomains), done when a list is fetched',
    ),
  ].map((f) => ({ ...f, samples: f.samples.map((v) => Math.round(v * 1000) / 1000) }));
}
