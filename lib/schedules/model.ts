/**
 * The small helpers every part of the schedules shares (docs/schedules.md, "The rule"), without
 * zod: the types and the schema that checks a write or an import are ./schema.ts.
 */
import type { OwnedThing } from './schema';

export type DomainPlace = Extract<OwnedThing, { kind: 'domain' }>['outside'];

/** The value a thing is in: blocked / on for categories and default block, the list for a domain. */
export type ThingValue = OwnedThing['inside'] | DomainPlace;

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
