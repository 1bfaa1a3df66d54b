/**
 * The Schedules section, the Overview and the popup without Preact (docs/schedules.md): saving
 * under the schedules lock with the conflict check (the editor's draft is ./draft.ts), the
 * week's timeline, what is active now, the next change and when it is sent, and the overrides.
 */
import { readAccounts } from '@/lib/accounts/store';
import { describeCategory } from '@/lib/api/categories';
import type { ApiForm } from '@/lib/api/types';
import {
  formatList,
  formatShortWeekday,
  formatTimeOfDay,
  NO_BREAK_SPACE,
  type PlainKey,
  t,
  tn,
} from '@/lib/i18n';
import { type Followable, followableRead } from '@/lib/settings/follow';
import { accountsItem } from '@/lib/settings/storage';
import { findConflict } from './conflicts';
import { evaluateSchedules, type RuleStatus } from './desired';
import { updateAccountSchedules } from './edit';
import { minutesOf } from './model';
import {
  type AccountSchedules,
  type OwnedThing,
  SCHEDULE_LIMITS,
  type ScheduleChecks,
  type ScheduleRule,
  type ScheduleWindow,
  type Weekday,
} from './schema';
import { emptyAccountSchedules, scheduleChecksItem, schedulesItem } from './store';
import { browserTimeZone } from './zone';

export interface ActiveSchedules {
  /** The active account's stable id ('' before any account exists). */
  accountId: string;
  schedules: AccountSchedules;
  /** What the worker found (the last check). */
  checks: ScheduleChecks | undefined;
}

/** The active account's schedules, followed when they or the active account change. */
export const activeSchedules: Followable<ActiveSchedules> = followableRead(
  [schedulesItem, scheduleChecksItem, accountsItem],
  async () => {
    const [{ activeId }, all, checks] = await Promise.all([
      readAccounts(),
      schedulesItem.getValue(),
      scheduleChecksItem.getValue(),
    ]);
    return {
      accountId: activeId,
      schedules: all[activeId] ?? emptyAccountSchedules(),
      checks: checks[activeId],
    };
  },
);

/** Thrown when the stored rules changed meanwhile so that the rule now conflicts. */
export class ScheduleNotSaved extends Error {}

/**
 * Stores the rule (replacing the one of its id) and the account's lead, checking conflicts again
 * against what is stored now; returns the account's schedules as written.
 */
export async function saveRule(
  accountId: string,
  rule: ScheduleRule,
  lead: number,
): Promise<AccountSchedules> {
  let refused: string | null = null;
  const written = await updateAccountSchedules(accountId, (current) => {
    const schedules = current ?? emptyAccountSchedules();
    const conflict = findConflict(rule, schedules.rules);
    if (conflict) {
      refused = t('schedules.conflict', { rule: rule.name, other: conflict.other.name });
      return null;
    }
    const index = schedules.rules.findIndex((candidate) => candidate.id === rule.id);
    const rules = index === -1 ? [...schedules.rules, rule] : schedules.rules.with(index, rule);
    return { ...schedules, leadMinutes: lead, rules };
  });
  if (written === null) throw new ScheduleNotSaved(refused ?? t('common.genericFailure'));
  return written;
}

export async function deleteRule(accountId: string, ruleId: string): Promise<void> {
  await updateAccountSchedules(accountId, (current) =>
    current
      ? {
          ...current,
          rules: current.rules.filter((rule) => rule.id !== ruleId),
          overrides: current.overrides.filter((override) => override.rule !== ruleId),
        }
      : null,
  );
}

/** "6:00 PM" today, "Tue 6:00 PM" within the week (German "18:00", "Di. 18:00"), in the user's zone. */
export function formatInstant(instant: number, now: number, timeZone: string = browserTimeZone()): string {
  // The catalogue's language and its own clock, as every other time the pages show (lib/i18n
  // `formatDateTime`), not the browser's: a German page in an English browser says "Mo. 20:00".
  const time = formatTimeOfDay(instant, timeZone);
  const dayOf = (at: number) => new Intl.DateTimeFormat('en-CA', { timeZone, dateStyle: 'short' }).format(at);
  if (dayOf(instant) === dayOf(now)) return time;
  return `${formatShortWeekday(instant, timeZone)}${NO_BREAK_SPACE}${time}`;
}

