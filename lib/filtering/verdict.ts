/**
 * Whether a host is blocked for one scope (a profile, or the whole account in Form B), and why,
 * from everything the extension can know without extra permissions. Rules, strongest first
 * (docs/service-api.md, "Both lists": the whitelist wins):
 *   1. a whitelist entry covering the host (itself or a parent domain);
 *   2. a blocklist entry covering the host;
 *   3. a TLD block, then default-block, as set from this browser (the API cannot read them back);
 *   4. today's statistics showing the resolver blocked the host;
 *   5. the page itself failed to load with a DNS-type error (page diagnosis): probably blocked by
 *      the filter, since nothing above explains it;
 *   6. otherwise not blocked by the lists (a category may still apply).
 */
import { canonicalHost, type DomainIndex } from './domain-index';

export interface VerdictKnowledge {
  whitelist: DomainIndex;
  blocklist: DomainIndex;
  /** TLDs blocked from this browser for the scope, with their leading dot (`.xyz`). */
  blockedTlds: readonly string[];
  /** Default-block as last set from this browser for the scope. */
  defaultBlock: boolean;
  /** Blocked-query counts from today's statistics by canonical host; absent while unknown. */
  blockedToday?: ReadonlyMap<string, number>;
  /**
   * The page's main frame failed with a DNS-type error (lib/diagnosis/classify.ts); `error` is
   * the browser's code. Absent without page diagnosis.
   */
  mainFrameFailure?: { error: string };
}

export type Verdict =
  | { kind: 'allowed'; reason: 'whitelist'; entry: string }
  | { kind: 'blocked'; reason: 'blocklist'; entry: string }
  | { kind: 'blocked'; reason: 'tld'; tld: string }
  | { kind: 'blocked'; reason: 'default-block' }
  | { kind: 'blocked'; reason: 'stats'; count: number }
  /** Probably blocked: the page failed to load the way a DNS block makes it fail. */
  | { kind: 'blocked'; reason: 'dns-failure'; error: string; statsChecked: boolean }
  /** `statsChecked`: today's statistics were consulted and showed no block. */
  | { kind: 'not-blocked'; reason: 'none'; statsChecked: boolean };

export function verdictFor(host: string, knowledge: VerdictKnowledge): Verdict {
  const canonical = canonicalHost(host);
  const whitelisted = knowledge.whitelist.covering(canonical);
  if (whitelisted !== undefined) return { kind: 'allowed', reason: 'whitelist', entry: whitelisted };
  const blocklisted = knowledge.blocklist.covering(canonical);
  if (blocklisted !== undefined) return { kind: 'blocked', reason: 'blocklist', entry: blocklisted };
  const tld = knowledge.blockedTlds.find((candidate) => coversTld(canonical, candidate));
  if (tld !== undefined) return { kind: 'blocked', reason: 'tld', tld };
  if (knowledge.defaultBlock) return { kind: 'blocked', reason: 'default-block' };
  const count = knowledge.blockedToday?.get(canonical) ?? 0;
  if (count > 0) return { kind: 'blocked', reason: 'stats', count };
  const statsChecked = knowledge.blockedToday !== undefined;
  if (knowledge.mainFrameFailure) {
    return { kind: 'blocked', reason: 'dns-failure', error: knowledge.mainFrameFailure.error, statsChecked };
  }
  return { kind: 'not-blocked', reason: 'none', statsChecked };
}

/** Whether the lists, TLDs and default-block settle the verdict, so today's statistics are not needed. */
export function needsStatistics(verdict: Verdict): boolean {
  return verdict.reason === 'none' || verdict.reason === 'stats' || verdict.reason === 'dns-failure';
}

function coversTld(host: string, tld: string): boolean {
  const bare = canonicalHost(tld.startsWith('.') ? tld.slice(1) : tld);
  return bare !== '' && host.endsWith(`.${bare}`);
}
