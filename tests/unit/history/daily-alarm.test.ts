import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { ensureDailyAlarm, HISTORY_DAILY_ALARM } from '@/lib/history/service';

beforeEach(() => fakeBrowser.reset());

describe('the daily snapshot alarm', () => {
  it('is created when missing, once a day, and an existing one keeps its time', async () => {
    await ensureDailyAlarm(fakeBrowser.alarms);
    const first = await fakeBrowser.alarms.get(HISTORY_DAILY_ALARM);
    expect(first?.periodInMinutes).toBe(24 * 60);
    await ensureDailyAlarm(fakeBrowser.alarms);
    expect(await fakeBrowser.alarms.get(HISTORY_DAILY_ALARM)).toEqual(first);
    expect(await fakeBrowser.alarms.getAll()).toHaveLength(1);
  });
});
