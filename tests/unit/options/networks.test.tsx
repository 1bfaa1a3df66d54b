import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { ApiError } from '@/lib/api/errors';
import { createFakeClient } from '../../fakes/fake-client';
import { renderAccount, section } from './render-account';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

const rowTexts = () =>
  within(within(section('Networks')).getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.textContent);

describe('Networks section', () => {
  it("lists the networks and marks the one with this browser's address", async () => {
    const client = createFakeClient('B', {
      networks: [
        { ip: '203.0.113.50', label: 'Home Network', profile: 'default' },
        { ip: '198.51.100.7', label: 'Office', profile: 'work' },
      ],
    });
    await renderAccount({ client, lookUpPublicIpAtOnce: true, lookupPublicIp: async () => '203.0.113.50' });
    await waitFor(() =>
      expect(rowTexts()).toEqual([
        expect.stringMatching(/^198\.51\.100\.7OfficeworkRemove$/),
        expect.stringMatching(/^203\.0\.113\.50 this browserHome NetworkdefaultRemove$/),
      ]),
    );
    expect(
      within(section('Networks')).getByText("This browser's public address is 203.0.113.50."),
    ).toBeTruthy();
  });

  it('says when the address could not be found, and still lists the networks', async () => {
    const client = createFakeClient('A', { networks: [{ ip: '1.2.3.4', profile: 'default' }] });
    await renderAccount({
      client,
      lookUpPublicIpAtOnce: true,
      lookupPublicIp: async () => {
        throw new ApiError('network', 'The public IPv4 address could not be found (x: not reachable).');
      },
    });
    const networks = within(section('Networks'));
    await networks.findByText(/could not be found/);
    await waitFor(() => expect(rowTexts()).toEqual([expect.not.stringContaining('this browser')]));
  });

  it('adds a network with label and profile (Form A) using the looked-up address', async () => {
    const client = createFakeClient('A', { profiles: ['default', 'kids1'] });
    await renderAccount({ client, lookUpPublicIpAtOnce: true, lookupPublicIp: async () => '192.0.2.9' });
    const networks = within(section('Networks'));
    fireEvent.click(await networks.findByRole('button', { name: "Use this browser's address" }));
    fireEvent.input(networks.getByRole('textbox', { name: 'Label for the new network' }), {
      target: { value: ' Kids room ' },
    });
    fireEvent.change(networks.getByRole('combobox', { name: 'Profile for the new network' }), {
      target: { value: 'kids1' },
    });
    fireEvent.click(networks.getByRole('button', { name: 'Add network' }));
    await waitFor(() =>
      expect(networks.getByRole('status').textContent).toBe(
        'Added network 192.0.2.9 (Kids room) with profile kids1.',
      ),
    );
    expect(client.invocations.find((call) => call.method === 'addNetwork')?.args[0]).toEqual({
      ip: '192.0.2.9',
      label: 'Kids room',
      profile: 'kids1',
    });
    await waitFor(() => expect(rowTexts()).toEqual([expect.stringContaining('192.0.2.9 this browser')]));
    expect((networks.getByRole('textbox', { name: 'IPv4 address' }) as HTMLInputElement).value).toBe('');
  });

  it('in Form B adds without a profile; a refused address stays in the box', async () => {
    const client = createFakeClient('B');
    await renderAccount({ client });
    const networks = within(section('Networks'));
    expect(networks.queryByRole('combobox', { name: 'Profile for the new network' })).toBeNull();
    const ip = networks.getByRole('textbox', { name: 'IPv4 address' }) as HTMLInputElement;
    fireEvent.input(ip, { target: { value: '300.1.1.1' } });
    fireEvent.click(networks.getByRole('button', { name: 'Add network' }));
    await waitFor(() => expect(networks.getByRole('status').textContent).toContain('is not an IPv4 address'));
    expect(ip.value).toBe('300.1.1.1');

    fireEvent.input(ip, { target: { value: '203.0.113.60' } });
    fireEvent.click(networks.getByRole('button', { name: 'Add network' }));
    await waitFor(() => expect(networks.getByRole('status').textContent).toBe('Added network 203.0.113.60.'));
    expect(client.invocations.find((call) => call.method === 'addNetwork')?.args[0]).toEqual({
      ip: '203.0.113.60',
    });
  });

  it('removes a network after confirmation, from the right profile', async () => {
    const client = createFakeClient('A', {
      profiles: ['default', 'kids1'],
      networks: [
        { ip: '1.2.3.4', profile: 'default' },
        { ip: '1.2.3.4', profile: 'kids1' },
      ],
    });
    await renderAccount({ client });
    const networks = within(section('Networks'));
    fireEvent.click(await networks.findByRole('button', { name: 'Remove network 1.2.3.4 (profile kids1)' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Remove network 1.2.3.4?' })).getByRole('button', {
        name: 'Remove',
      }),
    );
    await waitFor(() => expect(networks.getByRole('status').textContent).toBe('Removed network 1.2.3.4.'));
    expect(client.state.networks).toEqual([{ ip: '1.2.3.4', profile: 'default' }]);
    await waitFor(() => expect(rowTexts()).toHaveLength(1));
  });
});
