// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  PSL_VERSION,
  type RememberedDomains,
  rememberedRegistrable,
  rememberRegistrable,
} from '@/lib/cache/registrable-domains';
import { MAX_REMEMBERED_HOSTS } from '@/lib/settings/storage';

const remembered = (hosts: [string, string][], psl = PSL_VERSION): RememberedDomains => ({ psl, hosts });

describe('rememberedRegistrable', () => {
  it.each<[string, RememberedDomains, string, string | undefined]>([
    ['a remembered host', remembered([['news.bbc.co.uk', 'bbc.co.uk']]), 'news.bbc.co.uk', 'bbc.co.uk'],
    [
      'a host that is its own registrable domain',
      remembered([['bbc.co.uk', 'bbc.co.uk']]),
      'bbc.co.uk',
      'bbc.co.uk',
    ],
    ['a host never seen', remembered([['news.bbc.co.uk', 'bbc.co.uk']]), 'www.bbc.co.uk', undefined],
    [
      'a parent of a remembered host (not the same answer)',
      remembered([['news.bbc.co.uk', 'bbc.co.uk']]),
      'bbc.co.uk',
      undefined,
    ],
    ['nothing remembered yet', remembered([], ''), 'example.com', undefined],
    [
      'answers of another Public Suffix List version',
      remembered([['a.example.com', 'example.com']], 'tldts 0.0.1'),
      'a.example.com',
      undefined,
    ],
    // A stored pair is a trust boundary: it must never make the buttons act on another site.
    [
      'a domain that is not a parent of the host',
      remembered([['www.shop.example', 'bank.example']]),
      'www.shop.example',
      undefined,
    ],
    [
      'a domain that only ends like the host',
      remembered([['myshop.example', 'shop.example']]),
      'myshop.example',
      undefined,
    ],
  ])('%s', (_, map, host, expected) => {
    expect(rememberedRegistrable(map, host)).toBe(expected);
  });
});

describe('rememberRegistrable', () => {
  it('adds the host as the newest entry, tagged with the current list version', () => {
    const next = rememberRegistrable(
      remembered([['a.example.com', 'example.com']]),
      'news.bbc.co.uk',
      'bbc.co.uk',
    );
    expect(next).toEqual({
      psl: PSL_VERSION,
      hosts: [
        ['a.example.com', 'example.com'],
        ['news.bbc.co.uk', 'bbc.co.uk'],
      ],
    });
  });

  it('moves a host seen again to the newest place instead of repeating it', () => {
    const next = rememberRegistrable(
      remembered([
        ['a.example.com', 'example.com'],
        ['b.example.org', 'example.org'],
      ]),
      'a.example.com',
      'example.com',
    );
    expect(next.hosts.map(([host]) => host)).toEqual(['b.example.org', 'a.example.com']);
  });

  it(`keeps the ${MAX_REMEMBERED_HOSTS} most recent hosts`, () => {
    const full = remembered(
      Array.from({ length: MAX_REMEMBERED_HOSTS }, (_, i): [string, string] => [
        `h${i}.example.com`,
        'example.com',
      ]),
    );
    const next = rememberRegistrable(full, 'new.example.net', 'example.net');
    expect(next.hosts).toHaveLength(MAX_REMEMBERED_HOSTS);
    expect(next.hosts[0]![0]).toBe('h1.example.com');
    expect(next.hosts.at(-1)).toEqual(['new.example.net', 'example.net']);
  });

  it('starts afresh when the stored answers came from another list version', () => {
    const next = rememberRegistrable(
      remembered([['a.example.com', 'example.com']], 'tldts 0.0.1'),
      'b.example.org',
      'example.org',
    );
    expect(next).toEqual({ psl: PSL_VERSION, hosts: [['b.example.org', 'example.org']] });
  });
});
