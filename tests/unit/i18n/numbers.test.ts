import { describe, expect, it } from 'vitest';
import { formatNumber, useMessageLookup } from '@/lib/i18n';
import { catalogueLookup } from './catalogue';

describe('formatNumber', () => {
  it('writes counts the way the catalogue’s language does, also when the language changes between calls', () => {
    expect(formatNumber(1234567)).toBe('1,234,567');
    const restore = useMessageLookup(catalogueLookup('de'));
    try {
      expect(formatNumber(1234567)).toBe('1.234.567');
      expect(formatNumber(2.5)).toBe('2,5');
    } finally {
      restore();
    }
    expect(formatNumber(2.5)).toBe('2.5');
  });
});
