import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  domainsOnBothLists,
  filterDomains,
  sortDomains,
  withDomain,
  withoutDomain,
} from '@/lib/lists/sorted-domains';

const domainArb = fc.stringMatching(/^[a-z0-9]{1,6}\.(com|org|de)$/);

describe('sorted domain lists', () => {
  it('adding or removing one domain gives the same list as sorting from scratch', () => {
    fc.assert(
      fc.property(fc.array(domainArb, { maxLength: 40 }), domainArb, (domains, extra) => {
        const sorted = sortDomains(domains);
        expect(withDomain(sorted, extra)).toEqual(sortDomains([...domains, extra]));
        expect(withoutDomain(sorted, extra)).toEqual(sortDomains(domains.filter((d) => d !== extra)));
      }),
    );
  });

  it('returns the same array when nothing changes, so nothing re-renders', () => {
    const sorted = sortDomains(['a.com', 'b.com']);
    expect(withDomain(sorted, 'a.com')).toBe(sorted);
    expect(withoutDomain(sorted, 'c.com')).toBe(sorted);
  });
});

describe('filterDomains', () => {
  const list = sortDomains(['example.com', 'news.example.org', 'shop.test.net']);
  it.each([
    ['', list],
    ['  ', list],
    ['EXAMPLE', ['example.com', 'news.example.org']],
    ['https://shop.test.net/cart', ['shop.test.net']],
    ['example.com.', ['example.com']],
    ['nothing', []],
  ])('%j', (query, expected) => {
    expect(filterDomains(list, query)).toEqual(expected);
  });

  it('filters 10,000 entries without a quadratic slip', () => {
    const big = sortDomains(Array.from({ length: 10_000 }, (_, i) => `site${i}.example.com`));
    const started = performance.now();
    for (let i = 0; i < 20; i++) expect(filterDomains(big, `site${i + 1}9`).length).toBeGreaterThan(0);
    // A bound a quadratic filter could never meet, loose enough for a busy shared machine; the
    // bench times the real filter box (docs/performance.md, "Goals").
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('domainsOnBothLists', () => {
  it.each([
    [['a.com', 'b.com'], ['b.com', 'c.com'], ['b.com']],
    [[], ['a.com'], []],
    [
      ['z.com', 'a.com'],
      ['a.com', 'z.com', 'q.com'],
      ['a.com', 'z.com'],
    ],
  ])('%j and %j', (white, black, expected) => {
    expect(domainsOnBothLists(white, black)).toEqual(expected);
  });
});
