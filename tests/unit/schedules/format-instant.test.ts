import { describe, expect, it } from 'vitest';
import { useMessageLookup } from '@/lib/i18n';
import { formatInstant } from '@/lib/schedules/options';
import { catalogueLookup } from '../i18n/catalogue';

describe('formatInstant', () => {
  // Monday 2026-11-30, 20:00 UTC; "now" is the Saturday before.
  const at = Date.UTC(2026, 10, 30, 20, 0);
  const now = Date.UTC(2026, 10, 28, 9, 0);

  const weekday = (locale: string) =>
    new Intl.DateTimeFormat(locale, { timeZone: 'UTC', weekday: 'short' }).format(at);

  it('names a later day in the catalogue’s language, not the browser’s', () => {
    expect(weekday('de')).not.toBe(weekday('en'));
    expect(formatInstant(at, now, 'UTC')).toBe('Mon 20:00');
    const restore = useMessageLookup(catalogueLookup('de'));
    try {
      expect(formatInstant(at, now, 'UTC')).toBe(`${weekday('de')} 20:00`);
    } finally {
      restore();
    }
  });

  it('gives the time alone on the same day, on a 24-hour clock as the rules are written', () => {
    expect(formatInstant(Date.UTC(2026, 10, 28, 20, 0), now, 'UTC')).toBe('20:00');
  });
});
