import { cleanup, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { DayStatsView } from '@/components/logs/DayStatsView';
import { describeCategory } from '@/lib/api/categories';
import type { DaySummary } from '@/lib/logs/stats';

afterEach(cleanup);

const summary = (blocksByCategory: DaySummary['blocksByCategory']): DaySummary => ({
  allowedByHour: new Array(24).fill(0),
  blockedByHour: new Array(24).fill(0),
  totals: { allowed: 0, blocked: 1400 },
  unplaced: { allowed: 0, blocked: 0 },
  blocksByCategory,
  requestTypes: [],
  clientIps: [],
  allowedDomains: [],
  blockedDomains: [],
});

/** People read category names; the service's ids (`category_advertising_tracking`) stay inside. */
describe('category names in the logs', () => {
  it('the blocks-per-category table names each category, with its description, and no id', () => {
    render(
      <DayStatsView
        date="2024-05-01"
        form="A"
        summary={summary([
          { key: 'category_advertising_tracking', count: 1400 },
          { key: 'malware', count: 3 },
          { key: 'category_new_from_provider', count: 2 },
        ])}
      />,
    );
    const table = screen.getByRole('table', { name: 'Blocks by category' });
    const text = table.textContent ?? '';
    expect(text).toContain('Advertising and tracking');
    // Another form's id has the same meaning; an id nobody lists is read as words.
    expect(text).toContain('Malware');
    expect(text).toContain('New from provider');
    expect(text).not.toMatch(/category_|_/);
    // Counts in the page's language (English here): 1,400.
    expect(within(table).getByText('1,400')).toBeTruthy();
  });

  it('describeCategory never answers with an id as the name', () => {
    expect(describeCategory('A', 'category_proxy_vpn').label).toBe('Proxy and VPN');
    expect(describeCategory('B', 'category_proxy_vpn').label).toBe('Proxy and VPN');
    expect(describeCategory('A', 'category_brand_new').label).toBe('Brand new');
  });
});
