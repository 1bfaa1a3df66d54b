/**
 * The steps of the schedules end-to-end tests (docs/schedules.md), the same in Chromium and
 * Firefox: a schedule saved through the options page with its window about two minutes ahead, and
 * what the worker sent to the emulator since.
 */
import type { Page } from 'puppeteer-core';
import { byRole, waitForStatus } from './harness/index.ts';
import { openSection } from './options-helpers.ts';

const hhmm = (date: Date) =>
  `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;

/**
 * `date` as the English pages write a schedule's time, on the language's own clock ("6:05 PM",
 * docs/schedules.md); `hhmm` is what a time input takes.
 */
export const englishClock = (date: Date) =>
  `${date.getHours() % 12 || 12}:${String(date.getMinutes()).padStart(2, '0')} ${date.getHours() < 12 ? 'AM' : 'PM'}`;

/** ICU separates "PM" with a narrow no-break space in some versions, a plain one in others. */
export const spaced = (text: string) => text.replace(/\s/g, ' ');

/** Sets an `input type="time"` by its label, as a user's picker does (typing into it depends on the locale). */
export async function setTime(page: Page, label: string, value: string) {
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
export function sentAt(emulator: { admin: { calls(): unknown[] } }, action: string): number | null {
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

export async function until<T>(read: () => T | null, deadline: number, what: string): Promise<T> {
  for (;;) {
    const value = read();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen in time`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** Saves "Homework time": every day, Gaming blocked, no lead, one minute from the minute two minutes ahead. */
export async function saveSchedule(options: Page) {
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
  return { start: start.getTime(), end: end.getTime(), saved };
}
