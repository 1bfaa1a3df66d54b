import { describe, expect, it } from 'vitest';
import { formatDateTime, formatDateTimeLines, formatDay, useMessageLookup } from '@/lib/i18n';
import { catalogueLookup } from './catalogue';

describe('formatDay', () => {
  // First in this file: the language's formatter is made once, in the zone of its first use.
  it('names the same day west of UTC, where the day’s midnight in UTC is still the evening before', () => {
    const zone = process.env.TZ;
    process.env.TZ = 'America/Los_Angeles';
    try {
      expect(new Date(Date.UTC(2026, 10, 29)).getDate()).toBe(28);
      expect(formatDay('2026-11-29')).toBe('Sun, Nov 29, 2026');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('writes a log day in the catalogue’s language, and leaves a non-date as it is', () => {
    expect(formatDay('2026-11-29')).toBe('Sun, Nov 29, 2026');
    expect(formatDay('2026-01-01')).toBe('Thu, Jan 1, 2026');
    const restore = useMessageLookup(catalogueLookup('de'));
    try {
      expect(formatDay('2026-11-29')).toBe('So., 29. Nov. 2026');
    } finally {
      restore();
    }
    expect(formatDay('not a day')).toBe('not a day');
  });
});

describe('formatDateTime', () => {
  // A moment of the machine's own day: pages show moments in the reader's time zone.
  const at = new Date(2026, 10, 28, 3, 14).getTime();
  const expected = (locale: string) =>
    new Date(at).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });

  it('writes a moment as a medium date and a short time in the catalogue’s language, also when it changes between calls', () => {
    expect(formatDateTime(at)).toBe(expected('en'));
    expect(formatDateTime(at)).toMatch(/Nov 28, 2026/);
    const restore = useMessageLookup(catalogueLookup('de'));
    try {
      expect(formatDateTime(at)).toBe(expected('de'));
      expect(formatDateTime(at)).toMatch(/28\.11\.2026/);
    } finally {
      restore();
    }
    expect(formatDateTime(at)).toBe(expected('en'));
  });

  it('with seconds, tells apart two moments within the same minute, in the catalogue’s language', () => {
    const later = at + 5_000;
    expect(formatDateTime(at)).toBe(formatDateTime(later));
    expect(formatDateTime(at, 'seconds')).not.toBe(formatDateTime(later, 'seconds'));
    expect(formatDateTime(later, 'seconds')).toBe(
      new Date(later).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'medium' }),
    );
    const restore = useMessageLookup(catalogueLookup('de'));
    try {
      expect(formatDateTime(later, 'seconds')).toBe(
        new Date(later).toLocaleString('de', { dateStyle: 'medium', timeStyle: 'medium' }),
      );
      expect(formatDateTime(later, 'seconds')).toMatch(/28\.11\.2026/);
    } finally {
      restore();
    }
  });

  it('cuts a moment between its date and its time only, reading as the whole when joined', () => {
    const later = at + 5_000;
    const lines = formatDateTimeLines(later, 'seconds');
    // The date keeps the separator's comma; the time is whole, with its day period.
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^Nov 28, 2026,$/);
    expect(lines[1]).toMatch(/^\d{1,2}:14:05\s(AM|PM)$/);
    expect(lines.join(' ')).toBe(formatDateTime(later, 'seconds'));
    const restore = useMessageLookup(catalogueLookup('de'));
    try {
      const german = formatDateTimeLines(later, 'seconds');
      expect(german).toHaveLength(2);
      expect(german[0]).toBe('28.11.2026,');
      expect(german[1]).toMatch(/^\d{2}:14:05$/);
      expect(german.join(' ')).toBe(formatDateTime(later, 'seconds'));
    } finally {
      restore();
    }
  });
});
