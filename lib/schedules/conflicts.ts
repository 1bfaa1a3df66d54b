/**
 * Two rules owning one thing at the same time are refused at save, naming both
 * (docs/schedules.md, "Conflicts"): the user decides, rather than a precedence nobody sees.
 * Checked on the week in wall time, where the user drew the windows.
 */

import { minutesOf, type ScheduleRule, thingKey } from './model';

const DAY_MINUTES = 24 * 60;
const WEEK_MINUTES = 7 * DAY_MINUTES;

/** The rule's windows as minutes of the week (Monday 00:00 = 0), wrapped at the week's end. */
function weeklyIntervals(rule: ScheduleRule): Array<[number, number]> {
  const intervals: Array<[number, number]> = [];
  for (const day of rule.days) {
    for (const window of rule.windows) {
      const start = minutesOf(window.start);
      const end = minutesOf(window.end);
      const from = (day - 1) * DAY_MINUTES + start;
      const to = from + (end <= start ? DAY_MINUTES - start + end : end - start);
      if (to <= WEEK_MINUTES) intervals.push([from, to]);
      else intervals.push([from, WEEK_MINUTES], [0, to - WEEK_MINUTES]);
    }
  }
  return intervals;
}

function overlap(a: ScheduleRule, b: ScheduleRule): boolean {
  const others = weeklyIntervals(b);
  return weeklyIntervals(a).some(([from, to]) =>
    others.some(([otherFrom, otherTo]) => from < otherTo && otherFrom < to),
  );
}

export interface ScheduleConflict {
  /** The rule being saved. */
  rule: ScheduleRule;
  /** The stored rule it collides with. */
  other: ScheduleRule;
  /** What both own: the first shared thing of the rule being saved. */
  thing: ScheduleRule['owns'][number];
  why: 'same-time' | 'different-outside';
}

/**
 * The first conflict of `rule` with the other rules of its account (itself, by id, left out):
 * a thing of the same profile owned by both at overlapping times, or with different states
 * outside their windows (what would hold between them would depend on which ended last).
 */
export function findConflict(rule: ScheduleRule, others: readonly ScheduleRule[]): ScheduleConflict | null {
  for (const other of others) {
    if (other.id === rule.id || (other.profile ?? '') !== (rule.profile ?? '')) continue;
    const theirs = new Map(other.owns.map((thing) => [thingKey(other.profile, thing), thing]));
    for (const thing of rule.owns) {
      const shared = theirs.get(thingKey(rule.profile, thing));
      if (!shared) continue;
      if (overlap(rule, other)) return { rule, other, thing, why: 'same-time' };
      if (shared.outside !== thing.outside) return { rule, other, thing, why: 'different-outside' };
    }
  }
  return null;
}
