/**
 * Two rules owning one thing at the same time are refused at save, naming both
 * (docs/schedules.md, "Conflicts"): the user decides, rather than a precedence nobody sees.
 * Checked on the week in wall time, where the user drew the windows.
 */

import { minutesOf, thingKey } from './model';
import type { ScheduleRule, ScheduleWindow, Weekday } from './schema';

const DAY_MINUTES = 24 * 60;
const WEEK_MINUTES = 7 * DAY_MINUTES;

/** One window on the given days as minutes of the week (Monday 00:00 = 0), wrapped at the week's end. */
function windowIntervals(days: readonly Weekday[], window: ScheduleWindow): Array<[number, number]> {
  const intervals: Array<[number, number]> = [];
  const start = minutesOf(window.start);
  const end = minutesOf(window.end);
  for (const day of days) {
    const from = (day - 1) * DAY_MINUTES + start;
    const to = from + (end <= start ? DAY_MINUTES - start + end : end - start);
    if (to <= WEEK_MINUTES) intervals.push([from, to]);
    else intervals.push([from, WEEK_MINUTES], [0, to - WEEK_MINUTES]);
  }
  return intervals;
}

/** The rule's windows as minutes of the week. */
const weeklyIntervals = (rule: ScheduleRule) =>
  rule.windows.flatMap((window) => windowIntervals(rule.days, window));

const intersect = (a: Array<[number, number]>, b: Array<[number, number]>) =>
  a.some(([from, to]) => b.some(([otherFrom, otherTo]) => from < otherTo && otherFrom < to));

/**
 * The first two windows of one rule that overlap on its days (indices), or null. The editor
 * refuses them: the evaluation would treat them as one (docs/schedules.md, "The desired state"),
 * but two windows drawn over each other are more likely a slip than a wish.
 */
export function firstOverlappingWindows(
  days: readonly Weekday[],
  windows: readonly ScheduleWindow[],
): [number, number] | null {
  const intervals = windows.map((window) => windowIntervals(days, window));
  for (let first = 0; first < intervals.length; first++)
    for (let second = first + 1; second < intervals.length; second++)
      if (intersect(intervals[first]!, intervals[second]!)) return [first, second];
  return null;
}

interface ScheduleConflict {
  /** The stored rule the rule being saved collides with. */
  other: ScheduleRule;
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
      if (intersect(weeklyIntervals(rule), weeklyIntervals(other))) return { other, why: 'same-time' };
      if (shared.outside !== thing.outside) return { other, why: 'different-outside' };
    }
  }
  return null;
}
