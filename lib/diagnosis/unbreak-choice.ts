/**
 * "Unbreak this page", the choice: which whitelist entries one click allows for a while, from the
 * hosts page diagnosis saw fail on the page. Pure: the popup passes the registrable-domain lookup
 * (Public Suffix List, through the worker) and the scope's lists as it knows them.
 *
 * - Each failed host gives one entry: its registrable domain (`cdn.example` for `img.cdn.example`,
 *   the default, so sibling hosts the page loads later work too) or, when the user asks for exact
 *   hosts, the host itself. Hosts of the same entry are grouped under it.
 * - The page's own host is left out: a page whose own name failed is not broken but blocked, and
 *   the popup's Whitelist button is the answer to that.
 * - A host that is itself a public suffix (`cloudfront.net`, `co.uk`: it has no registrable
 *   domain) is left out and named apart, whatever the scope: an entry for it would allow the
 *   sites of every owner under it, and the page chooses which hosts fail.
 * - A host the whitelist covers already, or whose entry is allowed for a while already, needs
 *   nothing (it failed before the resolvers caught up).
 * - A host the user's blocklist covers is blocked on purpose: its entry is named apart and allowed
 *   only when the user confirms it for that entry. Its allow ends by putting it back on the
 *   blocklist when the blocklist has the entry itself (lib/diagnosis/temporary-allow.ts).
 */
import { canonicalHost, type DomainIndex } from '@/lib/filtering/domain-index';
import { MAX_UNBREAK_DOMAINS, type RequestOf } from '@/lib/messaging/protocol';

export type UnbreakScope = 'domain' | 'host';

export interface UnbreakCandidate {
  /** The whitelist entry to allow for a while. */
  domain: string;
  /** The failed hosts it covers, in the order they failed. */
  hosts: string[];
  /** Where the entry itself is now: 'blocklist' only when the blocklist has this very entry. */
  before: 'none' | 'blocklist';
}

export interface BlocklistedCandidate extends UnbreakCandidate {
  /** The blocklist entry that blocks one of its hosts (the entry itself or a parent). */
  blockedBy: string;
}

export interface UnbreakChoice {
  /** Allowed by one click. */
  allow: UnbreakCandidate[];
  /** On the blocklist on purpose: allowed only after the user confirms each. */
  onBlocklist: BlocklistedCandidate[];
  /** Whitelisted or allowed for a while already: nothing to do. */
  alreadyAllowed: string[];
  /** More entries than one unbreak takes: these were left out. */
  leftOut: string[];
  /** Failed hosts that are themselves public suffixes: never offered. */
  publicSuffixes: string[];
}

/** The lists as the popup knows them (lib/popup/verdict-inputs.ts `indexes`). */
export type ListLookup = Record<'whitelist' | 'blocklist', DomainIndex>;

export interface UnbreakChoiceInput {
  /** The failed hosts of the page, in the order they failed. */
  failedHosts: readonly string[];
  pageHost: string;
  scope: UnbreakScope;
  /** Registrable domain of a host; null for a host that is itself a public suffix. */
  registrable(host: string): string | null;
  lists: ListLookup;
  /** True when `domain` is allowed for a while already in this account and profile. */
  allowedForAWhile(domain: string): boolean;
  /** At most this many entries (the rest are `leftOut`). */
  max?: number;
}

export function chooseUnbreakDomains(input: UnbreakChoiceInput): UnbreakChoice {
  const { lists, scope, registrable } = input;
  const max = input.max ?? MAX_UNBREAK_DOMAINS;
  const page = canonicalHost(input.pageHost);
  const groups = new Map<string, { hosts: string[]; blockedBy?: string }>();
  const alreadyAllowed = new Set<string>();
  const publicSuffixes = new Set<string>();

  for (const failed of input.failedHosts) {
    const host = canonicalHost(failed);
    if (host === '' || host === page) continue;
    const registered = registrable(host);
    if (registered === null) {
      publicSuffixes.add(host);
      continue;
    }
    const domain = canonicalHost(scope === 'domain' ? registered : host);
    if (lists.whitelist.covering(host) !== undefined || input.allowedForAWhile(domain)) {
      alreadyAllowed.add(domain);
      continue;
    }
    const group = groups.get(domain) ?? { hosts: [] };
    if (!group.hosts.includes(host)) group.hosts.push(host);
    const blockedBy = lists.blocklist.covering(host) ?? lists.blocklist.covering(domain);
    if (blockedBy !== undefined && group.blockedBy === undefined) group.blockedBy = blockedBy;
    groups.set(domain, group);
  }

  const choice: UnbreakChoice = {
    allow: [],
    onBlocklist: [],
    alreadyAllowed: [...alreadyAllowed].filter((domain) => !groups.has(domain)),
    leftOut: [],
    publicSuffixes: [...publicSuffixes],
  };
  for (const [index, [domain, group]] of [...groups].entries()) {
    if (index >= max) {
      choice.leftOut.push(domain);
      continue;
    }
    const candidate: UnbreakCandidate = {
      domain,
      hosts: group.hosts,
      before: lists.blocklist.has(domain) ? 'blocklist' : 'none',
    };
    if (group.blockedBy === undefined) choice.allow.push(candidate);
    else choice.onBlocklist.push({ ...candidate, blockedBy: group.blockedBy });
  }
  return choice;
}

/** One entry of the request the popup sends (lib/messaging/protocol.ts 'unbreak'). */
export type UnbreakRequestEntry = RequestOf<'unbreak'>['domains'][number];

/** What one click sends: every plain entry and the blocklisted ones the user confirmed. */
export function entriesToAllow(choice: UnbreakChoice, confirmed: ReadonlySet<string>): UnbreakRequestEntry[] {
  return [...choice.allow, ...choice.onBlocklist.filter((candidate) => confirmed.has(candidate.domain))].map(
    ({ domain, before }) => ({ domain, before }),
  );
}
