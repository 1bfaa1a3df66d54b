/**
 * "Copy a profile" in the options page's Profiles section (components/options/CopyProfilePanel.tsx):
 * a preview of every change, nothing sent before the confirmation dialog, the outcome, and a
 * Retry of the changes not done.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { AccountContext, accountScope } from '@/components/options/account-context';
import { CopyProfilePanel } from '@/components/options/CopyProfilePanel';
import { createFakeClient, refused } from '../../fakes/fake-client';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

function renderCopy() {
  const service = createFakeClient('A');
  service.state.profiles.push('kids1', 'kids2');
  service.state.blocked.kids1 = new Set(['category_gambling']);
  service.state.lists.whitelist.kids1 = new Set(['school.example']);
  service.state.lists.blocklist.kids1 = new Set(['casino.example']);
  service.state.lists.whitelist.kids2 = new Set(['casino.example']);
  const profiles = ['default', 'kids1', 'kids2'];
  let changed = 0;
  render(
    <AccountContext.Provider value={accountScope({ client: service }, 'default', profiles)}>
      <CopyProfilePanel profiles={profiles} onChanged={() => changed++} />
    </AccountContext.Provider>,
  );
  return { service, changed: () => changed };
}

describe('copying a profile in the options page', () => {
  it('onto another profile: previews each change, sends after the dialog, says it is done', async () => {
    const { service, changed } = renderCopy();
    fireEvent.change(screen.getByRole('combobox', { name: 'Copy from' }), { target: { value: 'kids1' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Copy onto' }), { target: { value: 'kids2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show what changes' }));
    const preview = await screen.findByRole('list', { name: 'Changes to kids2' });
    expect(
      within(preview)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Block the category Gambling',
      'Remove casino.example from the whitelist',
      'Add school.example to the whitelist',
      'Add casino.example to the blocklist',
    ]);
    const callsBefore = service.calls.length;

    fireEvent.click(screen.getByRole('button', { name: 'Copy…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Copy kids1 onto kids2?' });
    expect(service.calls.length).toBe(callsBefore);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copy' }));
    await screen.findByText('Copied kids1 onto kids2: all 4 changes done.');
    expect([...(service.state.lists.whitelist.kids2 ?? [])]).toEqual(['school.example']);
    expect([...(service.state.lists.blocklist.kids2 ?? [])]).toEqual(['casino.example']);
    expect([...(service.state.blocked.kids2 ?? [])]).toEqual(['category_gambling']);
    expect(changed()).toBe(1);
  });

  it('into a new profile; a change the service refuses is named, and Retry sends it alone', async () => {
    const { service } = renderCopy();
    fireEvent.change(screen.getByRole('combobox', { name: 'Copy from' }), { target: { value: 'kids1' } });
    fireEvent.input(screen.getByRole('textbox', { name: 'Name of the copy' }), {
      target: { value: 'teens2024' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Show what changes' }));
    await screen.findByRole('list', { name: 'Changes to teens2024' });
    service.failNext('addDomain', refused('Domain not allowed'), 1);
    fireEvent.click(screen.getByRole('button', { name: 'Copy…' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Copy' }));
    await screen.findByText(/in part: 3 of 4 changes done/);
    expect(
      screen.getByText('Add school.example to the whitelist: Could not do it: Domain not allowed'),
    ).toBeTruthy();

    service.calls.length = 0;
    fireEvent.click(screen.getByRole('button', { name: 'Retry the changes not done' }));
    await screen.findByText('Copied kids1 onto teens2024: all 4 changes done.');
    expect(service.calls).toEqual(['whitelist/add school.example teens2024']);
    await waitFor(() => expect(service.state.profiles).toContain('teens2024'));
  });
});
