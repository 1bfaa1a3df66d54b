/**
 * Removing an account leaves nothing of it in storage: not the unbreaks made in it (with the
 * hosts of the pages visited) or its schedules, nor what was recorded under a key it had before (changed in Setup).
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { SetupSection } from '@/components/options/SetupSection';
import { countWaitingChanges, createAccounts } from '@/lib/accounts';
import { forgetAccount } from '@/lib/accounts/forget';
import { activateAccount, readAccounts } from '@/lib/accounts/store';
import { notes } from '@/lib/notes';
import { enqueueChange } from '@/lib/outbox';
import { schedulesItem } from '@/lib/schedules/store';
import { apiKeyItem, connectionItem, type UnbreakSession, unbreakSessionsItem } from '@/lib/settings/storage';
import { accountIdFor, fingerprintOf } from '../account-ids';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

const unbreakIn = (account: string, pageHost: string): UnbreakSession => ({
  id: `unbreak-${pageHost}`,
  account,
  site: pageHost.split('.').slice(-2).join('.'),
  pageHost,
  startedAt: 1,
  expiresAt: 2,
  domains: [{ domain: `cdn.${pageHost}`, before: 'none', allowedAt: 1, loads: 0 }],
});

/** Everything the extension stores, as one text. */
async function everythingStored(): Promise<string> {
  const [local, session] = await Promise.all([
    fakeBrowser.storage.local.get(null),
    fakeBrowser.storage.session.get(null),
  ]);
  return JSON.stringify({ local, session });
}

describe('removing an account', () => {
  it('leaves nothing of it: its unbreaks, and what was recorded under a key it had before', async () => {
    vi.spyOn(fakeBrowser.permissions, 'request').mockResolvedValue(true);
    await apiKeyItem.setValue('key-of-home');
    await connectionItem.setValue({ baseUrl: 'https://home.example', form: 'A' });
    const home = accountIdFor('A', 'https://home.example', 'key-of-home');
    const officeId = await createAccounts({
      confirm: async () => true,
      permissions: { request: async () => true, remove: async () => true },
      removeInWorker: async () => ({ removed: true, discarded: 0 }),
    }).add({ name: 'Office', key: 'key-of-office', baseUrl: 'https://office.example', form: 'B' });
    await activateAccount(officeId);
    const entry = { scope: 'B:account', list: 'whitelist', domain: 'tools.example' } as const;
    const firstKey = accountIdFor('B', 'https://office.example', 'key-of-office');
    await notes.recordAdded(firstKey, [{ ...entry, source: 'popup', page: 'intranet.office-pages.example' }]);
    await notes.setNote(firstKey, entry, 'for the intranet');
    // A change that waited for the first key, listed with other accounts' changes.
    await enqueueChange({ op: 'add', list: 'whitelist', domain: 'tools.example', source: 'popup' }, firstKey);

    // The user gives the Office account a new key in Setup.
    render(<SetupSection />);
    const keyField = screen.getByLabelText('API key') as HTMLInputElement;
    await waitFor(() => expect(keyField.value).toBe('key-of-office'));
    fireEvent.input(keyField, { target: { value: 'key-of-office-2' } });
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    await waitFor(() => expect(save.disabled).toBe(false));
    fireEvent.click(save);
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Saved.'));

    const secondKey = accountIdFor('B', 'https://office.example', 'key-of-office-2');
    await notes.recordAdded(secondKey, [{ ...entry, source: 'menu', page: 'wiki.office-pages.example' }]);
    await notes.recordAdded(home, [
      { ...entry, scope: 'A:default', source: 'popup', page: 'home-pages.example' },
    ]);
    const schedulesOf = (name: string) => ({
      leadMinutes: 45,
      rules: [
        {
          id: 'r1',
          name,
          days: [1 as const],
          windows: [{ start: '09:00', end: '17:00' }],
          owns: [
            {
              kind: 'domain' as const,
              domain: `${name}.example`,
              inside: 'blocklist' as const,
              outside: 'none' as const,
            },
          ],
        },
      ],
      overrides: [],
    });
    const homeId = (await readAccounts()).accounts.find((account) => account.id !== officeId)!.id;
    await schedulesItem.setValue({
      [officeId]: schedulesOf('office-pages'),
      [homeId]: schedulesOf('home-pages'),
    });
    await unbreakSessionsItem.setValue([
      unbreakIn(secondKey, 'shop.office-pages.example'),
      unbreakIn(home, 'news.home-pages.example'),
    ]);

    // The removal's confirmation counts it among the changes it discards.
    expect(await countWaitingChanges(officeId)).toBe(1);
    const outcome = await forgetAccount(officeId, {
      alarms: fakeBrowser.alarms,
      alarmsOf: () => [],
      leasesOf: () => [],
    });

    expect(outcome).toEqual({ removed: true, discarded: 1 });
    const stored = await everythingStored();
    for (const trace of [
      'office-pages.example',
      'key-of-office',
      fingerprintOf('key-of-office'),
      fingerprintOf('key-of-office-2'),
    ]) {
      expect(stored).not.toContain(trace);
    }
    // Nothing of the other account went with it.
    expect((await readAccounts()).accounts.map((account) => account.key)).toEqual(['key-of-home']);
    expect((await notes.read(home)).entries).toHaveLength(1);
    expect(await unbreakSessionsItem.getValue()).toEqual([unbreakIn(home, 'news.home-pages.example')]);
    expect(Object.keys(await schedulesItem.getValue())).toEqual([homeId]);
  });
});
