/**
 * The schedules in the settings backup (lib/backup): every account's rules and lead (the active
 * one's under `settings`, the others' with their accounts), checked like every import
 * (./schema.ts) and for conflicts within the file and with the rules already here (./conflicts.ts).
 * Overrides (one-off, timed) and what the worker found are this browser's, never exported
 * (docs/schedules.md, "Storage").
 */
import * as z from 'zod/mini';
import { readAccounts } from '@/lib/accounts/store';
import { t } from '@/lib/i18n';
import { invalid, type Validation, valid } from '@/lib/validation';
import { findConflict } from './conflicts';
import { updateAccountSchedules } from './edit';
import { type AccountSchedules, accountSchedulesSchema, type ScheduleRule } from './schema';
import { emptyAccountSchedules, schedulesItem } from './store';

export const schedulesBackupSchema = z.pick(accountSchedulesSchema, { leadMinutes: true, rules: true });
export type SchedulesBackup = z.infer<typeof schedulesBackupSchema>;

/** What the backup holds of an account's schedules: the lead and the rules, never the overrides. */
export function schedulesBackupOf(schedules: AccountSchedules): SchedulesBackup {
  return { leadMinutes: schedules.leadMinutes, rules: schedules.rules };
}

/** The active account's schedules as the backup holds them: read, and written on import. */
export const activeSchedulesBackupItem = {
  async getValue(): Promise<SchedulesBackup> {
    return schedulesBackupOf(
      (await schedulesItem.getValue())[(await readAccounts()).activeId] ?? emptyAccountSchedules(),
    );
  },
  async setValue(value: SchedulesBackup): Promise<void> {
    await updateAccountSchedules((await readAccounts()).activeId, (current) => ({
      ...(current ?? emptyAccountSchedules()),
      ...value,
    }));
  },
};

/** The file's rules beside this browser's: one of the same id is replaced by the file's. */
export function mergeSchedules(current: SchedulesBackup, incoming: SchedulesBackup): SchedulesBackup {
  const ids = new Set(incoming.rules.map((rule) => rule.id));
  return {
    leadMinutes: incoming.leadMinutes,
    rules: [...current.rules.filter((rule) => !ids.has(rule.id)), ...incoming.rules],
  };
}

/** Refuses a file whose rules own one thing at the same time, naming both. */
export function checkSchedulesBackup(value: SchedulesBackup): Validation<SchedulesBackup> {
  const seen: ScheduleRule[] = [];
  for (const rule of value.rules) {
    const conflict = findConflict(rule, seen);
    if (conflict) return invalid(t('schedules.conflict', { rule: rule.name, other: conflict.other.name }));
    seen.push(rule);
  }
  return valid(value);
}

/**
 * Writes the schedules of one of the file's other accounts to that account here: merged with its
 * rules as the active account's are (`mergeSchedules`), and refused, writing nothing, when the
 * merged rules would own one thing at the same time (naming both).
 */
export async function importAccountSchedules(
  accountId: string,
  incoming: SchedulesBackup,
): Promise<Validation<SchedulesBackup>> {
  let outcome: Validation<SchedulesBackup> = valid(incoming);
  await updateAccountSchedules(accountId, (current) => {
    const stored = current ?? emptyAccountSchedules();
    outcome = checkSchedulesBackup(mergeSchedules(schedulesBackupOf(stored), incoming));
    return outcome.ok ? { ...stored, ...outcome.value } : null;
  });
  return outcome;
}
