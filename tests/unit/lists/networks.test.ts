import { describe, expect, it } from 'vitest';
import { networkRows } from '@/lib/lists/networks';

describe('networkRows', () => {
  it('marks only the rows with the current address and sorts addresses numerically', () => {
    const rows = networkRows(
      [
        { ip: '203.0.113.50', profile: 'default' },
        { ip: '9.9.9.9', profile: 'kids1' },
        { ip: '203.0.113.50', profile: 'kids1' },
        { ip: '100.1.1.1', label: 'Office' },
      ],
      '203.0.113.50',
    );
    expect(rows.map((row) => `${row.ip}/${row.profile ?? '-'}/${row.isThisBrowser}`)).toEqual([
      '9.9.9.9/kids1/false',
      '100.1.1.1/-/false',
      '203.0.113.50/default/true',
      '203.0.113.50/kids1/true',
    ]);
    expect(new Set(rows.map((row) => row.key)).size).toBe(4);
  });

  it('marks nothing while the current address is unknown', () => {
    expect(networkRows([{ ip: '1.2.3.4' }], null)[0]?.isThisBrowser).toBe(false);
  });
});
