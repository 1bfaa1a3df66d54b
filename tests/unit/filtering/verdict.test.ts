import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  canonicalHost,
  createDomainIndex,
  packDomains,
  packedDomainIndex,
  unpackDomains,
  withChanges,
} from '@/lib/filtering/domain-index';
import { needsStatistics, type Verdict, type VerdictKnowledge, verdictFor } from '@/lib/filtering/verdict';

interface Setup {
  whitelist?: string[];
  blocklist?: string[];
  tlds?: string[];
  defaultBlock?: boolean;
  blockedToday?: Record<string, number>;
}

function knowledge(setup: Setup): VerdictKnowledge {
  return {
    whitelist: createDomainIndex(setup.whitelist ?? []),
    blocklist: createDomainIndex(setup.blocklist ?? []),
    blockedTlds: setup.tlds ?? [],
    defaultBlock: setup.defaultBlock ?? false,
    blockedToday: setup.blockedToday ? new Map(Object.entries(setup.blockedToday)) : undefined,
  };
}

const cases: Array<[string, string, Setup, Verdict]> = [
  // 1. whitelist, itself and parents
  ['whitelisted itself', 'example.com', { whitelist: ['example.com'] }, allowed('example.com')],
  [
    'whitelisted parent covers www',
    'www.example.com',
    { whitelist: ['example.com'] },
    allowed('example.com'),
  ],
  ['whitelisted grandparent', 'a.b.example.com', { whitelist: ['example.com'] }, allowed('example.com')],
  [
    'most specific whitelist entry is named',
    'a.b.example.com',
    { whitelist: ['example.com', 'b.example.com'] },
    allowed('b.example.com'),
  ],
  ['child entry does not cover its parent', 'example.com', { whitelist: ['www.example.com'] }, none(false)],
  [
    'label boundary: notexample.com is not under example.com',
    'notexample.com',
    { whitelist: ['example.com'] },
    none(false),
  ],
  // 2. blocklist
  ['blocklisted itself', 'tracker.net', { blocklist: ['tracker.net'] }, blocked('tracker.net')],
  [
    'blocklisted parent covers subdomain',
    'cdn.tracker.net',
    { blocklist: ['tracker.net'] },
    blocked('tracker.net'),
  ],
  // precedence: whitelist wins over everything
  [
    'whitelist wins over blocklist of the same domain',
    'x.com',
    { whitelist: ['x.com'], blocklist: ['x.com'] },
    allowed('x.com'),
  ],
  [
    'whitelisted parent wins over blocklisted subdomain',
    'ads.x.com',
    { whitelist: ['x.com'], blocklist: ['ads.x.com'] },
    allowed('x.com'),
  ],
  [
    'whitelist wins over a TLD block',
    'site.xyz',
    { whitelist: ['site.xyz'], tlds: ['.xyz'] },
    allowed('site.xyz'),
  ],
  [
    'whitelist wins over default-block',
    'ok.org',
    { whitelist: ['ok.org'], defaultBlock: true },
    allowed('ok.org'),
  ],
  [
    'whitelist wins over statistics',
    'ok.org',
    { whitelist: ['ok.org'], blockedToday: { 'ok.org': 4 } },
    allowed('ok.org'),
  ],
  // 3. TLD and default-block from this browser
  ['TLD block', 'shop.xyz', { tlds: ['.xyz'] }, { kind: 'blocked', reason: 'tld', tld: '.xyz' }],
  [
    'TLD block covers deep subdomains',
    'a.b.shop.xyz',
    { tlds: ['.zip', '.xyz'] },
    { kind: 'blocked', reason: 'tld', tld: '.xyz' },
  ],
  ['TLD block needs a label boundary', 'shop.notxyz', { tlds: ['.xyz'] }, none(false)],
  [
    'IDN TLD block matches punycode host',
    'xn--e1afmkfd.xn--p1ai',
    { tlds: ['.рф'] },
    { kind: 'blocked', reason: 'tld', tld: '.рф' },
  ],
  [
    'blocklist wins over TLD block',
    'shop.xyz',
    { blocklist: ['shop.xyz'], tlds: ['.xyz'] },
    blocked('shop.xyz'),
  ],
  ['default-block', 'anything.org', { defaultBlock: true }, { kind: 'blocked', reason: 'default-block' }],
  [
    'TLD block is named before default-block',
    'a.xyz',
    { tlds: ['.xyz'], defaultBlock: true },
    { kind: 'blocked', reason: 'tld', tld: '.xyz' },
  ],
  [
    'default-block wins over statistics',
    'a.org',
    { defaultBlock: true, blockedToday: { 'a.org': 2 } },
    { kind: 'blocked', reason: 'default-block' },
  ],
  // 4. statistics
  [
    'blocked by the resolver today',
    'casino.example',
    { blockedToday: { 'casino.example': 17 } },
    { kind: 'blocked', reason: 'stats', count: 17 },
  ],
  [
    'statistics of another host do not count',
    'www.casino.example',
    { blockedToday: { 'casino.example': 17 } },
    none(true),
  ],
  ['zero blocks is not blocked', 'a.org', { blockedToday: { 'a.org': 0 } }, none(true)],
  // 5. nothing known
  ['not blocked, statistics unknown', 'news.example', {}, none(false)],
  ['not blocked, statistics checked', 'news.example', { blockedToday: {} }, none(true)],
  // spelling of hosts and entries
  ['trailing dot on the host', 'www.example.com.', { whitelist: ['example.com'] }, allowed('example.com')],
  ['trailing dot on the entry', 'www.example.com', { blocklist: ['example.com.'] }, blocked('example.com')],
  ['upper case host', 'WWW.Example.COM', { blocklist: ['example.com'] }, blocked('example.com')],
  ['upper case entry', 'www.example.com', { blocklist: ['Example.COM'] }, blocked('example.com')],
  [
    'IDN host against punycode entry',
    'www.bücher.de',
    { whitelist: ['xn--bcher-kva.de'] },
    allowed('xn--bcher-kva.de'),
  ],
  [
    'punycode host against IDN entry',
    'xn--bcher-kva.de',
    { blocklist: ['bücher.de'] },
    blocked('xn--bcher-kva.de'),
  ],
  // Public Suffix List: entries cover by labels, not by registrable domain
  [
    'entry on a multi-label public suffix covers everything under it',
    'news.bbc.co.uk',
    { blocklist: ['co.uk'] },
    blocked('co.uk'),
  ],
  [
    'subdomain entry under a public suffix does not cover the registrable domain',
    'bbc.co.uk',
    { blocklist: ['news.bbc.co.uk'] },
    none(false),
  ],
  [
    'private suffix: one site is not its neighbour',
    'bob.github.io',
    { whitelist: ['alice.github.io'] },
    none(false),
  ],
  [
    'private suffix entry covers every site under it',
    'bob.github.io',
    { whitelist: ['github.io'] },
    allowed('github.io'),
  ],
];

