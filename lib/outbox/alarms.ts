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
