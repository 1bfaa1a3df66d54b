/**
 * Where the schedules are stored: one item, by stable account id (lib/accounts), so an account's
 * rules stay its own whichever account is active, and the worker reconciles every account from
 * one read; the worker's findings in their own item. Removed with its account (lib/accounts/forget.ts), exported and imported with the
 * backup (lib/backup). docs/schedules.md, "Storage".
 */
import { defineItem } from '@/lib/settings/item';
import * as shapes from '@/lib/settings/shapes';
import type { AccountSchedules, ScheduleChecks } from './schema';

/** The service applies a change 30 to 45 minutes after it is made (docs/service-api.md). */
const DEFAULT_LEAD_MINUTES = 45;

export const emptyAccountSchedules = (): AccountSchedules => ({
  leadMinutes: DEFAULT_LEAD_MINUTES,
  rules: [],
  overrides: [],
});

export const schedulesItem = defineItem<Record<string, AccountSchedules>>(
  'local:schedules',
  async () => (await import('./schema')).schedulesItemSchema,
  { shape: shapes.schedules, fallback: {}, version: 1 },
);

/**
 * The worker's findings per account (the view seen, the last check, a retry's wait), apart from
 * the rules: a check every few minutes writes a few hundred bytes, never the rules again.
 */
export const scheduleChecksItem = defineItem<Record<string, ScheduleChecks>>(
  'local:scheduleChecks',
  async () => (await import('./schema')).scheduleChecksItemSchema,
  { shape: shapes.scheduleChecks, fallback: {}, version: 1 },
);