/**
 * A wall time of a rule's window, given in minutes of its day, on the catalogue's clock as
 * `formatInstant` writes it ("6:00 PM", German "18:00"); the end of a day (24:00) is midnight.
 */
export function formatWallTime(minutes: number): string {
  // Any day without a clock change in UTC: only its hours and minutes are shown.
  return formatTimeOfDay(Date.UTC(2000, 0, 1, 0, minutes), 'UTC');
}

/** A rule's window as its summary says it: "6:00 PM–8:00 PM" (German "18:00–20:00"). */
export function formatWindow(window: ScheduleWindow): string {
  return `${formatWallTime(minutesOf(window.start))}–${formatWallTime(minutesOf(window.end))}`;
}

/** The statuses of the account's rules now. */
export function statusesOf(
  schedules: AccountSchedules,
  now: number,
  timeZone: string = browserTimeZone(),
): RuleStatus[] {
  return evaluateSchedules(schedules.rules, schedules.overrides, {
    now,
    timeZone,
    leadMinutes: schedules.leadMinutes,
  }).rules;
}

/** "“Homework time” starts at 18:00, sent at 17:15 so that it holds at 18:00." */
export function nextChangeText(
  status: RuleStatus,
  now: number,
  timeZone: string = browserTimeZone(),
): string | null {
  if (status.nextEdgeAt === null || status.nextSendAt === null) return null;
  const state = t(status.inside ? 'schedules.stateEnds' : 'schedules.stateStarts');
  if (status.nextSendAt <= now) return t('schedules.nextChangeNow', { rule: status.rule.name, state });
  const words = { rule: status.rule.name, state, edge: formatInstant(status.nextEdgeAt, now, timeZone) };
  // Without a lead the change is sent at the edge itself: one time says it.
  if (status.nextSendAt === status.nextEdgeAt) return t('schedules.nextChangeAt', words);
  return t('schedules.nextChange', { ...words, send: formatInstant(status.nextSendAt, now, timeZone) });
}

/** The account's next change of all: the earliest send among its rules. */
export function nextChangeOf(statuses: readonly RuleStatus[]): RuleStatus | null {
  let next: RuleStatus | null = null;
  for (const status of statuses) {
    if (status.nextSendAt === null || status.released) continue;
    if (next === null || status.nextSendAt < (next.nextSendAt ?? Number.POSITIVE_INFINITY)) next = status;
  }
  return next;
}

/** "Schedules run while this browser is open; last checked at …", with the outcome. */
export function lastCheckText(
  checks: ScheduleChecks | undefined,
  now: number,
  timeZone: string = browserTimeZone(),
) {
  const check = checks?.lastCheck;
  if (!check) return { when: t('schedules.runsWhileOpenNever'), outcome: null };
  const when = t('schedules.runsWhileOpen', { time: formatInstant(check.at, now, timeZone) });
  const outcome =
    check.outcome === 'in-step'
      ? t('schedules.outcome.inStep')
      : check.outcome === 'sent'
        ? tn('schedules.outcome.sent', check.changes)
        : t(check.outcome === 'waiting' ? 'schedules.outcome.waiting' : 'schedules.outcome.failed', {
            reason: check.message ?? '',
          });
  return { when, outcome };
}

/** One block of the week's timeline: a window on a day, in minutes of that day. */
export interface TimelineBlock {
  rule: ScheduleRule;
  day: Weekday;
  from: number;
  to: number;
}

/** The week of one profile: each window cut at midnight, so a block never leaves its day. */
export function timelineOf(rules: readonly ScheduleRule[], profile: string | undefined): TimelineBlock[] {
  const blocks: TimelineBlock[] = [];
  for (const rule of rules) {
    if ((rule.profile ?? '') !== (profile ?? '')) continue;
    for (const day of rule.days) {
      for (const window of rule.windows) {
        const start = minutesOf(window.start);
        const end = minutesOf(window.end);
        if (end > start) blocks.push({ rule, day, from: start, to: end });
        else {
          blocks.push({ rule, day, from: start, to: 24 * 60 });
          if (end > 0) blocks.push({ rule, day: ((day % 7) + 1) as Weekday, from: 0, to: end });
        }
      }
    }
  }
  return blocks;
}

