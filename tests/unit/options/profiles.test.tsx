import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { AccountManagement } from '@/components/options/AccountManagement';
import { ApiError } from '@/lib/api/errors';
import { managedProfileItem } from '@/lib/settings/storage';
import { createFakeClient } from '../../fakes/fake-client';
import { renderAccount, section } from './render-account';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

describe('Profiles section', () => {
  it('lists the profiles and offers no way to delete default', async () => {
    const client = createFakeClient('A', { profiles: ['default', 'kids1'] });
    await renderAccount({ client });
    const profiles = within(section('Profiles'));
    expect(profiles.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      expect.stringContaining('default'),
      expect.stringContaining('kids1'),
    ]);
    expect(profiles.queryByRole('button', { name: 'Delete profile default' })).toBeNull();
    expect(profiles.getByRole('button', { name: 'Delete profile kids1' })).toBeTruthy();
  });

  it('adds a valid profile and clears the box', async () => {
    const client = createFakeClient('A');
    const listed: (readonly string[])[] = [];
    await renderAccount({ client, onProfilesListed: (profiles) => void listed.push(profiles) });
    const profiles = within(section('Profiles'));
    fireEvent.input(profiles.getByRole('textbox', { name: 'New profile name' }), {
      target: { value: 'office2' },
    });
    fireEvent.click(profiles.getByRole('button', { name: 'Add profile' }));
    await waitFor(() => expect(profiles.getByRole('status').textContent).toBe('Added profile office2.'));
    expect(client.state.profiles).toEqual(['default', 'office2']);
    await profiles.findByRole('button', { name: 'Delete profile office2' });
    expect((profiles.getByRole('textbox', { name: 'New profile name' }) as HTMLInputElement).value).toBe('');
    // The new profile can be chosen at once.
    const picker = screen.getByRole('combobox', { name: 'Profile' });
    expect(within(picker).getByRole('option', { name: 'office2' })).toBeTruthy();
    // The context menu's cached profiles follow.
    expect(listed.at(-1)).toEqual(['default', 'office2']);
  });

  it.each([
    ['abc', 'at least 4'],
    ['my kids', 'only letters and digits'],
  ])('refuses %j without calling the service and keeps it in the box', async (name, reason) => {
    const client = createFakeClient('A');
    await renderAccount({ client });
    const profiles = within(section('Profiles'));
    fireEvent.input(profiles.getByRole('textbox', { name: 'New profile name' }), { target: { value: name } });
    fireEvent.click(profiles.getByRole('button', { name: 'Add profile' }));
    await waitFor(() => expect(profiles.getByRole('status').textContent).toContain(reason));
    expect(client.invocations.some((call) => call.method === 'addProfile')).toBe(false);
    expect((profiles.getByRole('textbox', { name: 'New profile name' }) as HTMLInputElement).value).toBe(
      name,
    );
  });

  it("shows the service's reason when adding fails and keeps the name", async () => {
    const client = createFakeClient('A');
    client.failNext(
      'addProfile',
      new ApiError('service', 'Could not add profile work: Profile limit reached'),
    );
    await renderAccount({ client });
    const profiles = within(section('Profiles'));
    fireEvent.input(profiles.getByRole('textbox', { name: 'New profile name' }), {
      target: { value: 'work' },
    });
    fireEvent.click(profiles.getByRole('button', { name: 'Add profile' }));
    await waitFor(() => expect(profiles.getByRole('status').textContent).toContain('Profile limit reached'));
    expect((profiles.getByRole('textbox', { name: 'New profile name' }) as HTMLInputElement).value).toBe(
      'work',
    );
  });

  it('deletes a profile only after confirmation', async () => {
    const client = createFakeClient('A', { profiles: ['default', 'kids1'] });
    await renderAccount({ client });
    const profiles = within(section('Profiles'));

    fireEvent.click(profiles.getByRole('button', { name: 'Delete profile kids1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete profile kids1?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(client.state.profiles).toEqual(['default', 'kids1']);

    fireEvent.click(profiles.getByRole('button', { name: 'Delete profile kids1' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(profiles.getByRole('status').textContent).toBe('Deleted profile kids1.'));
    expect(client.state.profiles).toEqual(['default']);
    await waitFor(() => expect(profiles.queryByRole('button', { name: 'Delete profile kids1' })).toBeNull());
  });

  it('falls back to default when the profile shown below is deleted', async () => {
    await managedProfileItem.setValue('kids1');
    const client = createFakeClient('A', { profiles: ['default', 'kids1'] });
    await renderAccount({ client });
    const picker = screen.getByRole('combobox', { name: 'Profile' }) as HTMLSelectElement;
    expect(picker.value).toBe('kids1');
    fireEvent.click(within(section('Profiles')).getByRole('button', { name: 'Delete profile kids1' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(picker.value).toBe('default'));
    expect(await managedProfileItem.getValue()).toBe('default');
  });
});

describe('account loading', () => {
  it('says why the account cannot be opened and retries on request', async () => {
    const client = createFakeClient('B');
    client.failNext(
      'listProfiles',
      new ApiError('bad-key', 'The service refused the API key: Invalid API key'),
    );
    render(<AccountManagement client={client} />);
    expect((await screen.findByRole('alert')).textContent).toContain('Invalid API key');
    expect(screen.queryByRole('heading', { name: 'Categories' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('heading', { name: 'Categories' });
  });
});
