/**
 * The popup's verdict mentions why the deciding entry is on its list (lib/notes): when and from
 * where it was added here, and its note. It reads only the configured account's records.
 */
import { cleanup, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { notes } from '@/lib/notes';
import { outboxItem } from '@/lib/settings/storage';
import { testAccount } from '../account-ids';
import { accountOf, cacheAt, createFakeApi, MINUTE, openPopup, T0 } from './popup-harness';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

const verdictText = () => screen.getByRole('status', { name: 'Verdict' }).textContent ?? '';

async function cachedLists(lists: { whitelist: string[]; blocklist: string[] }) {
  await cacheAt(T0 - 2 * MINUTE).saveLists('A:default', accountOf('A'), lists);
  await cacheAt(T0 - 2 * MINUTE).saveProfiles(accountOf('A'), ['default']);
}

/** The record as the outbox made it, added on `addedAt`. */
async function recordAdded(
  list: 'whitelist' | 'blocklist',
  domain: string,
  addedAt: number,
  account = accountOf('A'),
) {
  const address = { scope: 'A:default', list, domain } as const;
  await notes.recordAdded(account, [{ ...address, source: 'menu', page: 'portal.school.example' }]);
  const stored = await notes.read(account);
  await fakeBrowser.storage.local.set({
    [`listNotes:${account}`]: { ...stored, entries: stored.entries.map((entry) => ({ ...entry, addedAt })) },
  });
  return address;
}

describe('the verdict line and the entry’s record', () => {
  it('names when, from where and the note of the entry that decides the verdict', async () => {
    await cachedLists({ whitelist: ['school.example'], blocklist: [] });
    const address = await recordAdded('whitelist', 'school.example', new Date(T0).setMonth(4, 3));
    await notes.setNote(accountOf('A'), address, 'school portal');

    const popup = await openPopup({ url: 'https://portal.school.example/', api: createFakeApi('A') });
    await popup.started;
    await waitFor(() =>
      expect(verdictText()).toMatch(
        /^Allowed: .*whitelist.* Since May 3, from the right-click menu: “school portal”$/,
      ),
    );
  });

  it('without a note, still says when and from where; an entry not added here, nothing more', async () => {
    await cachedLists({ whitelist: [], blocklist: ['ads.example', 'tracker.example'] });
    await recordAdded('blocklist', 'ads.example', new Date(T0).setMonth(0, 15));
    const popup = await openPopup({ url: 'https://ads.example/', api: createFakeApi('A') });
    await popup.started;
    await waitFor(() =>
      expect(verdictText()).toMatch(/^Blocked: .* Since Jan 15, from the right-click menu\.$/),
    );
    cleanup();

    const other = await openPopup({ url: 'https://tracker.example/', api: createFakeApi('A') });
    await other.started;
    await waitFor(() => expect(verdictText()).toMatch(/^Blocked: /));
    expect(verdictText()).not.toMatch(/Since|from the/);
  });

  it('another account’s record of the same entry is not this one’s', async () => {
    await cachedLists({ whitelist: ['school.example'], blocklist: [] });
    const elsewhere = testAccount('A', 'fedcba9876543210').id;
    await recordAdded('whitelist', 'school.example', T0, elsewhere);
    const popup = await openPopup({ url: 'https://school.example/', api: createFakeApi('A') });
    await popup.started;
    await waitFor(() => expect(verdictText()).toMatch(/^Allowed: /));
    expect(verdictText()).not.toMatch(/Since/);
  });
});

it('a verdict that counts a change not sent yet says so, and nothing of a record', async () => {
  await cachedLists({ whitelist: [], blocklist: [] });
  await recordAdded('blocklist', 'shop.example', T0);
  await outboxItem.setValue([
    {
      id: 'c1',
      change: { op: 'add', list: 'blocklist', domain: 'shop.example', profile: 'default', source: 'popup' },
      account: accountOf('A'),
      createdAt: T0,
      attempts: 1,
      nextAttemptAt: T0 + MINUTE,
    },
  ]);
  const popup = await openPopup({ url: 'https://shop.example/', api: createFakeApi('A') });
  await popup.started;
  await waitFor(() => expect(verdictText()).toMatch(/^Blocked: .*Not sent yet\.$/));
  expect(verdictText()).not.toMatch(/Since/);
});
