/**
 * Undo of a removal in the popup puts the entry back with its record (lib/notes): when and from
 * where it was first added, on which page, and the user's note. The changes go through the real
 * outbox (lib/outbox), which records additions and forgets confirmed removals.
 */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { identityOf } from '@/lib/identity/identity';
import { notes, recordOf } from '@/lib/notes';
import { deliverPending, type OutboxDeps, submitChange } from '@/lib/outbox';
import { offline } from '../../fakes/fake-client';
import { currentAccountOf, fingerprintOf } from '../account-ids';
import {
  accountOf,
  BASE_URL,
  cacheAt,
  createFakeApi,
  type FakeApi,
  MINUTE,
  openPopup,
  T0,
} from './popup-harness';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

const verdictText = () => screen.getByRole('status', { name: 'Verdict' }).textContent ?? '';
const outcomeText = () => screen.getByRole('status', { name: 'Change outcome' }).textContent ?? '';
const MAY_3 = new Date(T0).setMonth(4, 3);
type List = 'whitelist' | 'blocklist';
const entryOn = (list: List) => ({ scope: 'A:default', list, domain: 'school.example' }) as const;
const school = entryOn('whitelist');
const VERDICT_WORD = { whitelist: 'Allowed', blocklist: 'Blocked' } as const;
/** The verdict line naming the entry's origin and note. */
const notedOn = (list: List) =>
  new RegExp(`^${VERDICT_WORD[list]}: .* Since May 3, from the right-click menu: “school portal”$`);
const noted = notedOn('whitelist');

/** The worker's outbox, delivering to `api` for the account the popup is configured with. */
function outboxFor(api: FakeApi): OutboxDeps {
  const identity = identityOf({ origin: BASE_URL, form: 'A', keyFingerprint: fingerprintOf('test-key') });
  return { getAccount: currentAccountOf(api, identity), alarms: fakeBrowser.alarms, now: () => T0 };
}

/** school.example on `list`, added from the right-click menu on 3 May, with a note. */
async function listedWithNote(list: List) {
  await cacheAt(T0 - 2 * MINUTE).saveLists('A:default', accountOf('A'), {
    whitelist: [],
    blocklist: [],
    [list]: ['school.example'],
  });
  await cacheAt(T0 - 2 * MINUTE).saveProfiles(accountOf('A'), ['default']);
  const entry = entryOn(list);
  await notes.recordAdded(accountOf('A'), [{ ...entry, source: 'menu', page: 'portal.school.example' }]);
  await notes.setNote(accountOf('A'), entry, 'school portal');
  const stored = await notes.read(accountOf('A'));
  await fakeBrowser.storage.local.set({
    [`listNotes:${accountOf('A')}`]: {
      ...stored,
      entries: stored.entries.map((record) => ({ ...record, addedAt: MAY_3 })),
    },
  });
  return createFakeApi('A', { [list]: { default: ['school.example'] } });
}

/** The popup on school.example, its verdict naming the note, its changes sent by the real outbox. */
async function popupOnNotedEntry(list: List = 'whitelist') {
  const api = await listedWithNote(list);
  const deps = outboxFor(api);
  const popup = await openPopup({
    url: 'https://school.example/',
    api,
    submitChange: (change) => submitChange(change, deps),
  });
  await popup.started;
  await waitFor(() => expect(verdictText()).toMatch(notedOn(list)));
  return { api, deps };
}

/** The record the entry had before any of the popup's changes. */
const originalOn = (list: List) => ({
  ...entryOn(list),
  addedAt: MAY_3,
  source: 'menu',
  page: 'portal.school.example',
  note: 'school portal',
});
const original = originalOn('whitelist');

describe('Undo of a removal', () => {
  it('brings back the entry’s note and origin, in the verdict line and in storage', async () => {
    const { api } = await popupOnNotedEntry();

    fireEvent.click(screen.getByRole('button', { name: 'Remove from whitelist' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Undo' })).toBeTruthy());
    expect(verdictText()).toMatch(/^Not blocked/);
    // The confirmed removal took the record with it.
    expect(recordOf(await notes.read(accountOf('A')), school)).toBeUndefined();

    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(verdictText()).toMatch(noted));
    expect(await api.listDomains('whitelist', 'default')).toContain('school.example');
    expect(recordOf(await notes.read(accountOf('A')), school)).toEqual({
      ...original,
      at: expect.any(Number),
    });
  });

  it('keeps the note when the removal and its undo wait for the service, and both go out later', async () => {
    const { api, deps } = await popupOnNotedEntry();

    api.failWith(offline());
    fireEvent.click(screen.getByRole('button', { name: 'Remove from whitelist' }));
    await waitFor(() => expect(outcomeText()).toMatch(/^Waiting to remove school\.example/));
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(outcomeText()).toMatch(/Waiting to add school\.example/));

    api.failWith(null);
    await deliverPending(deps, { force: true });
    expect(await api.listDomains('whitelist', 'default')).toContain('school.example');
    expect(recordOf(await notes.read(accountOf('A')), school)).toEqual({
      ...original,
      at: expect.any(Number),
    });
  });

  it('a move to the other list, undone, brings back the first list’s note', async () => {
    const { api } = await popupOnNotedEntry('blocklist');
    fireEvent.click(screen.getByRole('button', { name: 'Whitelist' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Undo' })).toBeTruthy());
    expect(recordOf(await notes.read(accountOf('A')), entryOn('blocklist'))).toBeUndefined();

    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(verdictText()).toMatch(notedOn('blocklist')));
    expect(await api.listDomains('blocklist', 'default')).toContain('school.example');
    expect((await notes.read(accountOf('A'))).entries).toEqual([
      { ...originalOn('blocklist'), at: expect.any(Number) },
    ]);
  });

  it('a removal not undone still takes the record once the service confirms it', async () => {
    await popupOnNotedEntry();
    fireEvent.click(screen.getByRole('button', { name: 'Remove from whitelist' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Undo' })).toBeTruthy());
    expect(verdictText()).toMatch(/^Not blocked/);
    expect(recordOf(await notes.read(accountOf('A')), school)).toBeUndefined();
  });
});
