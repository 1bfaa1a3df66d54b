/**
 * A popup acts on the account it shows: its change requests name that account, and when another
 * account became active meanwhile (switched in another window), the worker refuses the change and
 * the popup says which account it showed, which one is active now, and to reopen it.
 */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { activateAccount, readAccountNames } from '@/lib/accounts/store';
import { createRequestHandlers } from '@/lib/messaging/handlers';
import type { ListChange } from '@/lib/messaging/protocol';
import { accountKeysItem, accountsItem, connectionItem } from '@/lib/settings/storage';
import { fakeWorkerJobs } from '../../fakes/fake-worker-jobs';
import { BASE_URL, openPopup } from './popup-harness';

const HOME = 'home-account-0001';
const WORK = 'work-account-0002';

beforeEach(async () => {
  fakeBrowser.reset();
  await accountsItem.setValue({
    active: HOME,
    accounts: [
      { id: HOME, name: 'Home', createdAt: 1 },
      {
        id: WORK,
        name: 'Work',
        createdAt: 2,
        parked: { [connectionItem.key]: { baseUrl: BASE_URL, form: 'B' } },
      },
    ],
  });
  await accountKeysItem.setValue({ [WORK]: 'work-key' });
});
afterEach(cleanup);

/** The worker's answer to the popup's change requests: its real handlers, with a service that takes everything. */
function worker() {
  const delivered: ListChange[] = [];
  const handlers = createRequestHandlers(
    fakeWorkerJobs({
      submit: async (change) => {
        delivered.push(change);
        return { state: 'delivered', message: `Done: ${change.domain}.` };
      },
      submitToProfiles: async (change, profiles) => {
        delivered.push(...profiles.map((profile) => ({ ...change, profile })));
        return { outcomes: profiles.map((profile) => ({ profile, state: 'delivered', message: 'Done.' })) };
      },
      accountNames: readAccountNames,
    }),
  );
  return { handlers, delivered };
}

const outcomeText = () => screen.getByRole('status', { name: 'Change outcome' }).textContent ?? '';

describe('a popup still showing the account that was active when it opened', () => {
  it('acts on it while it is active', async () => {
    const { handlers, delivered } = worker();
    const popup = await openPopup({
      url: 'https://www.shop.example/',
      key: 'home-key',
      submitChange: (change, sentWith) =>
        handlers['submit-change']({ type: 'submit-change', change, ...sentWith }, 'popup'),
    });
    await popup.started;
    fireEvent.click(await screen.findByRole('button', { name: 'Whitelist' }));
    await waitFor(() => expect(outcomeText()).toBe('Done: shop.example.'));
    expect(delivered.map((change) => change.domain)).toEqual(['shop.example']);
  });

  it('says that another account is active now and to reopen it, naming both; nothing is changed', async () => {
    const { handlers, delivered } = worker();
    const popup = await openPopup({
      url: 'https://www.shop.example/',
      key: 'home-key',
      submitChange: (change, sentWith) =>
        handlers['submit-change']({ type: 'submit-change', change, ...sentWith }, 'popup'),
    });
    await popup.started;
    // The popup has read which account it shows (once its first view is up).
    await popup.controller.shownAccountId?.();
    // Work is chosen in another window while this popup still shows Home.
    expect(await activateAccount(WORK)).toBe(true);

    fireEvent.click(await screen.findByRole('button', { name: 'Whitelist' }));
    await waitFor(() =>
      expect(outcomeText()).toBe(
        'This popup was showing account Home; it is now Work: reopen it. Nothing was changed.',
      ),
    );
    expect(delivered).toEqual([]);
    // No undo is offered for a change that was not made.
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
  });
});
