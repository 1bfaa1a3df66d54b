/**
 * Property tests over a year in two zones with daylight saving (docs/schedules.md): the state
 * follows the wall clock, and it changes only at the instants the evaluation names (window edges
 * minus the lead), across midnight, overlapping windows and the days the clock jumps.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateSchedules } from '@/lib/schedules/desired';
import type { ScheduleRule, Weekday } from '@/lib/schedules/schema';

const ZONES = ['Europe/Berlin', 'America/New_York'] as const;
const YEAR_START = Date.parse('2026-01-01T00:00:00Z');
const YEAR_END = Date.parse('2027-01-01T00:00:00Z');
const DAY_MS = 86_400_000;

const hhmm = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 15, 30, 45, 59))
  .map(([hours, minutes]) => `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`);
const windowArb = fc.record({ start: hhmm, end: hhmm }).filter((window) => window.start !== window.end);
const ruleArb: fc.Arbitrary<ScheduleRule> = fc.record({
  id: fc.constant('r'),
  name: fc.constant('Rule'),
  days: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 }) as fc.Arbitrary<
    Weekday[]
  >,
  windows: fc.array(windowArb, { minLength: 1, maxLength: 3 }),
  owns: fc.constant([
    { kind: 'category' as const, category: 'category_gaming', inside: true, outside: false },
  ]),
});
const instantArb = fc.integer({ min: YEAR_START, max: YEAR_END });
const leadArb = fc.constantFrom(0, 1, 30, 45, 90);

/** The oracle: the wall clock of `instant` in `zone`, read with a formatter of its own. */
function wallClock(instant: number, timeZone: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(parts.weekday ?? '') + 1;
  return { weekday, minute: Number(parts.hour) * 60 + Number(parts.minute) };
}

const offsetOf = (instant: number, timeZone: string) => {
  const { minute } = wallClock(instant, timeZone);
  return (((minute - Math.floor((instant % DAY_MS) / 60_000)) % 1440) + 1440) % 1440;
};
const nearClockChange = (instant: number, timeZone: string) =>
  offsetOf(instant - DAY_MS, timeZone) !== offsetOf(instant + DAY_MS, timeZone);

/** Whether the wall clock shows a time inside one of the rule's windows. */
function insideByWallClock(rule: ScheduleRule, instant: number, timeZone: string): boolean {
  const { weekday, minute } = wallClock(instant, timeZone);
  const yesterday = weekday === 1 ? 7 : weekday - 1;
  return rule.windows.some(({ start, end }) => {
    const [from, to] = [start, end].map((time) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3)));
    if (from === undefined || to === undefined) return false;
    if (from < to) return rule.days.includes(weekday as Weekday) && from <= minute && minute < to;
    return (
      (rule.days.includes(weekday as Weekday) && minute >= from) ||
      (rule.days.includes(yesterday as Weekday) && minute < to)
    );
  });
}

const blockedAt = (rule: ScheduleRule, now: number, timeZone: string, leadMinutes: number) =>
  [...evaluateSchedules([rule], [], { now, timeZone, leadMinutes }).things.values()][0]?.value;

describe('the desired state over a year', () => {
  it.each(ZONES)('follows the wall clock at now + lead (%s, away from clock changes)', (timeZone) => {
    fc.assert(
      fc.property(ruleArb, instantArb, leadArb, (rule, now, lead) => {
        const held = now + lead * 60_000;
        fc.pre(!nearClockChange(held, timeZone));
        expect(blockedAt(rule, now, timeZone, lead)).toBe(insideByWallClock(rule, held, timeZone));
      }),
      { numRuns: 300 },
    );
  });

  it.each(ZONES)('changes only at the instant it names, and does change there (%s)', (timeZone) => {
    fc.assert(
      fc.property(
        ruleArb,
        instantArb,
        leadArb,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 6 }),
        (rule, now, lead, fractions) => {
          const evaluation = evaluateSchedules([rule], [], { now, timeZone, leadMinutes: lead });
          const state = [...evaluation.things.values()][0]?.value;
          const next = evaluation.nextWakeAt;
          // A rule that holds every day all day never changes; otherwise a change comes within the week.
          const end = next ?? now + 8 * DAY_MS;
          for (const fraction of fractions) {
            const between = now + Math.floor((end - now) * fraction * 0.999999);
            expect(blockedAt(rule, between, timeZone, lead)).toBe(state);
          }
          if (next !== null) expect(blockedAt(rule, next, timeZone, lead)).not.toBe(state);
        },
      ),
      { numRuns: 300 },
    );
  });

  it.each(ZONES)('on the days the clock jumps, changes only at the named instants (%s)', (timeZone) => {
    // The four clock changes of 2026 in both zones, and every minute of the day around them.
    const days = ['2026-03-08', '2026-03-29', '2026-10-25', '2026-11-01'].map((iso) =>
      Date.parse(`${iso}T00:00:00Z`),
    );
    fc.assert(
      fc.property(
        ruleArb,
        fc.constantFrom(...days),
        fc.integer({ min: -12 * 60, max: 36 * 60 }),
        leadArb,
        (rule, day, minute, lead) => {
          const now = day + minute * 60_000;
          const evaluation = evaluateSchedules([rule], [], { now, timeZone, leadMinutes: lead });
          const state = [...evaluation.things.values()][0]?.value;
          const next = evaluation.nextWakeAt;
          if (next === null) return;
          // Minute by minute up to the next change (at most a day): nothing changes before it.
          for (let instant = now; instant < Math.min(next, now + DAY_MS); instant += 30 * 60_000)
            expect(blockedAt(rule, instant, timeZone, lead)).toBe(state);
          expect(blockedAt(rule, next, timeZone, lead)).not.toBe(state);
        },
      ),
      { numRuns: 80 },
    );
  });
});
