/**
 * The schedule editor edits the whole rule (docs/schedules.md, "The editor"): several windows,
 * domains on a list during the windows, and the state of every owned thing outside them; a bad
 * window or domain line is named and nothing typed is lost; editing a rule keeps all it had.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { SchedulesSection } from '@/components/options/SchedulesSection';
import { readAccounts } from '@/lib/accounts/store';
import type { ScheduleRule } from '@/lib/schedules/schema';
import { schedulesItem } from '@/lib/schedules/store';
import { apiKeyItem, connectionItem } from '@/lib/settings/storage';
import { createFakeClient } from '../../fakes/fake-client';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

async function renderSection(rules: ScheduleRule[] = []) {
  await apiKeyItem.setValue('sk-live-0123456789abcdef');
  await connectionItem.setValue({ baseUrl: 'https://my.cleanbrowsing.org', form: 'A' });
  const accountId = (await readAccounts()).activeId;
  if (rules.length > 0)
    await schedulesItem.setValue({ [accountId]: { leadMinutes: 0, rules, overrides: [] } });
  const client = createFakeClient('A', {
    profiles: ['default'],
    blocked: { default: new Set(['category_dating']) },
    lists: { whitelist: { default: new Set(['school.example']) }, blocklist: { default: new Set() } },
  });
  render(<SchedulesSection client={client} />);
  await screen.findByRole('heading', { name: 'Schedules' });
  return { accountId };
}

const stored = async (accountId: string) => (await schedulesItem.getValue())[accountId]?.rules ?? [];
const input = (element: HTMLElement, value: string) => fireEvent.input(element, { target: { value } });
const statusText = () => screen.getByRole('status').textContent ?? '';

/** A new schedule named Homework time, every day, Gaming blocked 18:00–20:00, no lead; not saved. */
async function startSchedule() {
  fireEvent.click(screen.getByRole('button', { name: 'Add schedule' }));
  input(await screen.findByRole('textbox', { name: 'Schedule name' }), 'Homework time');
  for (const day of ['Saturday', 'Sunday']) fireEvent.click(screen.getByRole('checkbox', { name: day }));
  input(screen.getByLabelText('Starts at'), '18:00');
  input(screen.getByLabelText('Ends at'), '20:00');
  fireEvent.click(await screen.findByRole('checkbox', { name: 'Gaming' }));
  input(screen.getByRole('spinbutton', { name: /^Send changes ahead/ }), '0');
}

const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save schedule' }));

