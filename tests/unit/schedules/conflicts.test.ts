/** Two rules owning one thing at the same time are refused at save, naming both (docs/schedules.md). */
import { describe, expect, it } from 'vitest';
import { findConflict, firstOverlappingWindows } from '@/lib/schedules/conflicts';
import { rule } from './fixtures';

const homework = rule();

describe('findConflict', () => {
  it('refuses a rule owning the same category at an overlapping time, naming the other', () => {
    const clash = rule({ id: 'clash', name: 'Evening', windows: [{ start: '19:30', end: '21:00' }] });
    const conflict = findConflict(clash, [homework]);
    expect(conflict?.other.name).toBe('Homework time');
    expect(conflict?.why).toBe('same-time');
  });

  it('allows the same category at times that do not overlap, or in another profile', () => {
    expect(
      findConflict(rule({ id: 'later', windows: [{ start: '20:00', end: '21:00' }] }), [homework]),
    ).toBeNull();
    expect(
      findConflict(rule({ id: 'kids', profile: 'kids', windows: [{ start: '19:00', end: '21:00' }] }), [
        homework,
      ]),
    ).toBeNull();
  });

  it('sees an overlap across midnight and across the week (Sunday night into Monday)', () => {
    const sundayNight = rule({ id: 'sun', days: [7], windows: [{ start: '23:00', end: '01:00' }] });
    const mondayEarly = rule({ id: 'mon', days: [1], windows: [{ start: '00:30', end: '02:00' }] });
    expect(findConflict(mondayEarly, [sundayNight])?.other.id).toBe('sun');
  });

  it('ignores the rule itself when it is saved again', () => {
    expect(findConflict(homework, [homework])).toBeNull();
  });

  it('refuses two rules that disagree on the state outside their windows', () => {
    const other = rule({
      id: 'other',
      windows: [{ start: '08:00', end: '09:00' }],
      owns: [{ kind: 'category', category: 'category_gaming', inside: false, outside: true }],
    });
    expect(findConflict(other, [homework])?.why).toBe('different-outside');
  });
});

describe('firstOverlappingWindows', () => {
  const lateNight = { start: '22:00', end: '02:00' };
  const early = { start: '01:00', end: '03:00' };

  it('finds a window running past midnight into one of the next day', () => {
    expect(firstOverlappingWindows([1, 2], [{ start: '18:00', end: '20:00' }, lateNight, early])).toEqual([
      1, 2,
    ]);
    // Sunday night runs into Monday morning: the week wraps.
    expect(firstOverlappingWindows([7, 1], [lateNight, early])).toEqual([0, 1]);
  });

  it("finds none when the next day is not one of the rule's days, or the windows only touch", () => {
    expect(firstOverlappingWindows([1], [lateNight, early])).toBeNull();
    expect(
      firstOverlappingWindows(
        [1, 2, 3],
        [
          { start: '18:00', end: '20:00' },
          { start: '20:00', end: '21:00' },
        ],
      ),
    ).toBeNull();
  });
});
