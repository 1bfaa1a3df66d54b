/** The part of `browser.alarms` the worker's jobs use; tests pass WXT's fakeBrowser.alarms. */
export interface AlarmInfo {
  name: string;
  scheduledTime: number;
  periodInMinutes?: number;
}

export interface AlarmsApi {
  get(name: string): Promise<AlarmInfo | undefined>;
  create(name: string, info: { when?: number; delayInMinutes?: number; periodInMinutes?: number }): unknown;
  clear(name: string): Promise<boolean>;
}

/**
 * Sets the alarm `name` for `when` unless it is set for that time already: a worker woken again
 * and again (start-up, storage changes) must not keep pushing or re-creating it.
 */
export async function scheduleAlarm(alarms: AlarmsApi, name: string, when: number): Promise<void> {
  if ((await alarms.get(name))?.scheduledTime === when) return;
  await alarms.create(name, { when });
}
