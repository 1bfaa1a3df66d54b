/**
 * "Unbreak this page", the choice of what one click allows (lib/diagnosis/unbreak-choice.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  chooseUnbreakDomains,
  entriesToAllow,
  type UnbreakChoiceInput,
} from '@/lib/diagnosis/unbreak-choice';
import { registrableDomain } from '@/lib/filtering/domain';
import { createDomainIndex } from '@/lib/filtering/domain-index';
import { registrableDomainsOf } from '@/lib/popup/registrable';

function input(patch: Partial<UnbreakChoiceInput> & { whitelist?: string[]; blocklist?: string[] } = {}) {
  const { whitelist = [], blocklist = [], ...rest } = patch;
  return {
    failedHosts: [],
    pageHost: 'www.news.example',
    scope: 'domain' as const,
    registrable: registrableDomain,
    lists: { whitelist: createDomainIndex(whitelist), blocklist: createDomainIndex(blocklist) },
    allowedForAWhile: () => false,
    ...rest,
  } satisfies UnbreakChoiceInput;
}

/** The registrable domain of each host as the popup works it out (without the worker: the same list). */
async function popupLookup(hosts: string[]) {
  const domains = await registrableDomainsOf(hosts, async () => null);
  const byHost = new Map(hosts.map((host, index) => [host, domains[index]]));
  return (host: string) => {
    const found = byHost.get(host);
    return found === undefined ? host : found;
  };
}

describe('the choice of domains to allow', () => {
  it('allows the registrable domain of each failed host, hosts of one domain grouped under it', () => {
    const choice = chooseUnbreakDomains(
      input({
        failedHosts: ['img.cdn.example', 'JS.cdn.example', 'login.provider.co.uk', 'img.cdn.example'],
      }),
    );
    expect(choice.allow).toEqual([
      { domain: 'cdn.example', hosts: ['img.cdn.example', 'js.cdn.example'], before: 'none' },
      { domain: 'provider.co.uk', hosts: ['login.provider.co.uk'], before: 'none' },
    ]);
    expect([choice.onBlocklist, choice.alreadyAllowed, choice.leftOut]).toEqual([[], [], []]);
  });

  it('asked for exact hosts, allows each failed host itself', () => {
    const choice = chooseUnbreakDomains(
      input({ scope: 'host', failedHosts: ['img.cdn.example', 'js.cdn.example'] }),
    );
    expect(choice.allow.map((candidate) => candidate.domain)).toEqual(['img.cdn.example', 'js.cdn.example']);
  });

  it('leaves out the page itself: a page whose own name failed is blocked, not broken', () => {
    const choice = chooseUnbreakDomains(
      input({ pageHost: 'WWW.news.example', failedHosts: ['www.news.example', 'static.news.example'] }),
    );
    expect(choice.allow).toEqual([
      { domain: 'news.example', hosts: ['static.news.example'], before: 'none' },
    ]);
  });

  it('needs nothing for hosts the whitelist covers or whose domain is allowed for a while', () => {
    const choice = chooseUnbreakDomains(
      input({
        failedHosts: ['img.cdn.example', 'video.example', 'api.login.example'],
        whitelist: ['cdn.example'],
        allowedForAWhile: (domain) => domain === 'video.example',
      }),
    );
    expect(choice.allow.map((candidate) => candidate.domain)).toEqual(['login.example']);
    expect(choice.alreadyAllowed).toEqual(['cdn.example', 'video.example']);
  });

  it('names the hosts on the blocklist apart, with the entry that blocks them', () => {
    const choice = chooseUnbreakDomains(
      input({
        failedHosts: ['ads.tracker.example', 'tracker2.example', 'img.cdn.example'],
        blocklist: ['tracker.example', 'tracker2.example'],
      }),
    );
    expect(choice.allow.map((candidate) => candidate.domain)).toEqual(['cdn.example']);
    expect(choice.onBlocklist).toEqual([
      {
        domain: 'tracker.example',
        hosts: ['ads.tracker.example'],
        before: 'blocklist',
        blockedBy: 'tracker.example',
      },
      {
        domain: 'tracker2.example',
        hosts: ['tracker2.example'],
        before: 'blocklist',
        blockedBy: 'tracker2.example',
      },
    ]);
  });

  it('a blocklist entry below the domain still asks first; the domain itself was on no list', () => {
    const choice = chooseUnbreakDomains(
      input({ failedHosts: ['ads.cdn.example'], blocklist: ['ads.cdn.example'] }),
    );
    expect(choice.allow).toEqual([]);
    // Whitelisting cdn.example for a while lets ads.cdn.example through; ending it takes cdn.example
    // off the whitelist again, and the blocklist entry, never touched, blocks ads.cdn.example again.
    expect(choice.onBlocklist).toEqual([
      { domain: 'cdn.example', hosts: ['ads.cdn.example'], before: 'none', blockedBy: 'ads.cdn.example' },
    ]);
  });

  it('sends the plain ones and only the blocklisted ones the user confirmed', () => {
    const choice = chooseUnbreakDomains(
      input({
        failedHosts: ['a.tracker.example', 'b.blocked.example', 'img.cdn.example'],
        blocklist: ['tracker.example', 'blocked.example'],
      }),
    );
    expect(entriesToAllow(choice, new Set())).toEqual([{ domain: 'cdn.example', before: 'none' }]);
    expect(entriesToAllow(choice, new Set(['blocked.example']))).toEqual([
      { domain: 'cdn.example', before: 'none' },
      { domain: 'blocked.example', before: 'blocklist' },
    ]);
  });

  it('takes at most `max` domains, and says which it left out', () => {
    const choice = chooseUnbreakDomains(
      input({ failedHosts: ['a.example', 'b.example', 'c.example'], max: 2 }),
    );
    expect(choice.allow.map((candidate) => candidate.domain)).toEqual(['a.example', 'b.example']);
    expect(choice.leftOut).toEqual(['c.example']);
  });

  it.each(['domain', 'host'] as const)(
    'offers nothing for a failed host that is itself a public suffix (scope %s): a page cannot make one click allow every site under it',
    async (scope) => {
      const hosts = ['cloudfront.net', 'co.uk', 'blogspot.com', 'd111.cloudfront.net', 'img.cdn.example'];
      const choice = chooseUnbreakDomains(
        input({ failedHosts: hosts, scope, registrable: await popupLookup(hosts) }),
      );
      const offered = [...choice.allow, ...choice.onBlocklist].map((candidate) => candidate.domain);
      expect(offered).toEqual([
        'd111.cloudfront.net',
        scope === 'domain' ? 'cdn.example' : 'img.cdn.example',
      ]);
      expect(entriesToAllow(choice, new Set(offered)).map((entry) => entry.domain)).toEqual(offered);
    },
  );

  it('offers nothing for a public suffix on the blocklist either, even when the user would tick it', async () => {
    const hosts = ['co.uk'];
    const choice = chooseUnbreakDomains(
      input({ failedHosts: hosts, blocklist: ['co.uk'], registrable: await popupLookup(hosts) }),
    );
    expect(entriesToAllow(choice, new Set(['co.uk']))).toEqual([]);
  });
});
