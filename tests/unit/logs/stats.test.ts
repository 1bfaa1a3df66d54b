import { describe, expect, it } from 'vitest';
import type { DayStats } from '@/lib/api/types';
import { filterRanked, hourlyChartLabel, hourOfKey, summariseDay } from '@/lib/logs/stats';

const day: DayStats = {
  action: {
    '2024-05-01 00:00': { Allowed: 10, Blocked: 2 },
    '2024-05-01 13:00': { Allowed: 5, Blocked: 7 },
  },
  domains: {
    '2024-05-01 00:00': {
      Allowed: { 'www.example.com.': 6, 'Example.org.': 4 },
      Blocked: { 'ads.example.net.': 2 },
    },
    '2024-05-01 13:00': {
      Allowed: { 'www.example.com': 5 },
      Blocked: { 'ads.example.net.': 3, 'tracker.example.': 4 },
    },
  },
  blocks: {
    '2024-05-01 00:00': { category_advertising_tracking: 2 },
    '2024-05-01 13:00': { category_advertising_tracking: 3, category_brand_new: 4 },
  },
  reqtypes: { '2024-05-01 00:00': { A: 8, AAAA: 4 }, '2024-05-01 13:00': { A: 6, https: 6 } },
  ips: { '2024-05-01 00:00': { '192.0.2.1': 12 }, '2024-05-01 13:00': { '192.0.2.1': 2, '192.0.2.9': 10 } },
};

describe('summariseDay', () => {
  const summary = summariseDay(day);

  it('places allowed and blocked queries in their hour', () => {
    expect(summary.allowedByHour[0]).toBe(10);
    expect(summary.blockedByHour[0]).toBe(2);
    expect(summary.allowedByHour[13]).toBe(5);
    expect(summary.blockedByHour[13]).toBe(7);
    expect(summary.allowedByHour.reduce((a, b) => a + b)).toBe(15);
    expect(summary.totals).toEqual({ allowed: 15, blocked: 9 });
  });

  it('adds up domains written with and without the trailing dot, in any case', () => {
    expect(summary.allowedDomains).toEqual([
      { key: 'www.example.com', count: 11 },
      { key: 'example.org', count: 4 },
    ]);
    expect(summary.blockedDomains).toEqual([
      { key: 'ads.example.net', count: 5 },
      { key: 'tracker.example', count: 4 },
    ]);
  });

  it('keeps unknown categories by their identifier', () => {
    expect(summary.blocksByCategory).toEqual([
      { key: 'category_advertising_tracking', count: 5 },
      { key: 'category_brand_new', count: 4 },
    ]);
  });

  it('ranks request types and client IPs, largest first', () => {
    expect(summary.requestTypes).toEqual([
      { key: 'A', count: 14 },
      { key: 'HTTPS', count: 6 },
      { key: 'AAAA', count: 4 },
    ]);
    expect(summary.clientIps).toEqual([
      { key: '192.0.2.1', count: 14 },
      { key: '192.0.2.9', count: 10 },
    ]);
  });

  it('draws an hour missing from `action` from its domain counts', () => {
    const partial = summariseDay({
      domains: { '2024-05-01 07:00': { Allowed: { 'a.example.': 3 }, Blocked: { 'b.example.': 1 } } },
    });
    expect(partial.allowedByHour[7]).toBe(3);
    expect(partial.blockedByHour[7]).toBe(1);
  });

  it('counts queries of an unreadable hour key in the totals without placing them', () => {
    const odd = summariseDay({
      action: { 'late evening': { Allowed: 4, Blocked: 1 }, '2024-05-01 25:00': { Allowed: 1 } },
    });
    expect(odd.totals).toEqual({ allowed: 5, blocked: 1 });
    expect(odd.unplaced).toEqual({ allowed: 5, blocked: 1 });
    expect(odd.allowedByHour.every((n) => n === 0)).toBe(true);
  });

  it('ignores counts that are not non-negative numbers and survives empty or missing maps', () => {
    const messy = summariseDay({
      action: { '2024-05-01 01:00': { Allowed: -3, Blocked: Number.NaN } },
      ips: {
        '2024-05-01 01:00': {
          '192.0.2.1': 'seven' as unknown as number,
          '192.0.2.2': '2' as unknown as number,
        },
      },
      domains: { '2024-05-01 01:00': null as unknown as { Allowed: Record<string, number> } },
    });
    expect(messy.totals).toEqual({ allowed: 0, blocked: 0 });
    expect(messy.clientIps).toEqual([{ key: '192.0.2.2', count: 2 }]);
    expect(summariseDay({}).blockedDomains).toEqual([]);
  });

  it('summarises 24 hours x 5,000 distinct domains quickly', () => {
    const big: DayStats = { action: {}, domains: {}, blocks: {}, reqtypes: {}, ips: {} };
    for (let hour = 0; hour < 24; hour++) {
      const key = `2024-05-01 ${String(hour).padStart(2, '0')}:00`;
      const allowed: Record<string, number> = {};
      const blocked: Record<string, number> = {};
      for (let i = 0; i < 5000; i++)
        (i % 8 === 0 ? blocked : allowed)[`host${hour}-${i}.example.`] = 1 + (i % 7);
      big.domains[key] = { Allowed: allowed, Blocked: blocked };
      big.action[key] = { Allowed: 4375, Blocked: 625 };
    }
    const started = performance.now();
    const result = summariseDay(big);
    const elapsed = performance.now() - started;
    expect(result.allowedDomains.length + result.blockedDomains.length).toBe(120_000);
    expect(result.allowedDomains[0]?.count).toBe(7);
    // Typically ~60 ms; the bound only catches a quadratic slip (seconds to minutes), since a
    // busy 2-core machine can slow any run several-fold. The e2e test times the real page.
    expect(elapsed).toBeLessThan(3000);
  });
});

