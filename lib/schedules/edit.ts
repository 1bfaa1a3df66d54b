/**
 * Every write of the schedules item goes through one lock (`schedules`), so the options page's
 * edits and the worker's findings never overwrite each other (docs/schedules.md, "Storage").
 */
import { exclusively } from '@/lib/outbox/lease';
import type { AccountSchedules } from './schema';
import { scheduleChecksItem, schedulesItem } from './store';

const SCHEDULES_LOCK = 'schedules';
export const CHECKS_LOCK = 'schedule-checks';

/** Writes one account's schedules as `update` makes them from the stored ones; null writes nothing. */
export async function updateAccountSchedules(
  accountId: string,
  update: (current: AccountSchedules | undefined) => AccountSchedules | null,
): Promise<AccountSchedules | null> {
  return exclusively(SCHEDULES_LOCK, async () => {
    const current = await schedulesItem.getValue();
    const next = update(current[accountId]);
    if (next === null) return null;
    await schedulesItem.setValue({ ...current, [accountId]: next });
    return next;
  });
}

/** Removing an account removes its schedules (lib/accounts/forget.ts). */
export async function forgetSchedulesOf(accountId: string): Promise<void> {
  await exclusively(SCHEDULES_LOCK, async () => {
    const { [accountId]: gone, ...rest } = await schedulesItem.getValue();
    if (gone !== undefined) await schedulesItem.setValue(rest);
  });
  await exclusively(CHECKS_LOCK, async () => {
    const { [accountId]: gone, ...rest } = await scheduleChecksItem.getValue();
    if (gone !== undefined) await scheduleChecksItem.setValue(rest);
  });
}