describe('verdictFor', () => {
  it.each(cases)('%s', (_name, host, setup, expected) => {
    expect(verdictFor(host, knowledge(setup))).toEqual(expected);
  });
});

describe('needsStatistics', () => {
  it.each([
    [allowed('a.com'), false],
    [blocked('a.com'), false],
    [{ kind: 'blocked', reason: 'tld', tld: '.xyz' } as Verdict, false],
    [{ kind: 'blocked', reason: 'default-block' } as Verdict, false],
    [{ kind: 'blocked', reason: 'stats', count: 3 } as Verdict, true],
    [none(false), true],
  ])('%j -> %s', (verdict, expected) => {
    expect(needsStatistics(verdict)).toBe(expected);
  });
});

describe('canonicalHost', () => {
  it.each([
    ['example.com', 'example.com'],
    ['Example.COM.', 'example.com'],
    ['  example.com  ', 'example.com'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['example.com..', 'example.com'],
    ['exa mple.com', ''],
  ])('%s -> %s', (input, expected) => {
    expect(canonicalHost(input)).toBe(expected);
  });
});

describe('domain index on a large list', () => {
  afterEach(() => vi.restoreAllMocks());

  it('finds entries among 100,000 with a binary search per label of the host, not a scan', () => {
    const packed = packDomains(Array.from({ length: 100_000 }, (_, i) => `site${i}.example${i % 50}.com`));
    const index = packedDomainIndex(packed);
    // Each probe of the search reads one line of the packed list.
    const lineReads = vi.spyOn(String.prototype, 'slice');
    expect(index.covering('deep.path.site99999.example49.com')).toBe('site99999.example49.com');
    expect(index.covering('a.b.c.d.nowhere.org')).toBeUndefined();
    // 9 candidate names in all (3 + 6 labels), each at most ceil(log2(100,001)) = 17 probes,
    // plus one slice per parent name taken off the host.
    expect(lineReads.mock.calls.length).toBeLessThanOrEqual(9 * 17 + 9);
    expect(lineReads.mock.calls.length).toBeGreaterThan(0);
  });

  it('packs lists canonical, sorted and without duplicates, and back', () => {
    const packed = packDomains(['b.com', 'A.com', 'a.com.', 'bücher.de', 'bad name']);
    expect(packed).toBe('a.com\nb.com\nxn--bcher-kva.de');
    expect(unpackDomains(packed)).toEqual(['a.com', 'b.com', 'xn--bcher-kva.de']);
    expect(unpackDomains('')).toEqual([]);
  });

  it.each([
    ['the empty list', '', 'a.com', false],
    ['the first line', 'a.com\nb.com\nc.com', 'a.com', true],
    ['the last line', 'a.com\nb.com\nc.com', 'c.com', true],
    ['a prefix of a line is not a line', 'a.com\nab.com', 'a.co', false],
    ['a line is not matched inside another', 'xa.com\nz.com', 'a.com', false],
    ['any string is safe to search, even unsorted', 'z.com\n\n\na.com\n', 'm.com', false],
  ])('searches %s', (_name, packed, name, expected) => {
    expect(packedDomainIndex(packed).has(name)).toBe(expected);
  });
});

describe('withChanges (changes not yet in the fetched list)', () => {
  const base = createDomainIndex(['example.com', 'old.org']);

  it.each([
    ['a pending add covers the host', { added: ['new.net'], removed: [] }, 'www.new.net', 'new.net'],
    [
      'a pending removal uncovers the host',
      { added: [], removed: ['example.com'] },
      'www.example.com',
      undefined,
    ],
    ['removing one entry leaves others', { added: [], removed: ['example.com'] }, 'old.org', 'old.org'],
    [
      'a pending add of a subdomain is more specific',
      { added: ['www.example.com'], removed: [] },
      'www.example.com',
      'www.example.com',
    ],
    ['no changes: the base answers', { added: [], removed: [] }, 'a.example.com', 'example.com'],
  ])('%s', (_name, changes, host, expected) => {
    expect(withChanges(base, changes).covering(host)).toBe(expected);
  });

  it('reports membership after the changes', () => {
    const changed = withChanges(base, { added: ['new.net'], removed: ['old.org'] });
    expect([changed.has('new.net'), changed.has('old.org'), changed.has('example.com')]).toEqual([
      true,
      false,
      true,
    ]);
  });
});

function allowed(entry: string): Verdict {
  return { kind: 'allowed', reason: 'whitelist', entry };
}
function blocked(entry: string): Verdict {
  return { kind: 'blocked', reason: 'blocklist', entry };
}
function none(statsChecked: boolean): Verdict {
  return { kind: 'not-blocked', reason: 'none', statsChecked };
}
