import { describe, expect, it } from 'vitest';
import { useMessageLookup } from '@/lib/i18n';
import { formatInstant, formatWallTime, formatWindow } from '@/lib/schedules/options';
import { catalogueLookup } from '../i18n/catalogue';

/** ICU separates "PM" with a narrow no-break space in some versions, a plain one in others. */
const spaced = (text: string) => text.replace(/\s/g, ' ');

function inGerman<T>(read: () => T): T {
  const restore = useMessageLookup(catalogueLookup('de'));
  try {
    return read();
  } finally {
    restore();
  }
}

describe('formatInstant', () => {
  // Monday 2026-11-30, 20:00 UTC; "now" is the Saturday before.
  const at = Date.UTC(2026, 10, 30, 20, 0);
  const now = Date.UTC(2026, 10, 28, 9, 0);

  const weekday = (locale: string) =>
    new Intl.DateTimeFormat(locale, { timeZone: 'UTC', weekday: 'short' }).format(at);

  it('names a later day in the catalogue’s language, not the browser’s', () => {
    expect(weekday('de')).not.toBe(weekday('en'));
    expect(spaced(formatInstant(at, now, 'UTC'))).toBe('Mon 8:00 PM');
    expect(inGerman(() => formatInstant(at, now, 'UTC'))).toBe(`${weekday('de')}\u00a020:00`);
  });

  it('gives the time alone on the same day, on the clock of the catalogue’s language', () => {
    const evening = Date.UTC(2026, 10, 28, 20, 0);
    expect(spaced(formatInstant(evening, now, 'UTC'))).toBe('8:00 PM');
    expect(spaced(formatInstant(Date.UTC(2026, 10, 28, 11, 29), now, 'UTC'))).toBe('11:29 AM');
    expect(inGerman(() => formatInstant(evening, now, 'UTC'))).toBe('20:00');
  });

  it('keeps a time and its day on one line: no space in it breaks', () => {
    expect(formatInstant(at, now, 'UTC')).toBe('Mon\u00a08:00\u00a0PM');
    expect(formatInstant(Date.UTC(2026, 10, 28, 20, 0), now, 'UTC')).toBe('8:00\u00a0PM');
    expect(formatWindow({ start: '15:00', end: '18:00' })).toBe('3:00\u00a0PM–6:00\u00a0PM');
  });

  it('writes the time in the zone it is given', () => {
    expect(spaced(formatInstant(Date.UTC(2026, 10, 28, 20, 0), now, 'Europe/Berlin'))).toBe('9:00 PM');
  });
});

describe('formatWallTime and formatWindow', () => {
  it('write a rule’s window on the same clock as the times around it', () => {
    expect(spaced(formatWindow({ start: '15:00', end: '18:00' }))).toBe('3:00 PM–6:00 PM');
    expect(inGerman(() => formatWindow({ start: '15:00', end: '18:00' }))).toBe('15:00–18:00');
  });

  it('writes the end of the day as midnight', () => {
    expect(spaced(formatWallTime(24 * 60))).toBe('12:00 AM');
    expect(inGerman(() => formatWallTime(24 * 60))).toBe('00:00');
  });
});
