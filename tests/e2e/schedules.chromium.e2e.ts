/**
 * Schedules through the options page and the real worker's alarms (docs/schedules.md): a schedule
 * whose window starts about two minutes after it is saved, sent with no lead, blocks its category
 * at the emulator when the window starts and allows it when it ends; meanwhile the popup on a site
 * says which schedule holds and until when. Real minutes pass: the window is one minute long.
 */
import type { Page } from 'puppeteer-core';
import {
  byRole,
  type ChromiumSession,
  configureExtension,
  describe,
  expect,
  test,
  textOf,
  waitForStatus,
} from './harness/index.ts';
import { openSection } from './options-helpers.ts';

const hhmm = (date: Date) =>
  `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;

/** Sets an `input type="time"` by its label, as a user's picker does (typing into it depends on the locale). */
async function setTime(page: Page, label: string, value: string) {
  await page.evaluate(
    (name, time) => {
      const labelElement = [...document.querySelectorAll('label')].find(
        (l) => l.textContent?.trim() === name,
      );
      const input = document.getElementById(labelElement?.htmlFor ?? '') as HTMLInputElement;
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, time);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    },
    label,
    value,
  );
}

async function checked(page: Page, name: string): Promise<boolean> {
  const handle = await byRole(page, 'checkbox', name).waitHandle();
  return handle.evaluate((input) => (input as HTMLInputElement).checked);
}

/** When the worker sent `action` for the gaming category of profile default, or null. */
function sentAt(emulator: { admin: { calls(): unknown[] } }, action: string): number | null {
  const call = (
    emulator.admin.calls() as { action: string; params: Record<string, string>; at: number }[]
  ).find(
    (candidate) =>
      candidate.action === action &&
      candidate.params.category_name === 'category_gaming' &&
      candidate.params.profile_name === 'default',
  );
  return call?.at ?? null;
}

async function until<T>(read: () => T | null, deadline: number, what: string): Promise<T> {
  for (;;) {
    const value = read();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen in time`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

async function saveSchedule(chromium: ChromiumSession, emulator: { url: string; key: string }) {
  const options = await chromium.openOptions();
  await configureExtension(options, { baseUrl: emulator.url, key: emulator.key, form: 'A' });
  await openSection(options, 'Schedules');
  await byRole(options, 'button', 'Add schedule').click();
  await byRole(options, 'textbox', 'Schedule name').fill('Homework time');
  for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']) {
    if (!(await checked(options, day))) await byRole(options, 'checkbox', day).click();
  }
  // The window opens at the minute two minutes from now and lasts one minute.
  const start = new Date(Math.ceil((Date.now() + 2 * 60_000) / 60_000) * 60_000);
  const end = new Date(start.getTime() + 60_000);
  await setTime(options, 'Starts at', hhmm(start));
  await setTime(options, 'Ends at', hhmm(end));
  await byRole(options, 'checkbox', 'Gaming').click();
  await byRole(options, 'spinbutton', /^Send changes ahead/).fill('0');
  await byRole(options, 'button', 'Save schedule').click();
  const saved = await waitForStatus(options, /^Saved\. Next change/);
  return { options, start: start.getTime(), end: end.getTime(), saved };
}

describe('Schedules', () => {
  test('a window two minutes ahead blocks its category at its start and allows it at its end; the popup says why', async ({
    chromium,
    emulator,
  }) => {
    const { start, end, saved } = await saveSchedule(chromium, emulator);
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
