/**
 * Where the schedules are stored: one item, by stable account id (lib/accounts), so an account's
 * rules stay its own whichever account is active, and the worker reconciles every account from
 * one read; the worker's findings in their own item. Removed with its account (lib/accounts/forget.ts), exported and imported with the
 * backup (lib/backup). docs/schedules.md, "Storage".
 */
import { defineItem } from '@/lib/settings/item';
import * as shapes from '@/lib/settings/shapes';
import type { ScheduleOverride, ScheduleRule } from './model';

export interface SeenSettings {
  fetchedAt: number;
  categories: Record<string, boolean>;
  defaultBlock?: boolean;
  /** When a schedule last queued a list change here: lists fetched before it are read again. */
  listsSentAt?: number;
}

export interface LastCheck {
  at: number;
  outcome: 'in-step' | 'sent' | 'waiting' | 'failed';
  changes: number;
  message?: string;
}

/** What the user made: written by the pages and an import (and by the worker, a kept menu change). */
export interface AccountSchedules {
  leadMinutes: number;
  rules: ScheduleRule[];
  overrides: ScheduleOverride[];
}

/** What the worker found: written by the worker only, beside the rules, never inside them. */
export interface ScheduleChecks {
  /** By profile scope (the profile, or '' in Form B). */
  seen: Record<string, SeenSettings>;
  lastCheck?: LastCheck;
  /**
   * Not before this instant is a run that could not read the account tried again (the outbox's
   * backoff); the changes it queued are the outbox's to retry (docs/schedules.md, "Sending").
   */
  retryAt?: number;
  failedAttempts?: number;
}

/** The service applies a change 30 to 45 minutes after it is made (docs/service-api.md). */
export const DEFAULT_LEAD_MINUTES = 45;

export const emptyAccountSchedules = (): AccountSchedules => ({
  leadMinutes: DEFAULT_LEAD_MINUTES,
  rules: [],
  overrides: [],
});

export const schedulesItem = defineItem<Record<string, AccountSchedules>>(
  'local:schedules',
  async () => (await import('./schema')).schedulesItemSchema as never,
  { shape: shapes.schedules, fallback: {}, version: 1 },
);

/**
 * The worker's findings per account (the view seen, the last check, a retry's wait), apart from
 * the rules: a check every few minutes writes a few hundred bytes, never the rules again.
 */
export const scheduleChecksItem = defineItem<Record<string, ScheduleChecks>>(
  'local:scheduleChecks',
  async () => (await import('./schema')).scheduleChecksItemSchema as never,
  { shape: shapes.scheduleChecks, fallback: {}, version: 1 },
);
