/**
 * The Schedules section (docs/schedules.md): the editor with the contract's names, a save that
 * says when the next change is sent, a conflicting schedule refused naming both (what was typed
 * stays), the week's timeline and the last check.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { SchedulesSection } from '@/components/options/SchedulesSection';
import { readAccounts } from '@/lib/accounts/store';
import { scheduleChecksItem, schedulesItem } from '@/lib/schedules/store';
import { apiKeyItem, connectionItem } from '@/lib/settings/storage';
import { createFakeClient } from '../../fakes/fake-client';
import { ENGLISH_CLOCK } from '../schedules/fixtures';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

async function renderSection() {
  await apiKeyItem.setValue('sk-live-0123456789abcdef');
  await connectionItem.setValue({ baseUrl: 'https://my.cleanbrowsing.org', form: 'A' });
  const client = createFakeClient('A', { profiles: ['default', 'kids'], blocked: { kids: new Set() } });
  render(<SchedulesSection client={client} />);
  await screen.findByRole('heading', { name: 'Schedules' });
  return { client, accountId: (await readAccounts()).activeId };
}

async function fillSchedule(name: string, start: string, end: string) {
  fireEvent.click(screen.getByRole('button', { name: 'Add schedule' }));
  fireEvent.input(await screen.findByRole('textbox', { name: 'Schedule name' }), { target: { value: name } });
  fireEvent.change(screen.getByRole('combobox', { name: 'Profile' }), { target: { value: 'kids' } });
  for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']) {
    const box = screen.getByRole('checkbox', { name: day }) as HTMLInputElement;
    if (!box.checked) fireEvent.click(box);
  }
  fireEvent.input(screen.getByLabelText('Starts at'), { target: { value: start } });
  fireEvent.input(screen.getByLabelText('Ends at'), { target: { value: end } });
  fireEvent.click(await screen.findByRole('checkbox', { name: 'Gaming' }));
  fireEvent.input(screen.getByRole('spinbutton', { name: /^Send changes ahead/ }), {
    target: { value: '0' },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Save schedule' }));
}

describe('Schedules section', () => {
  it('saves a schedule and says when the next change is sent; the week shows it', async () => {
    const { accountId } = await renderSection();
    expect(screen.getByText(/Schedules run while this browser is open; not checked yet/)).toBeTruthy();
    await fillSchedule('Homework time', '18:00', '20:00');
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toMatch(
        /^Saved\. Next change: “Homework time” (starts|ends) /,
      ),
    );
    const stored = (await schedulesItem.getValue())[accountId];
    expect(stored?.leadMinutes).toBe(0);
    expect(stored?.rules).toEqual([
      expect.objectContaining({
        name: 'Homework time',
        profile: 'kids',
        days: [1, 2, 3, 4, 5, 6, 7],
        windows: [{ start: '18:00', end: '20:00' }],
        owns: [{ kind: 'category', category: 'category_gaming', inside: true, outside: false }],
      }),
    ]);
    const week = screen.getByRole('figure', { name: 'Week of profile kids' });
    expect(within(week).getByText('Homework time: Monday 6:00 PM–8:00 PM')).toBeTruthy();
    // The rule's own summary writes its window on the same clock as the week and the next change.
    expect(screen.getByText(/^Mon, .* · 6:00\sPM–8:00\sPM · kids$/)).toBeTruthy();
  });

  it('refuses a schedule that blocks the same category at the same time, naming both; the editor keeps it', async () => {
    await renderSection();
    await fillSchedule('Homework time', '18:00', '20:00');
    await waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/^Saved/));
    await fillSchedule('Evening', '19:00', '21:00');
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toMatch(
        /“Evening” and “Homework time” change the same thing/,
      ),
    );
    expect((screen.getByRole('textbox', { name: 'Schedule name' }) as HTMLInputElement).value).toBe(
      'Evening',
    );
  });

  it('shows the last check and its outcome', async () => {
    const { accountId } = await renderSection();
    await scheduleChecksItem.setValue({
      [accountId]: {
        seen: {},
        lastCheck: {
          at: Date.now(),
          outcome: 'waiting',
          changes: 0,
          message: 'The service could not be reached.',
        },
      },
    });
    await waitFor(() =>
      expect(
        screen.getByText(
          new RegExp(`Schedules run while this browser is open; last checked at ${ENGLISH_CLOCK.source}\\.`),
        ).textContent,
      ).toContain('Changes wait and are tried again: The service could not be reached.'),
    );
  });
});

describe('Overview', () => {
  it('names the schedules active now', async () => {
    const { ActiveSchedules } = await import('@/components/options/ActiveSchedules');
    await apiKeyItem.setValue('sk-live-0123456789abcdef');
    await connectionItem.setValue({ baseUrl: 'https://my.cleanbrowsing.org', form: 'A' });
    const accountId = (await readAccounts()).activeId;
    const always = { start: '00:00', end: '23:59' };
    const farFromNow = `${String((new Date().getHours() + 12) % 24).padStart(2, '0')}:00`;
    const owns = [{ kind: 'category' as const, category: 'category_gaming', inside: true, outside: false }];
    const days = [1, 2, 3, 4, 5, 6, 7] as (1 | 2 | 3 | 4 | 5 | 6 | 7)[];
    await schedulesItem.setValue({
      [accountId]: {
        leadMinutes: 0,
        rules: [
          { id: 'a', name: 'All day', days, windows: [always, { start: '23:59', end: '00:00' }], owns },
          {
            id: 'b',
            name: 'Not now',
            days,
            // A minute twelve hours away from now: never active while the test runs.
            windows: [{ start: farFromNow, end: farFromNow.replace(/:\d\d$/, ':01') }],
            owns: [{ ...owns[0]!, category: 'category_dating' }],
          },
        ],
        overrides: [],
      },
    });
    render(<ActiveSchedules />);
    expect((await screen.findByText(/Active now/)).textContent).toBe('Schedules: Active now: All day');
  });
});

describe('Pause until', () => {
  it('stores a release of the rule until the chosen time, and says so', async () => {
    const { accountId } = await renderSection();
    await fillSchedule('Homework time', '18:00', '20:00');
    await waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/^Saved/));
    const until = new Date(Date.now() + 2 * 60 * 60_000);
    const local = `${until.getFullYear()}-${String(until.getMonth() + 1).padStart(2, '0')}-${String(until.getDate()).padStart(2, '0')}T${String(until.getHours()).padStart(2, '0')}:${String(until.getMinutes()).padStart(2, '0')}`;
    fireEvent.input(screen.getByLabelText('Pause until'), { target: { value: local } });
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(screen.getByText(/^Paused until /)).toBeTruthy());
    const overrides = (await schedulesItem.getValue())[accountId]?.overrides ?? [];
    expect(overrides.map((override) => [override.kind, override.until])).toEqual([
      ['release', new Date(local).getTime()],
    ]);
  });
});
