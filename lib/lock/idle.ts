/**
 * Locking again after the idle time (docs/lock.md, "When it locks"): one repeating alarm while
 * unlocked, created only when missing; each ring locks when nothing used the lock's guarded
 * parts for the idle time (lib/lock/state.ts `lockIfIdle`), and the alarm goes once locked.
 */
import type { AlarmsApi } from '@/lib/outbox/alarms';
import { lockIfIdle, readLockStatus } from './state';

export const LOCK_IDLE_ALARM = 'lock-idle';

/** Creates the idle alarm when the lock is on and unlocked, and it is missing. */
export async function ensureIdleAlarm(alarms: AlarmsApi): Promise<void> {
  const status = await readLockStatus();
  if (!status.on || !status.unlocked) return;
  if (await alarms.get(LOCK_IDLE_ALARM)) return;
  // The shortest period both browsers keep (docs/lock.md): the idle time is in whole minutes.
  await alarms.create(LOCK_IDLE_ALARM, { periodInMinutes: 1 });
}

/** The idle alarm rang: locks when idle; clears the alarm once there is nothing left to lock. */
export async function onIdleAlarm(
  alarms: AlarmsApi,
  activeAccountId: () => Promise<string | null>,
  now: number = Date.now(),
): Promise<void> {
  await lockIfIdle(await activeAccountId(), now);
  const status = await readLockStatus(now);
  if (!status.on || !status.unlocked) await alarms.clear(LOCK_IDLE_ALARM);
}
