/**
 * The schedule rule: what a rule owns, when its windows hold, and what holds outside them
 * (docs/schedules.md, "The rule"). Types only and the small helpers every part shares; the zod
 * schema that checks a write or an import is ./schema.ts.
 */

/** ISO weekday: 1 Monday … 7 Sunday. */
export type Weekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;
export const WEEKDAYS: readonly Weekday[] = [1, 2, 3, 4, 5, 6, 7];

/** A window in local wall time, `HH:MM` 24-hour; an end at or before the start ends the next day. */
export interface ScheduleWindow {
  start: string;
  end: string;
}

export type DomainPlace = 'whitelist' | 'blocklist' | 'none';

/**
 * One thing a rule owns, with its state inside the windows and outside them. The outside state is
 * taken from the account when the rule is made, and the user may edit it: the desired state is a
 * function of the time alone, never "what it was before" (docs/schedules.md).
 */
export type OwnedThing =
  | { kind: 'category'; category: string; inside: boolean; outside: boolean }
  | { kind: 'default-block'; inside: boolean; outside: boolean }
  | { kind: 'domain'; domain: string; inside: Exclude<DomainPlace, 'none'>; outside: DomainPlace };

export interface ScheduleRule {
  id: string;
  name: string;
  /** Form A profile; absent in Form B (the whole account). */
  profile?: string;
  /** The days a window starts on. */
  days: Weekday[];
  windows: ScheduleWindow[];
  owns: OwnedThing[];
}

/**
 * A one-off change of a rule's course between two instants (docs/schedules.md, "Overrides"):
 * `inside` holds the window's state ("+30 minutes"), `outside` the state outside ("skip tonight"),
 * `release` leaves the rule's things alone ("pause until", "keep until the next edge").
 */
export interface ScheduleOverride {
  rule: string;
  kind: 'inside' | 'outside' | 'release';
  from: number;
  until: number;
}

/** The value a thing is in: blocked / on for categories and default block, the list for a domain. */
export type ThingValue = boolean | DomainPlace;

/** One key per thing per profile: two rules with the same key own the same thing. */
export function thingKey(profile: string | undefined, thing: OwnedThing): string {
  const scope = profile ?? '';
  switch (thing.kind) {
    case 'category':
      return `${scope}\u0000category\u0000${thing.category}`;
    case 'default-block':
      return `${scope}\u0000default-block`;
    case 'domain':
      return `${scope}\u0000domain\u0000${thing.domain}`;
  }
}

/** Minutes after midnight of `HH:MM`. */
export function minutesOf(time: string): number {
  const [hours, minutes] = time.split(':').map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
}

export const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
