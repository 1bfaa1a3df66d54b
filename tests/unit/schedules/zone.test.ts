/**
 * Wall time in a zone, on the days the clock jumps (docs/schedules.md, "Daylight saving").
 */
import { describe, expect, it } from 'vitest';
import { createZone, weekdayOf } from '@/lib/schedules/zone';

const dayOf = (isoDate: string) => Date.parse(`${isoDate}T00:00:00Z`) / 86_400_000;
const at = (iso: string) => Date.parse(iso);

describe('createZone', () => {
  it('gives the weekday of a date (2026-03-29 is a Sunday)', () => {
    expect(weekdayOf(dayOf('2026-03-29'))).toBe(7);
    expect(weekdayOf(dayOf('2026-03-30'))).toBe(1);
  });

  it('maps an ordinary local time to its instant and back', () => {
    const berlin = createZone('Europe/Berlin');
    const instant = berlin.instantOf(dayOf('2026-07-01'), 18 * 60, 'earliest');
    expect(instant).toBe(at('2026-07-01T16:00:00Z'));
    expect(berlin.localAt(instant)).toEqual({ day: dayOf('2026-07-01'), minute: 18 * 60 });
  });

  it('puts a time of the skipped spring hour at the jump (Berlin, 2026-03-29 02:30)', () => {
    const berlin = createZone('Europe/Berlin');
    for (const which of ['earliest', 'latest'] as const)
      expect(berlin.instantOf(dayOf('2026-03-29'), 2 * 60 + 30, which)).toBe(at('2026-03-29T01:00:00Z'));
  });

  it('gives the first or the second time of the repeated autumn hour (New York, 2026-11-01 01:30)', () => {
    const newYork = createZone('America/New_York');
    const day = dayOf('2026-11-01');
    expect(newYork.instantOf(day, 90, 'earliest')).toBe(at('2026-11-01T05:30:00Z'));
    expect(newYork.instantOf(day, 90, 'latest')).toBe(at('2026-11-01T06:30:00Z'));
  });
});
