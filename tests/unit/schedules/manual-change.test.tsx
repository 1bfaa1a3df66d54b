/**
 * A change by hand to something a schedule owns (docs/schedules.md, "Manual changes"): the
 * Categories, Default block, Whitelist and Blocklist sections say which schedule will put it back
 * and when, and keeping the change until
 * then, or pausing the schedule, is stored so that the schedule's next check leaves it alone.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { readAccounts } from '@/lib/accounts/store';
import { readCurrentAccount } from '@/lib/identity/current';
import { dropQueuedSettingChanges, enqueueChange } from '@/lib/outbox';
import type { ScheduleRule } from '@/lib/schedules/schema';
import { schedulesItem } from '@/lib/schedules/store';
import { apiKeyItem, connectionItem, outboxItem } from '@/lib/settings/storage';
import { createFakeClient } from '../../fakes/fake-client';
import { renderAccount, section } from '../options/render-account';
import { englishClock } from './fixtures';

// Noon of a Wednesday in the test's own zone: the windows below (18:00–20:00) have their next edge
// the same day, so the offer names a time alone. `lateEvening` moves past them.
const NOON = new Date(2026, 10, 25, 12, 0).getTime();
const lateEvening = () => vi.setSystemTime(new Date(2026, 10, 25, 21, 30));
/** The windows' next edge at noon. */
const SIX_TODAY = new Date(2026, 10, 25, 18, 0).getTime();

