/**
 * The desired state of everything the schedules own, as a pure function of the time: the rules,
 * the one-off overrides, the instant, the time zone and the lead (docs/schedules.md). Nothing here
 * remembers what a thing was before, so a missed alarm or a closed browser loses nothing: the next
 * evaluation says what must hold.
 *
 * With a lead, the state wanted at `now` is the one that must hold at `now + lead`: a change
 * reaches the resolvers only that long after it is sent (docs/service-api.md).
 */

import { minutesOf, type ThingValue, thingKey } from './model';
import type { OwnedThing, ScheduleOverride, ScheduleRule } from './schema';
import { createZone, weekdayOf, type Zone } from './zone';

const MINUTE_MS = 60_000;
/** Every window edge of a week lies within this many days of any instant (a window ≤ one day). */
const DAYS_AHEAD = 8;

export interface ScheduleClock {
  now: number;
  timeZone: string;
  leadMinutes: number;
}

export interface DesiredThing {
  key: string;
  profile: string | undefined;
  thing: OwnedThing;
  value: ThingValue;
  /** The rule that decides it. */
  rule: ScheduleRule;
  /** Inside that rule's window (the value is its inside state). */
  inside: boolean;
}

export interface RuleStatus {
  rule: ScheduleRule;
  /** Its windows' state holds at `now + lead` (what is being sent). */
  inside: boolean;
  /** Its things are left alone now (paused, or a manual change kept). */
  released: boolean;
  /** Until when they are left alone, or null. */
  releasedUntil: number | null;
  /** When the held state next changes (an edge, wall time of the window), or null within a week. */
  nextEdgeAt: number | null;
  /** When the change for that edge is sent: the edge minus the lead. */
  nextSendAt: number | null;
}

export interface ScheduleEvaluation {
  /** By `thingKey`: what every owned thing of an enforced rule must be now. */
  things: Map<string, DesiredThing>;
  rules: RuleStatus[];
  /** The next instant at which anything desired changes (a send, or a release ending), or null. */
  nextWakeAt: number | null;
}

/**
 * Calls `visit` with the instants each window of the rule starting on `firstDay` … `lastDay`
 * starts and ends, until it answers true; whether it did.
 */
function someWindow(
  rule: ScheduleRule,
  [firstDay, lastDay]: [number, number],
  zone: Zone,
  visit: (start: number, end: number) => boolean | undefined,
): boolean {
  for (let startDay = firstDay; startDay <= lastDay; startDay++) {
    if (!rule.days.includes(weekdayOf(startDay) as never)) continue;
    for (const window of rule.windows) {
      const start = minutesOf(window.start);
      const end = minutesOf(window.end);
      const endDay = end <= start ? startDay + 1 : startDay;
      if (visit(zone.instantOf(startDay, start, 'earliest'), zone.instantOf(endDay, end, 'latest')))
        return true;
    }
  }
  return false;
}

/** The rule's inside/outside state at `instant`: the latest override that covers it, else its windows. */
function holdsAt(
  rule: ScheduleRule,
  instant: number,
  zone: Zone,
  overrides: readonly ScheduleOverride[],
): boolean {
  let decided: ScheduleOverride | undefined;
  for (const override of overrides) {
    if (override.kind === 'release' || override.from > instant || instant >= override.until) continue;
    if (!decided || override.from >= decided.from) decided = override;
  }
  if (decided) return decided.kind === 'inside';
  const { day } = zone.localAt(instant);
  return someWindow(rule, [day - 1, day], zone, (start, end) => start <= instant && instant < end);
}

/** Every instant after `after` (within a week) at which the rule's state may change. */
function candidateEdges(
  rule: ScheduleRule,
  after: number,
  zone: Zone,
  overrides: readonly ScheduleOverride[],
): number[] {
  const { day } = zone.localAt(after);
  const edges: number[] = [];
  someWindow(rule, [day - 1, day + DAYS_AHEAD], zone, (start, end) => void edges.push(start, end));
  for (const override of overrides) {
    if (override.kind === 'release') continue;
    edges.push(override.from, override.until);
  }
  return [...new Set(edges.filter((edge) => edge > after))].sort((a, b) => a - b);
}

/** The first edge after `after` where the rule's state differs from its state at `after`. */
function nextChangeAfter(
  rule: ScheduleRule,
  after: number,
  zone: Zone,
  overrides: readonly ScheduleOverride[],
): number | null {
  const current = holdsAt(rule, after, zone, overrides);
  for (const edge of candidateEdges(rule, after, zone, overrides)) {
    if (holdsAt(rule, edge, zone, overrides) !== current) return edge;
  }
  return null;
}

/**
 * What every thing a rule owns must be at `clock.now`, and when that next changes. A rule released
 * now (paused, a manual change kept) owns nothing until its release ends. Two rules owning one
 * thing at once are refused at save (./conflicts.ts); should stored rules still disagree (an older
 * import), the first rule inside its window decides, else the first rule.
 */
export function evaluateSchedules(
  rules: readonly ScheduleRule[],
  overrides: readonly ScheduleOverride[],
  clock: ScheduleClock,
  zone: Zone = createZone(clock.timeZone),
): ScheduleEvaluation {
  const lead = Math.max(0, clock.leadMinutes) * MINUTE_MS;
  const held = clock.now + lead;
  const things = new Map<string, DesiredThing>();
  const statuses: RuleStatus[] = [];
  let nextWakeAt: number | null = null;
  const wakeAt = (instant: number | null) => {
    if (instant !== null && (nextWakeAt === null || instant < nextWakeAt)) nextWakeAt = instant;
  };
  for (const rule of rules) {
    const own = overrides.filter((override) => override.rule === rule.id && override.until > override.from);
    const release = own.find(
      (override) => override.kind === 'release' && override.from <= clock.now && clock.now < override.until,
    );
    const inside = holdsAt(rule, held, zone, own);
    const nextEdgeAt = nextChangeAfter(rule, held, zone, own);
    const nextSendAt = nextEdgeAt === null ? null : nextEdgeAt - lead;
    statuses.push({
      rule,
      inside,
      released: release !== undefined,
      releasedUntil: release?.until ?? null,
      nextEdgeAt,
      nextSendAt,
    });
    wakeAt(nextSendAt);
    for (const override of own) {
      if (override.kind === 'release' && override.from > clock.now) wakeAt(override.from);
    }
    if (release) {
      wakeAt(release.until);
      continue;
    }
    for (const thing of rule.owns) {
      const key = thingKey(rule.profile, thing);
      const earlier = things.get(key);
      if (earlier && (earlier.inside || !inside)) continue;
      things.set(key, {
        key,
        profile: rule.profile,
        thing,
        value: inside ? thing.inside : thing.outside,
        rule,
        inside,
      });
    }
  }
  return { things, rules: statuses, nextWakeAt };
}