/** Things a rule owns, in words: "Gaming, Social networks" ('' for none). */
function ownedWords(things: readonly OwnedThing[], form: ApiForm): string {
  return formatList(
    things.map((thing) =>
      thing.kind === 'category'
        ? describeCategory(form, thing.category).label
        : thing.kind === 'default-block'
          ? t('schedules.everythingElse')
          : thing.domain,
    ),
  );
}

/**
 * The rule's card: "blocks Gaming, games.example · allows school.example". A domain on the
 * whitelist during the windows is allowed, not blocked; so is a thing an import made allowed.
 */
export function insideWords(rule: ScheduleRule, form: ApiForm): string {
  const { blocked, allowed } = insideParts(rule, form);
  const parts = [
    blocked && t('schedules.blocks', { what: blocked }),
    allowed && t('schedules.allows', { what: allowed }),
  ];
  return parts.filter((part) => part !== '').join(' · ');
}

/** What the rule blocks and what it allows inside its windows, each in words ('' when none). */
export function insideParts(rule: ScheduleRule, form: ApiForm): { blocked: string; allowed: string } {
  const isBlocked = (thing: OwnedThing) =>
    thing.kind === 'domain' ? thing.inside === 'blocklist' : thing.inside;
  return {
    blocked: ownedWords(rule.owns.filter(isBlocked), form),
    allowed: ownedWords(
      rule.owns.filter((thing) => !isBlocked(thing)),
      form,
    ),
  };
}

export const dayName = (day: Weekday): string => t(`schedules.day${day}` as PlainKey);
export const dayShortName = (day: Weekday): string => t(`schedules.dayShort${day}` as PlainKey);

/** The rules holding their window now (the Overview's "Active now"). */
export function activeNow(schedules: AccountSchedules, now: number, timeZone?: string): ScheduleRule[] {
  return statusesOf(schedules, now, timeZone)
    .filter((status) => status.inside && !status.released)
    .map((status) => status.rule);
}

const THIRTY_MINUTES = 30 * 60_000;

/**
 * "+30 minutes": the window's state holds until half an hour after its next end (or from now,
 * outside a window, for half an hour). Stored; the worker sends it at its next check.
 */
export async function extendByHalfAnHour(accountId: string, status: RuleStatus, now: number): Promise<void> {
  const until = (status.inside && status.nextEdgeAt !== null ? status.nextEdgeAt : now) + THIRTY_MINUTES;
  await addOverride(accountId, { rule: status.rule.id, kind: 'inside', from: now, until });
}

/** "Skip this time": the state outside holds until the current (or next) window ends. */
export async function skipThisTime(accountId: string, status: RuleStatus, now: number, timeZone?: string) {
  let until = status.nextEdgeAt;
  if (!status.inside && until !== null) {
    // Not inside now: the next window starts at the next edge; it ends at the edge after.
    const after = evaluateSchedules([status.rule], [], {
      now: until,
      timeZone: timeZone ?? browserTimeZone(),
      leadMinutes: 0,
    }).rules[0];
    until = after?.nextEdgeAt ?? until;
  }
  if (until === null) return;
  await addOverride(accountId, { rule: status.rule.id, kind: 'outside', from: now, until });
}

/** "Pause until": the rule's things are left alone until then (a manual change is kept). */
export async function pauseUntil(
  accountId: string,
  ruleId: string,
  now: number,
  until: number,
): Promise<void> {
  if (until <= now) return;
  await addOverride(accountId, { rule: ruleId, kind: 'release', from: now, until });
}

async function addOverride(
  accountId: string,
  override: AccountSchedules['overrides'][number],
): Promise<void> {
  await updateAccountSchedules(accountId, (current) => {
    if (!current) return null;
    const kept = current.overrides
      .filter((other) => other.until > override.from)
      .slice(-(SCHEDULE_LIMITS.overridesPerAccount - 1));
    return { ...current, overrides: [...kept, override] };
  });
}
