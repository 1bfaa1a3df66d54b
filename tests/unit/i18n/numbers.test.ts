import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMessagesText } from '@wxt-dev/i18n/build';
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

describe('small whole numbers', () => {
  it('are written as plain digits in the language of every catalogue in locales/ (formatNumber skips the formatter for them)', () => {
    const dir = join(__dirname, '..', '..', '..', 'locales');
    const files = readdirSync(dir).filter((file) => file.endsWith('.yml'));
    expect(files.length).toBeGreaterThan(1);
    for (const file of files) {
      const messages = parseMessagesText(readFileSync(join(dir, file), 'utf8'), 'YAML');
      const locale = messages.find((message) => message.key.join('.') === 'locale');
      expect(locale?.type, file).toBe('simple');
      const format = new Intl.NumberFormat(locale?.type === 'simple' ? locale.message : 'und');
      for (let n = 0; n < 1000; n++) expect(format.format(n), `${n} in ${file}`).toBe(String(n));
      expect(format.format(1000), file).not.toBe(String(1000));
    }
  });

  it('below 1,000 read as digits, from 1,000 on as the language writes them', () => {
    const restore = useMessageLookup(catalogueLookup('de'));
    try {
      expect(formatNumber(0)).toBe('0');
      expect(formatNumber(999)).toBe('999');
      expect(formatNumber(1000)).toBe('1.000');
      expect(formatNumber(-5)).toBe('-5');
      expect(formatNumber(0.5)).toBe('0,5');
    } finally {
      restore();
    }
  });
});
