/**
 * The popup's schedule line (docs/schedules.md): the rules holding now for the popup's profile,
 * said as "Homework time: Gaming blocked until 20:00", with the overrides. Read only after the
 * first view (docs/architecture.md, "The popup's start path"): the verdict never waits for it.
 */
import type { ApiForm } from '@/lib/api/types';
import { t } from '@/lib/i18n';
import { followableRead } from '@/lib/settings/follow';
import { accountsItem } from '@/lib/settings/storage';
import { evaluateSchedules, type RuleStatus } from './desired';
import { formatInstant, insideParts } from './options';
import type { AccountSchedules } from './schema';
import { schedulesItem } from './store';
import { browserTimeZone } from './zone';

/** The active account's schedules, without reading any key (only the accounts' list). */
export const popupSchedules = followableRead([schedulesItem, accountsItem], async () => {
  const [accounts, all] = await Promise.all([accountsItem.getValue(), schedulesItem.getValue()]);
  // Before the accounts' list exists (one account, never switched), its schedules are the only ones.
  const ids = Object.keys(all);
  const accountId = accounts.active ?? (ids.length === 1 ? ids[0] : undefined);
  const schedules = accountId === undefined ? undefined : all[accountId];
  return accountId === undefined || schedules === undefined ? null : { accountId, schedules };
});

export interface ScheduleLine {
  status: RuleStatus;
  text: string;
}

/**
 * The rules of `profile` inside their window now, as the resolvers have it (without the lead:
 * the popup explains what holds, not what is being sent), each with its sentence.
 */
export function scheduleLines(
  schedules: AccountSchedules,
  profile: string | undefined,
  form: ApiForm,
  now: number,
  timeZone: string = browserTimeZone(),
): ScheduleLine[] {
  const mine = schedules.rules.filter((rule) => (rule.profile ?? 'default') === (profile ?? 'default'));
  return evaluateSchedules(mine, schedules.overrides, { now, timeZone, leadMinutes: 0 })
    .rules.filter((status) => status.inside && !status.released)
    .map((status) => {
      const { blocked, allowed } = insideParts(status.rule, form);
      const words = {
        rule: status.rule.name,
        blocked,
        allowed,
        // A window always ends (an empty one cannot be saved): '—' only satisfies the type.
        time: status.nextEdgeAt === null ? '—' : formatInstant(status.nextEdgeAt, now, timeZone),
      };
      const key =
        allowed === ''
          ? 'schedules.verdict'
          : blocked === ''
            ? 'schedules.verdictAllowed'
            : 'schedules.verdictMixed';
      return { status, text: t(key, words) };
    });
}