beforeEach(() => {
  fakeBrowser.reset();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOON);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** The offer's button, as the English catalogue names it. */
const keepUntil = (label: string) => ({ name: new RegExp(`^Keep until ${label.replace(/\s/g, '\\s')}$`) });

const HOMEWORK: ScheduleRule = {
  id: 'homework',
  name: 'Homework time',
  profile: 'default',
  days: [1, 2, 3, 4, 5, 6, 7],
  windows: [{ start: '18:00', end: '20:00' }],
  owns: [{ kind: 'category', category: 'category_gaming', inside: true, outside: false }],
};

async function renderWithSchedule(rule: ScheduleRule = HOMEWORK) {
  await apiKeyItem.setValue('sk-live-0123456789abcdef');
  await connectionItem.setValue({ baseUrl: 'https://my.cleanbrowsing.org', form: 'A' });
  const accountId = (await readAccounts()).activeId;
  await schedulesItem.setValue({ [accountId]: { leadMinutes: 0, rules: [rule], overrides: [] } });
  await renderAccount({ client: createFakeClient('A') });
  const categories = within(section('Categories'));
  await waitFor(() => categories.getByRole('checkbox', { name: 'Gaming' }));
  return { accountId, categories };
}

describe('a category a schedule owns, changed by hand', () => {
  it('says which schedule sets it and keeps the change until its next edge when asked', async () => {
    const { accountId, categories } = await renderWithSchedule();
    fireEvent.click(categories.getByRole('checkbox', { name: 'Gaming' }));
    const notice = within(await screen.findByRole('region', { name: 'Set by a schedule' }));
    expect(notice.getByText(/“Homework time” changes Gaming at set times/)).toBeTruthy();

    fireEvent.click(notice.getByRole('button', keepUntil(englishClock(SIX_TODAY))));
    await waitFor(() => expect(notice.getByText(/Kept: “Homework time” leaves it alone until/)).toBeTruthy());
    const [override] = (await schedulesItem.getValue())[accountId]?.overrides ?? [];
    expect(override).toMatchObject({ rule: 'homework', kind: 'release', until: SIX_TODAY });
  });

  it('after the last window of the day, the offer names the day of the next edge', async () => {
    lateEvening();
    const { accountId, categories } = await renderWithSchedule();
    fireEvent.click(categories.getByRole('checkbox', { name: 'Gaming' }));
    const notice = within(await screen.findByRole('region', { name: 'Set by a schedule' }));
    const sixTomorrow = new Date(2026, 10, 26, 18, 0).getTime();
    fireEvent.click(notice.getByRole('button', keepUntil(`Thu ${englishClock(sixTomorrow)}`)));
    await waitFor(() => expect(notice.getByText(/Kept: “Homework time” leaves it alone until/)).toBeTruthy());
    expect((await schedulesItem.getValue())[accountId]?.overrides).toMatchObject([{ until: sixTomorrow }]);
  });

  it("takes the schedule's change of that category out of the outbox, so it cannot undo the change later", async () => {
    await apiKeyItem.setValue('sk-live-0123456789abcdef');
    await connectionItem.setValue({ baseUrl: 'https://my.cleanbrowsing.org', form: 'A' });
    const { identity } = await readCurrentAccount();
    const scheduled = {
      op: 'set-category',
      category: 'category_gaming',
      blocked: true,
      source: 'schedule',
    } as const;
    await enqueueChange({ ...scheduled, profile: 'default' }, identity.id);
    // Another profile's change of it, and another category's, are left alone.
    await enqueueChange({ ...scheduled, profile: 'kids' }, identity.id);
    await enqueueChange({ ...scheduled, category: 'category_dating', profile: 'default' }, identity.id);
    await renderAccount({
      client: createFakeClient('A'),
      onSettingChanged: (change) => dropQueuedSettingChanges(identity.id, change).then(() => {}),
    });
    const categories = within(section('Categories'));
    fireEvent.click(await categories.findByRole('checkbox', { name: 'Gaming' }));
    await waitFor(() =>
      expect(categories.getByRole('status').textContent).toContain('Gaming is now blocked'),
    );
    expect(
      (await outboxItem.getValue()).map(({ change }) =>
        change.op === 'set-category' ? `${change.category} ${change.profile}` : change.op,
      ),
    ).toEqual(['category_gaming kids', 'category_dating default']);
  });

  it('says nothing for a category no schedule owns', async () => {
    const { categories } = await renderWithSchedule();
    fireEvent.click(categories.getByRole('checkbox', { name: 'Gambling' }));
    await waitFor(() =>
      expect(categories.getByRole('status').textContent).toContain('Gambling is now blocked'),
    );
    expect(screen.queryByRole('region', { name: 'Set by a schedule' })).toBeNull();
  });

  it('default block: pausing the schedule until a chosen time keeps the change till then', async () => {
    const bedtime: ScheduleRule = {
      ...HOMEWORK,
      id: 'bedtime',
      name: 'Bedtime',
      owns: [{ kind: 'default-block', inside: true, outside: false }],
    };
    const { accountId } = await renderWithSchedule(bedtime);
    const defaultBlock = within(section('Default block'));
    fireEvent.click(defaultBlock.getByRole('checkbox', { name: 'Block everything not on the whitelist' }));
    const notice = within(await screen.findByRole('region', { name: 'Set by a schedule' }));
    expect(notice.getByText(/“Bedtime” changes Default block at set times/)).toBeTruthy();

    const until = new Date(Date.now() + 3 * 3_600_000);
    until.setSeconds(0, 0);
    const local = new Date(until.getTime() - until.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    fireEvent.input(notice.getByLabelText('Pause until'), { target: { value: local } });
    fireEvent.click(notice.getByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(notice.getByText(/“Bedtime” is paused until/)).toBeTruthy());
    expect((await schedulesItem.getValue())[accountId]?.overrides).toEqual([
      { rule: 'bedtime', kind: 'release', from: expect.any(Number), until: until.getTime() },
    ]);
  });
});

describe('a domain a schedule owns, added or removed in the options page’s lists', () => {
  const gamesBlocked: ScheduleRule = {
    ...HOMEWORK,
    id: 'games',
    name: 'Games at night',
    owns: [{ kind: 'domain', domain: 'games.example', inside: 'blocklist', outside: 'none' }],
  };

  async function renderLists() {
    await apiKeyItem.setValue('sk-live-0123456789abcdef');
    await connectionItem.setValue({ baseUrl: 'https://my.cleanbrowsing.org', form: 'A' });
    const accountId = (await readAccounts()).activeId;
    await schedulesItem.setValue({ [accountId]: { leadMinutes: 0, rules: [gamesBlocked], overrides: [] } });
    const client = createFakeClient('A');
    await renderAccount({ client });
    const whitelist = within(section('Whitelist'));
    await waitFor(() => whitelist.getByRole('button', { name: 'Add to whitelist' }));
    return { accountId, whitelist, client };
  }

  it('adding it says which schedule owns it (and not for the other domains added with it); Keep until stores the release', async () => {
    const { accountId, whitelist } = await renderLists();
    fireEvent.input(whitelist.getByLabelText('Domains to add to the whitelist'), {
      target: { value: 'school.example\nGames.example' },
    });
    fireEvent.click(whitelist.getByRole('button', { name: 'Add to whitelist' }));
    const notice = within(await screen.findByRole('region', { name: 'Set by a schedule' }));
    expect(notice.getByText(/^“Games at night” changes games\.example at set times\./)).toBeTruthy();
    fireEvent.click(notice.getByRole('button', keepUntil(englishClock(SIX_TODAY))));
    await waitFor(() =>
      expect(notice.getByText(/Kept: “Games at night” leaves it alone until/)).toBeTruthy(),
    );
    expect((await schedulesItem.getValue())[accountId]?.overrides).toMatchObject([
      { rule: 'games', kind: 'release' },
    ]);
  });

  it('removing it says so too; a domain no schedule owns says nothing', async () => {
    const { whitelist } = await renderLists();
    fireEvent.input(whitelist.getByLabelText('Domains to add to the whitelist'), {
      target: { value: 'school.example' },
    });
    fireEvent.click(whitelist.getByRole('button', { name: 'Add to whitelist' }));
    await waitFor(() => whitelist.getByRole('button', { name: 'Remove school.example from the whitelist' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: 'Set by a schedule' })).toBeNull();

    fireEvent.input(whitelist.getByLabelText('Domains to add to the whitelist'), {
      target: { value: 'games.example' },
    });
    fireEvent.click(whitelist.getByRole('button', { name: 'Add to whitelist' }));
    await screen.findByRole('region', { name: 'Set by a schedule' });
    fireEvent.click(
      await whitelist.findByRole('button', { name: 'Remove games.example from the whitelist' }),
    );
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Set by a schedule' })).toBeNull());
    expect(
      within(await screen.findByRole('region', { name: 'Set by a schedule' })).getByText(
        /^“Games at night” changes games\.example/,
      ),
    ).toBeTruthy();
  });
});
