/**
 * Whitelist, Blocklist or Remove in the popup on a domain a schedule owns (docs/schedules.md,
 * "Manual changes"): the popup says which schedule will put it back and when, and "Keep until …"
 * stores a release until the schedule's next edge, so its next check leaves the change alone. A
 * domain no schedule owns says nothing.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { readAccounts } from '@/lib/accounts/store';
import { schedulesItem } from '@/lib/schedules/store';
import { englishClock, spaced } from '../schedules/fixtures';
import { configure, createFakeApi, openPopup, T0 } from './popup-harness';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

// The window holds from half an hour before now to an hour and a half after, in the test's zone.
const END = T0 + 90 * 60_000;
const hhmm = (at: number) => {
  const date = new Date(at);
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
};

/** "Homework time" keeps games.example on the blocklist of profile default during its window. */
async function withSchedule() {
  await configure('A');
  const accountId = (await readAccounts()).activeId;
  await schedulesItem.setValue({
    [accountId]: {
      leadMinutes: 0,
      rules: [
        {
          id: 'homework',
          name: 'Homework time',
          profile: 'default',
          days: [1, 2, 3, 4, 5, 6, 7],
          windows: [{ start: hhmm(T0 - 30 * 60_000), end: hhmm(END) }],
          owns: [{ kind: 'domain', domain: 'games.example', inside: 'blocklist', outside: 'none' }],
        },
      ],
      overrides: [],
    },
  });
  return accountId;
}

const notice = () => screen.findByRole('region', { name: 'Set by a schedule' });

describe('a domain a schedule owns, changed in the popup', () => {
  it('says which schedule owns it; "Keep until" stores the release until the schedule’s next edge', async () => {
    const accountId = await withSchedule();
    const popup = await openPopup({
      url: 'https://games.example/',
      api: createFakeApi('A', { blocklist: { default: ['games.example'] } }),
    });
    await popup.started;
    fireEvent.click(await screen.findByRole('button', { name: 'Whitelist' }));
    const owned = within(await notice());
    // getByText's own normalizer reads the narrow space before "PM" as a space.
    expect(
      owned.getByText(
        `“Homework time” changes games.example at set times. Keep your change until ${englishClock(END)}, or pause the schedule?`,
      ),
    ).toBeTruthy();
    expect(popup.submitted).toHaveLength(1);

    fireEvent.click(
      owned.getByRole('button', { name: (name) => spaced(name) === `Keep until ${englishClock(END)}` }),
    );
    await waitFor(() =>
      expect(spaced(owned.getByRole('status').textContent)).toBe(
        `Kept: “Homework time” leaves it alone until ${englishClock(END)}.`,
      ),
    );
    expect((await schedulesItem.getValue())[accountId]?.overrides).toEqual([
      { rule: 'homework', kind: 'release', from: T0, until: END },
    ]);
  });

  it('Undo of a kept change takes the keep back too: the schedule owns the domain again at once', async () => {
    const accountId = await withSchedule();
    const popup = await openPopup({
      url: 'https://games.example/',
      api: createFakeApi('A', { blocklist: { default: ['games.example'] } }),
    });
    await popup.started;
    fireEvent.click(await screen.findByRole('button', { name: 'Whitelist' }));
    const owned = within(await notice());
    fireEvent.click(
      owned.getByRole('button', { name: (name) => spaced(name) === `Keep until ${englishClock(END)}` }),
    );
    await waitFor(async () => expect((await schedulesItem.getValue())[accountId]?.overrides).toHaveLength(1));

    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(popup.submitted).toHaveLength(2));
    await waitFor(async () => expect((await schedulesItem.getValue())[accountId]?.overrides).toEqual([]));
  });

  it('a removal from the list offers "Pause until" a chosen time too', async () => {
    await withSchedule();
    const popup = await openPopup({
      url: 'https://games.example/',
      api: createFakeApi('A', { blocklist: { default: ['games.example'] } }),
    });
    await popup.started;
    fireEvent.click(await screen.findByRole('button', { name: 'Remove from blocklist' }));
    const owned = within(await notice());
    expect(owned.getByLabelText('Pause until')).toBeTruthy();
    expect(owned.getByRole('button', { name: 'Pause' })).toBeTruthy();
  });

  it('says nothing for a domain no schedule owns, nor before anything is changed', async () => {
    await withSchedule();
    const popup = await openPopup({ url: 'https://school.example/' });
    await popup.started;
    expect(screen.queryByRole('region', { name: 'Set by a schedule' })).toBeNull();
    fireEvent.click(await screen.findByRole('button', { name: 'Whitelist' }));
    await waitFor(() => expect(popup.submitted).toHaveLength(1));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Undo' })).toBeTruthy());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: 'Set by a schedule' })).toBeNull();
  });
});