describe('windows', () => {
  it('a second window is stored with the first, and the week shows both', async () => {
    const { accountId } = await renderSection();
    await startSchedule();
    fireEvent.click(screen.getByRole('button', { name: 'Add window' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Starts at, window 2')));
    input(screen.getByLabelText('Starts at, window 2'), '07:00');
    input(screen.getByLabelText('Ends at, window 2'), '08:00');
    save();
    await waitFor(() => expect(statusText()).toMatch(/^Saved\./));
    expect((await stored(accountId))[0]?.windows).toEqual([
      { start: '18:00', end: '20:00' },
      { start: '07:00', end: '08:00' },
    ]);
    const week = within(screen.getByRole('figure', { name: 'Week of profile default' }));
    expect(week.getByText('Homework time: Monday 7:00 AM–8:00 AM')).toBeTruthy();
    expect(week.getByText('Homework time: Monday 6:00 PM–8:00 PM')).toBeTruthy();
  });

  it('refuses overlapping windows and an empty one, naming them; what was typed stays', async () => {
    const { accountId } = await renderSection();
    await startSchedule();
    fireEvent.click(screen.getByRole('button', { name: 'Add window' }));
    input(screen.getByLabelText('Starts at, window 2'), '19:30');
    input(screen.getByLabelText('Ends at, window 2'), '21:00');
    save();
    await waitFor(() =>
      expect(statusText()).toContain(
        'The times of window 1 and window 2 overlap: change or remove one of them.',
      ),
    );
    expect((screen.getByLabelText('Starts at, window 2') as HTMLInputElement).value).toBe('19:30');

    input(screen.getByLabelText('Starts at, window 2'), '21:00');
    save();
    await waitFor(() =>
      expect(statusText()).toContain('Window 2: The time must not start and end at the same minute.'),
    );
    expect(await stored(accountId)).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Remove window 2' }));
    expect(screen.queryByLabelText('Starts at, window 2')).toBeNull();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add window' })),
    );
    save();
    await waitFor(() => expect(statusText()).toMatch(/^Saved\./));
    expect((await stored(accountId))[0]?.windows).toEqual([{ start: '18:00', end: '20:00' }]);
  });
});

describe('domains and the state outside the windows', () => {
  it('typed domains are owned, each outside as the account has it, and an outside state chosen is stored', async () => {
    const { accountId } = await renderSection();
    await startSchedule();
    input(
      screen.getByRole('textbox', { name: 'On the blocklist during this time' }),
      'https://School.example/login\ngames.example, videos.example',
    );
    // The account has Gaming allowed and school.example on the whitelist now.
    const schoolOutside = (await screen.findByRole('combobox', {
      name: 'school.example, outside these times',
    })) as HTMLSelectElement;
    await waitFor(() => expect(schoolOutside.value).toBe('whitelist'));
    expect(schoolOutside.getAttribute('aria-describedby')).toBeNull();
    const gamingOutside = screen.getByRole('combobox', { name: 'Gaming, outside these times' });
    expect((gamingOutside as HTMLSelectElement).value).toBe('false');

    fireEvent.change(gamingOutside, { target: { value: 'true' } });
    // Blocked inside and outside: the line says the schedule never changes it.
    const described = screen
      .getByRole('combobox', { name: 'Gaming, outside these times' })
      .getAttribute('aria-describedby');
    expect(document.getElementById(described ?? '')?.textContent).toBe(
      'as during the times: the schedule does not change it',
    );
    fireEvent.change(screen.getByRole('combobox', { name: 'videos.example, outside these times' }), {
      target: { value: 'whitelist' },
    });
    save();
    await waitFor(() => expect(statusText()).toMatch(/^Saved\./));
    expect((await stored(accountId))[0]?.owns).toEqual([
      { kind: 'category', category: 'category_gaming', inside: true, outside: true },
      { kind: 'domain', domain: 'school.example', inside: 'blocklist', outside: 'whitelist' },
      { kind: 'domain', domain: 'games.example', inside: 'blocklist', outside: 'none' },
      { kind: 'domain', domain: 'videos.example', inside: 'blocklist', outside: 'whitelist' },
    ]);
  });

  it('names each bad domain line and a public suffix; the fields keep their text', async () => {
    const { accountId } = await renderSection();
    await startSchedule();
    const whitelist = screen.getByRole('textbox', { name: 'On the whitelist during this time' });
    const typed = 'homework.example\nnot a domain\nco.uk\nlocalhost';
    input(whitelist, typed);
    save();
    await waitFor(() => expect(statusText()).toContain('These lines are not domains: “not a domain”'));
    expect(statusText()).toContain('“localhost”');
    expect(statusText()).toContain('Not allowed: co.uk.');
    expect(statusText()).not.toContain('homework.example');
    expect((whitelist as HTMLTextAreaElement).value).toBe(typed);
    expect(await stored(accountId)).toEqual([]);
  });

  it('refuses a domain typed on both lists', async () => {
    await renderSection();
    await startSchedule();
    input(screen.getByRole('textbox', { name: 'On the whitelist during this time' }), 'both.example');
    input(screen.getByRole('textbox', { name: 'On the blocklist during this time' }), 'both.example');
    save();
    await waitFor(() => expect(statusText()).toContain('On both lists: both.example.'));
  });
});

describe('editing a rule', () => {
  const everything: ScheduleRule = {
    id: 'homework',
    name: 'Homework time',
    profile: 'default',
    days: [1, 2, 3],
    windows: [
      { start: '18:00', end: '20:00' },
      { start: '22:00', end: '06:30' },
    ],
    owns: [
      { kind: 'category', category: 'category_gaming', inside: true, outside: true },
      { kind: 'default-block', inside: true, outside: false },
      { kind: 'domain', domain: 'games.example', inside: 'blocklist', outside: 'none' },
      { kind: 'domain', domain: 'school.example', inside: 'whitelist', outside: 'blocklist' },
      // Not shown by the editor (a category allowed inside, from an import): kept as it is.
      { kind: 'category', category: 'category_dating', inside: false, outside: true },
    ],
  };

  it('shows every window, domain and outside state, and saving unchanged keeps them all', async () => {
    const { accountId } = await renderSection([everything]);
    // The rule's card tells what it blocks from what it allows.
    expect(
      await screen.findByText(
        'blocks Gaming, everything not on the whitelist, and games.example · allows school.example and Dating',
      ),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    expect(((await screen.findByRole('textbox', { name: 'Schedule name' })) as HTMLInputElement).value).toBe(
      'Homework time',
    );
    expect((screen.getByLabelText('Starts at, window 2') as HTMLInputElement).value).toBe('22:00');
    expect((screen.getByLabelText('Ends at, window 2') as HTMLInputElement).value).toBe('06:30');
    expect(
      (screen.getByRole('textbox', { name: 'On the blocklist during this time' }) as HTMLTextAreaElement)
        .value,
    ).toBe('games.example');
    expect(
      (screen.getByRole('textbox', { name: 'On the whitelist during this time' }) as HTMLTextAreaElement)
        .value,
    ).toBe('school.example');
    const outside = (name: string) =>
      (screen.getByRole('combobox', { name: `${name}, outside these times` }) as HTMLSelectElement).value;
    await waitFor(() => expect(outside('Gaming')).toBe('true'));
    // The stored outside state wins over the account's lists (school.example is on the whitelist).
    expect(outside('school.example')).toBe('blocklist');
    expect(outside('Default block')).toBe('false');

    fireEvent.click(screen.getByRole('button', { name: 'Save schedule' }));
    await waitFor(() => expect(statusText()).toMatch(/^Saved\./));
    const [rule] = await stored(accountId);
    expect(rule?.windows).toEqual(everything.windows);
    expect(new Set(rule?.owns.map((thing) => JSON.stringify(thing)))).toEqual(
      new Set(everything.owns.map((thing) => JSON.stringify(thing))),
    );
  });
});