describe('hourOfKey', () => {
  it.each([
    ['2024-05-01 14:00', 14],
    ['2024-05-01 04:30', 4],
    ['2024-05-01T09:00:00', 9],
    ['14:00', 14],
    ['7', 7],
    ['2024-05-01 24:00', -1],
    ['2024-05-01', -1],
    ['', -1],
  ])('%j is hour %i', (key, hour) => {
    expect(hourOfKey(key)).toBe(hour);
  });
});

describe('filterRanked', () => {
  const entries = [
    { key: 'ads.example.net', count: 9 },
    { key: 'www.example.com', count: 5 },
    { key: 'cdn.example.net', count: 2 },
  ];
  it.each([
    ['', 2, ['ads.example.net', 'www.example.com'], 3],
    ['NET', 5, ['ads.example.net', 'cdn.example.net'], 2],
    ['.net', 1, ['ads.example.net'], 2],
    ['nothing', 5, [], 0],
  ])('filter %j, limit %i', (filter, limit, keys, matching) => {
    const result = filterRanked(entries, filter, limit);
    expect(result.shown.map((e) => e.key)).toEqual(keys);
    expect(result.matching).toBe(matching);
  });
});

describe('hourlyChartLabel', () => {
  it('starts with "Queries per hour" and states the totals and the busiest hour (the earlier on a tie)', () => {
    const label = hourlyChartLabel('2024-05-01', summariseDay(day));
    expect(label).toBe(
      'Queries per hour on Wed, May 1, 2024: 15 allowed, 9 blocked in total. Busiest hour 00:00 with 12 queries.',
    );
    const later = summariseDay({
      ...day,
      action: { ...day.action, '2024-05-01 13:00': { Allowed: 1500, Blocked: 7 } },
    });
    expect(hourlyChartLabel('2024-05-01', later)).toBe(
      'Queries per hour on Wed, May 1, 2024: 1,510 allowed, 9 blocked in total. Busiest hour 13:00 with 1,507 queries.',
    );
  });
  it('omits the busiest hour on a day without queries', () => {
    expect(hourlyChartLabel('2024-05-02', summariseDay({}))).toBe(
      'Queries per hour on Thu, May 2, 2024: 0 allowed, 0 blocked in total.',
    );
  });
});
