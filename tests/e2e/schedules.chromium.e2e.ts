/**
 * Schedules through the options page and the real worker's alarms (docs/schedules.md): a schedule
 * whose window starts about two minutes after it is saved, sent with no lead, blocks its category
 * at the emulator when the window starts and allows it when it ends; meanwhile the popup on a site
 * says which schedule holds and until when. Real minutes pass: the window is one minute long.
 */
import { configureExtension, describe, expect, test, textOf } from './harness/index.ts';
import { hhmm, saveSchedule, sentAt, until } from './schedules-steps.ts';

describe('Schedules', () => {
  test('a window two minutes ahead blocks its category at its start and allows it at its end; the popup says why', async ({
    chromium,
    emulator,
  }) => {
    const options = await chromium.openOptions();
    await configureExtension(options, { baseUrl: emulator.url, key: emulator.key, form: 'A' });
    const { start, end, saved } = await saveSchedule(options);
    expect(saved).toContain(`“Homework time” starts at ${hhmm(new Date(start))}`);
    // Nothing is sent before the window.
    expect(sentAt(emulator, 'category/block')).toBeNull();

    const blockedAt = await until(() => sentAt(emulator, 'category/block'), start + 60_000, 'The block');
    expect(blockedAt).toBeGreaterThanOrEqual(start - 1_000);

    const tab = await chromium.openSiteTab('games.example', '/page');
    const popup = await chromium.openPopup(tab);
    const line = await textOf(popup, 'region', 'Schedules');
    expect(line).toContain(`Homework time: Gaming blocked until ${hhmm(new Date(end))}`);
    await popup.close();

    const allowedAt = await until(() => sentAt(emulator, 'category/allow'), end + 60_000, 'The allow');
    expect(allowedAt).toBeGreaterThanOrEqual(end - 1_000);
  }, 300_000);
});
