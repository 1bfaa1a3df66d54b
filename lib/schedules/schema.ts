/**
 * The zod schemas of the schedules (./model.ts): checked on every write of the stored item and on
 * every import (lib/backup), loaded only then (docs/architecture.md, "Storage").
 */
import * as z from 'zod/mini';
import { isValidDomain } from '@/lib/validation';
import { TIME_PATTERN } from './model';

/** Bounds that keep one account's schedules small and an evaluation fast (docs/schedules.md). */
export const SCHEDULE_LIMITS = {
  rulesPerAccount: 100,
  windowsPerRule: 6,
  thingsPerRule: 50,
  overridesPerAccount: 200,
  nameLength: 60,
  leadMinutesMax: 240,
} as const;

/** The stable account id of lib/accounts (accountsItem). */
const stableAccountId = z.string().check(z.regex(/^[A-Za-z0-9-]{8,64}$/));
const time = z.string().check(z.regex(TIME_PATTERN));
const domain = z.string().check(z.refine((value) => isValidDomain(value), { message: 'not a domain name' }));

export const scheduleWindowSchema = z.object({ start: time, end: time });

export const ownedThingSchema = z.discriminatedUnion('kind', [
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

export const scheduleRuleSchema = z.object({
  id: z.string().check(z.regex(/^[A-Za-z0-9-]{1,64}$/)),
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(SCHEDULE_LIMITS.nameLength)),
  profile: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
  days: z
    .array(
      z.union([
        z.literal(1),
        z.literal(2),
        z.literal(3),
        z.literal(4),
        z.literal(5),
        z.literal(6),
        z.literal(7),
      ]),
    )
    .check(z.minLength(1), z.maxLength(7)),
  windows: z
    .array(
      scheduleWindowSchema.check(
        z.refine((window) => window.start !== window.end, { message: 'empty window' }),
      ),
    )
    .check(z.minLength(1), z.maxLength(SCHEDULE_LIMITS.windowsPerRule)),
  owns: z.array(ownedThingSchema).check(z.minLength(1), z.maxLength(SCHEDULE_LIMITS.thingsPerRule)),
});

export const scheduleOverrideSchema = z.object({
  rule: z.string().check(z.minLength(1)),
  kind: z.enum(['inside', 'outside', 'release']),
  from: z.number(),
  until: z.number(),
});

/** What the last reconciliation found and did (docs/schedules.md, "Reconciliation"). */
const lastCheckSchema = z.object({
  at: z.number(),
  /** in-step: nothing to change; sent: changes sent or queued; waiting: some wait (service, key); failed: refused. */
  outcome: z.enum(['in-step', 'sent', 'waiting', 'failed']),
  changes: z.int().check(z.gte(0)),
  message: z.optional(z.string().check(z.maxLength(500))),
});

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

export const accountSchedulesSchema = z.object({
  leadMinutes: z.int().check(z.gte(0), z.lte(SCHEDULE_LIMITS.leadMinutesMax)),
  rules: z.array(scheduleRuleSchema).check(z.maxLength(SCHEDULE_LIMITS.rulesPerAccount)),
  overrides: z.array(scheduleOverrideSchema).check(z.maxLength(SCHEDULE_LIMITS.overridesPerAccount)),
});

export const scheduleChecksSchema = z.object({
  seen: z.record(z.string(), seenSettingsSchema),
  lastCheck: z.optional(lastCheckSchema),
  retryAt: z.optional(z.number()),
  failedAttempts: z.optional(z.int().check(z.gte(0))),
});

/** `scheduleChecksItem` (./store.ts): by stable account id. */
export const scheduleChecksItemSchema = z.record(stableAccountId, scheduleChecksSchema);

/** `schedulesItem` (./store.ts): by stable account id. */
export const schedulesItemSchema = z.record(stableAccountId, accountSchedulesSchema);
