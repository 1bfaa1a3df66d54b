import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { ApiError } from '@/lib/api/errors';
import { managedProfileItem } from '@/lib/settings/storage';
import { createFakeClient } from '../../fakes/fake-client';
import { renderAccount, section } from './render-account';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

const checkbox = (name: string) =>
  within(section('Categories')).getByRole('checkbox', { name }) as HTMLInputElement;

describe('Categories section', () => {
  it('shows every Form A category with its state and the description from the spec', async () => {
    const client = createFakeClient('A', { blocked: { default: new Set(['category_adult']) } });
    await renderAccount({ client });
    const categories = within(section('Categories'));
    await waitFor(() => expect(categories.getAllByRole('checkbox')).toHaveLength(20));
    expect(checkbox('Adult').checked).toBe(true);
    expect(checkbox('Gambling').checked).toBe(false);
    expect(checkbox('Malicious').getAttribute('aria-describedby')).toBeTruthy();
    const describedBy = document.getElementById(checkbox('Malicious').getAttribute('aria-describedby')!);
    expect(describedBy?.textContent).toBe('malware, phishing, malicious domains');
  });

  it('blocks a category for the chosen profile', async () => {
    await managedProfileItem.setValue('kids1');
    const client = createFakeClient('A', { profiles: ['default', 'kids1'] });
    await renderAccount({ client });
    await waitFor(() => checkbox('Gambling'));
    fireEvent.click(checkbox('Gambling'));
    await waitFor(() =>
      expect(within(section('Categories')).getByRole('status').textContent).toContain(
        'Gambling is now blocked for profile kids1.',
      ),
    );
    expect([...(client.state.blocked.kids1 ?? [])]).toEqual(['category_gambling']);
    expect(client.state.blocked.default ?? new Set()).toEqual(new Set());
    expect(checkbox('Gambling').checked).toBe(true);
  });

  it("puts the box back and shows the service's reason when the change fails", async () => {
    const client = createFakeClient('A');
    client.failNext(
      'setCategoryBlocked',
      new ApiError('service', 'Could not block Dating: Category is locked'),
    );
    await renderAccount({ client });
    await waitFor(() => checkbox('Dating'));
    fireEvent.click(checkbox('Dating'));
    await waitFor(() =>
      expect(within(section('Categories')).getByRole('status').textContent).toContain('Category is locked'),
    );
    expect(checkbox('Dating').checked).toBe(false);
  });

  it('in Form B shows the ten categories of the whole account and no profile picker', async () => {
    const client = createFakeClient('B', { blocked: { account: new Set(['malware']) } });
    await renderAccount({ client });
    await waitFor(() => expect(within(section('Categories')).getAllByRole('checkbox')).toHaveLength(10));
    expect(checkbox('Malware').checked).toBe(true);
    expect(screen.queryByRole('combobox', { name: 'Profile' })).toBeNull();
    expect(within(section('Categories')).getByText('Whole account')).toBeTruthy();
    fireEvent.click(checkbox('Video streaming'));
    await waitFor(() => expect(client.state.blocked.account?.has('streaming')).toBe(true));
    expect(within(section('Categories')).getByRole('status').textContent).toContain('for the whole account');
  });
});

describe('profile picker', () => {
  it('switches every section to the chosen profile and remembers it', async () => {
    const client = createFakeClient('A', {
      profiles: ['default', 'kids1'],
      lists: { whitelist: { default: new Set(['one.com']), kids1: new Set(['two.com']) }, blocklist: {} },
    });
    await renderAccount({ client });
    const whitelist = within(section('Whitelist'));
    await whitelist.findByText('one.com');
    fireEvent.change(screen.getByRole('combobox', { name: 'Profile' }), { target: { value: 'kids1' } });
    await whitelist.findByText('two.com');
    expect(whitelist.queryByText('one.com')).toBeNull();
    expect(await managedProfileItem.getValue()).toBe('kids1');
  });
});
