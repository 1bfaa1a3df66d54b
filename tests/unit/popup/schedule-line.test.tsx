/**
 * The popup's schedule line (lib/schedules/popup.ts): a rule holding now for the popup's profile
 * explains itself ("Homework time: Gaming blocked until …") and offers +30 minutes, stored as an
 * override the worker sends at its next check; another profile's rule says nothing.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { ScheduleLine } from '@/components/popup/ScheduleLine';
import type { OwnedThing } from '@/lib/schedules/schema';
import { schedulesItem } from '@/lib/schedules/store';
import { accountsItem } from '@/lib/settings/storage';
import { englishClock, spaced } from '../schedules/fixtures';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

// Monday 2026-07-06 18:30 in the test's zone is whatever it is: the window is built around now.
const NOW = Date.parse('2026-07-06T12:00:00Z');
const hhmm = (date: Date) =>
  `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;

async function store(profile: string, extra: readonly OwnedThing[] = []) {
  const start = new Date(NOW - 30 * 60_000);
  const end = new Date(NOW + 90 * 60_000);
  await accountsItem.setValue({ active: 'account-one', accounts: [] } as never);
  await schedulesItem.setValue({
    'account-one': {
      leadMinutes: 45,
      rules: [
        {
          id: 'homework',
          name: 'Homework time',
          profile,
          days: [1, 2, 3, 4, 5, 6, 7],
          windows: [{ start: hhmm(start), end: hhmm(end) }],
          owns: [{ kind: 'category', category: 'category_gaming', inside: true, outside: false }, ...extra],
        },
      ],
      overrides: [],
    },
  });
  return end.getTime();
}

describe('ScheduleLine', () => {
  it('explains the rule holding now and offers +30 minutes', async () => {
    const end = await store('kids');
    render(<ScheduleLine profile="kids" form="A" now={() => NOW} />);
    expect(spaced((await screen.findByText(/^Homework time:/)).textContent)).toBe(
      `Homework time: Gaming blocked until ${englishClock(end)}`,
    );
    fireEvent.click(screen.getByRole('button', { name: '+30 minutes' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/next check/));
    const overrides = (await schedulesItem.getValue())['account-one']?.overrides;
    expect(overrides).toEqual([
      { rule: 'homework', kind: 'inside', from: NOW, until: NOW + 90 * 60_000 + 30 * 60_000 },
    ]);
  });

  it('says what the rule allows apart from what it blocks', async () => {
    const end = await store('kids', [
      { kind: 'domain', domain: 'school.example', inside: 'whitelist', outside: 'none' },
    ]);
    render(<ScheduleLine profile="kids" form="A" now={() => NOW} />);
    expect(spaced((await screen.findByText(/^Homework time, until/)).textContent)).toBe(
      `Homework time, until ${englishClock(end)}: Gaming blocked; school.example allowed`,
    );
  });

  it("says nothing for another profile's rule", async () => {
    await store('teens');
    render(<ScheduleLine profile="kids" form="A" now={() => NOW} />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(/Homework time/)).toBeNull();
  });
});
