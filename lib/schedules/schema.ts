/**
 * The schedules' zod schemas, checked on every write of the stored items and on every import
 * (lib/backup), loaded only then (docs/architecture.md, "Storage"), and the types they give: a
 * type import loads nothing.
 */
import * as z from 'zod/mini';
import { isValidDomain } from '@/lib/validation';

/** Bounds that keep one account's schedules small and an evaluation fast (docs/schedules.md). */
export const SCHEDULE_LIMITS = {
  rulesPerAccount: 100,
  windowsPerRule: 6,
  thingsPerRule: 50,
  overridesPerAccount: 200,
  nameLength: 60,
  leadMinutesMax: 240,
} as const;

/** ISO weekdays: 1 Monday … 7 Sunday. */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Local wall time, `HH:MM` 24-hour. */
export const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The stable account id of lib/accounts (accountsItem). */
const stableAccountId = z.string().check(z.regex(/^[A-Za-z0-9-]{8,64}$/));
const time = z.string().check(z.regex(TIME_PATTERN));
const domain = z.string().check(z.refine((value) => isValidDomain(value), { message: 'not a domain name' }));

/** A window in local wall time; an end at or before the start ends the next day. */
const scheduleWindowSchema = z.object({ start: time, end: time });
export type ScheduleWindow = z.infer<typeof scheduleWindowSchema>;

/**
 * One thing a rule owns, with its state inside the windows and outside them. The outside state is
 * taken from the account when the rule is made, and the user may edit it: the desired state is a
 * function of the time alone, never "what it was before" (docs/schedules.md).
 */
const ownedThingSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('category'),
    category: z.string().check(z.minLength(1), z.maxLength(80)),
    inside: z.boolean(),
    outside: z.boolean(),
  }),
  z.object({ kind: z.literal('default-block'), inside: z.boolean(), outside: z.boolean() }),
  z.object({
    kind: z.literal('domain'),
    domain,
    inside: z.enum(['whitelist', 'blocklist']),
    outside: z.enum(['whitelist', 'blocklist', 'none']),
  }),
]);
export type OwnedThing = z.infer<typeof ownedThingSchema>;

export const scheduleRuleSchema = z.object({
  id: z.string().check(z.regex(/^[A-Za-z0-9-]{1,64}$/)),
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(SCHEDULE_LIMITS.nameLength)),
  /** Form A profile; absent in Form B (the whole account). */
  profile: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
  /** The days a window starts on. */
  days: z.array(z.literal(WEEKDAYS)).check(z.minLength(1), z.maxLength(7)),
  windows: z
    .array(
      scheduleWindowSchema.check(
        z.refine((window) => window.start !== window.end, { message: 'empty window' }),
      ),
    )
    .check(z.minLength(1), z.maxLength(SCHEDULE_LIMITS.windowsPerRule)),
  owns: z.array(ownedThingSchema).check(z.minLength(1), z.maxLength(SCHEDULE_LIMITS.thingsPerRule)),
});
export type ScheduleRule = z.infer<typeof scheduleRuleSchema>;

/**
 * A one-off change of a rule's course between two instants (docs/schedules.md, "Overrides"):
 * `inside` holds the window's state ("+30 minutes"), `outside` the state outside ("skip tonight"),
 * `release` leaves the rule's things alone ("pause until", "keep until the next edge").
 */
const scheduleOverrideSchema = z.object({
  rule: z.string().check(z.minLength(1)),
  kind: z.enum(['inside', 'outside', 'release']),
  from: z.number(),
  until: z.number(),
});
export type ScheduleOverride = z.infer<typeof scheduleOverrideSchema>;

/** What the last reconciliation found and did (docs/schedules.md, "Reconciliation"). */
const lastCheckSchema = z.object({
  at: z.number(),
  /** in-step: nothing to change; sent: changes sent or queued; waiting: some wait (service, key); failed: refused. */
  outcome: z.enum(['in-step', 'sent', 'waiting', 'failed']),
  changes: z.int().check(z.gte(0)),
  message: z.optional(z.string().check(z.maxLength(500))),
});
export type LastCheck = z.infer<typeof lastCheckSchema>;

/** What the account was seen (or set) to, for the things lists do not show: per profile scope. */
const seenSettingsSchema = z.object({
  fetchedAt: z.number(),
  /** Category id → blocked. */
  categories: z.record(z.string(), z.boolean()),
  /** Set from this browser by a schedule (the service cannot be asked). */
  defaultBlock: z.optional(z.boolean()),
  /** When a schedule last queued a list change here: lists fetched before it are read again. */
  listsSentAt: z.optional(z.number()),
});
export type SeenSettings = z.infer<typeof seenSettingsSchema>;

/** What the user made: written by the pages and an import (and by the worker, a kept menu change). */
export const accountSchedulesSchema = z.object({
  leadMinutes: z.int().check(z.gte(0), z.lte(SCHEDULE_LIMITS.leadMinutesMax)),
  rules: z.array(scheduleRuleSchema).check(z.maxLength(SCHEDULE_LIMITS.rulesPerAccount)),
  overrides: z.array(scheduleOverrideSchema).check(z.maxLength(SCHEDULE_LIMITS.overridesPerAccount)),
});
export type AccountSchedules = z.infer<typeof accountSchedulesSchema>;

/** What the worker found: written by the worker only, beside the rules, never inside them. */
const scheduleChecksSchema = z.object({
  /** By profile scope (the profile, or '' in Form B). */
  seen: z.record(z.string(), seenSettingsSchema),
  lastCheck: z.optional(lastCheckSchema),
  /**
   * Not before this instant is a run that could not read the account tried again (the outbox's
   * backoff); the changes it queued are the outbox's to retry (docs/schedules.md, "Sending").
   */
  retryAt: z.optional(z.number()),
  failedAttempts: z.optional(z.int().check(z.gte(0))),
});
export type ScheduleChecks = z.infer<typeof scheduleChecksSchema>;

/** `scheduleChecksItem` (./store.ts): by stable account id. */
export const scheduleChecksItemSchema = z.record(stableAccountId, scheduleChecksSchema);

/** `schedulesItem` (./store.ts): by stable account id. */
export const schedulesItemSchema = z.record(stableAccountId, accountSchedulesSchema);
