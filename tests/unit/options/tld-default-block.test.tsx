import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { ApiError } from '@/lib/api/errors';
import { addedTldsItem, defaultBlockItem } from '@/lib/settings/storage';
import { createFakeClient } from '../../fakes/fake-client';
import { renderAccount, section } from './render-account';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

describe('Top-level domains section', () => {
  it('blocks a TLD for the chosen profile and lists it as blocked from this browser, for that profile only', async () => {
    const client = createFakeClient('A', { profiles: ['default', 'kids1'] });
    await renderAccount({ client });
    const tlds = within(section('Top-level domains'));
    expect(tlds.getByText(/use your provider's dashboard/)).toBeTruthy();
    fireEvent.input(tlds.getByRole('textbox', { name: 'Top-level domain' }), { target: { value: 'XYZ' } });
    fireEvent.click(tlds.getByRole('button', { name: 'Block top-level domain' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Block' }));
    await waitFor(() =>
      expect(tlds.getByRole('status').textContent).toContain('under .xyz for profile default'),
    );
    expect([...(client.state.tlds.default ?? [])]).toEqual(['.xyz']);
    const list = tlds.getByRole('list', { name: 'Top-level domains blocked from this browser' });
    expect(within(list).getByText('.xyz')).toBeTruthy();
    expect(await addedTldsItem.getValue()).toEqual({ 'A:default': ['.xyz'] });

    fireEvent.change(screen.getByRole('combobox', { name: 'Profile' }), { target: { value: 'kids1' } });
    await waitFor(() =>
      expect(tlds.queryByRole('list', { name: 'Top-level domains blocked from this browser' })).toBeNull(),
    );
  });

  it('refuses a full domain without calling the service and keeps it', async () => {
    const client = createFakeClient('A');
    await renderAccount({ client });
    const tlds = within(section('Top-level domains'));
    fireEvent.input(tlds.getByRole('textbox', { name: 'Top-level domain' }), {
      target: { value: 'example.com' },
    });
    fireEvent.click(tlds.getByRole('button', { name: 'Block top-level domain' }));
    await waitFor(() => expect(tlds.getByRole('status').textContent).toContain('not a full domain'));
    expect(client.invocations.some((call) => call.method === 'blockTld')).toBe(false);
    expect((tlds.getByRole('textbox', { name: 'Top-level domain' }) as HTMLInputElement).value).toBe(
      'example.com',
    );
  });

  it('in Form B, which cannot block TLDs, says where to do it instead of offering a form that fails', async () => {
    const client = createFakeClient('B');
    await renderAccount({ client });
    const tlds = within(section('Top-level domains'));
    expect(tlds.queryByRole('textbox')).toBeNull();
    expect(tlds.getByText(/no way to block a top-level domain/).textContent).toContain(
      "provider's dashboard",
    );
  });
});

describe('Blocking a top-level domain is confirmed, since only the dashboard can undo it', () => {
  const ask = async (typed: string, browserLocale?: string) => {
    const client = createFakeClient('A', { profiles: ['default', 'kids1'] });
    if (browserLocale !== undefined) vi.spyOn(navigator, 'language', 'get').mockReturnValue(browserLocale);
    await renderAccount({ client });
    const tlds = within(section('Top-level domains'));
    fireEvent.input(tlds.getByRole('textbox', { name: 'Top-level domain' }), { target: { value: typed } });
    fireEvent.click(tlds.getByRole('button', { name: 'Block top-level domain' }));
    const dialog = await screen.findByRole('dialog');
    return { client, tlds, dialog: within(dialog), dialogElement: dialog };
  };
  const blockButton = (dialog: ReturnType<typeof within>) =>
    dialog.getByRole('button', { name: 'Block' }) as HTMLButtonElement;
  const sent = (client: ReturnType<typeof createFakeClient>) =>
    client.invocations.filter((call) => call.method === 'blockTld');

  it('the dialog names the TLD and says only the dashboard can undo it; nothing is sent before Block', async () => {
    const { client, tlds, dialog, dialogElement } = await ask('.xyz');
    expect(dialog.getByRole('heading', { name: 'Block every domain under .xyz?' })).toBeTruthy();
    expect(dialogElement.textContent).toContain(
      "only your provider's dashboard can unblock a top-level domain",
    );
    expect(dialogElement.textContent).toContain('profile default');
    expect(dialog.queryByRole('textbox')).toBeNull();
    expect(sent(client)).toEqual([]);
    fireEvent.click(blockButton(dialog));
    await waitFor(() => expect(tlds.getByRole('status').textContent).toContain('under .xyz'));
    expect([...(client.state.tlds.default ?? [])]).toEqual(['.xyz']);
  });

  it('Cancel sends nothing and keeps what was typed', async () => {
    const { client, tlds, dialog } = await ask('.xyz');
    fireEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent(client)).toEqual([]);
    expect((tlds.getByRole('textbox', { name: 'Top-level domain' }) as HTMLInputElement).value).toBe('.xyz');
  });

  it.each([
    ['.com', 'en-US', 'com'],
    ['.net', 'en-US', '.NET'],
    ['.org', 'fr-FR', '.org'],
    ['.de', 'de-DE', 'de'],
    ['.uk', 'en-GB', '.uk'],
  ])('%s (browser in %s) must be typed before Block is enabled', async (tld, locale, typed) => {
    const { client, tlds, dialog } = await ask(tld, locale);
    const box = dialog.getByRole('textbox', { name: `Type ${tld} to confirm` });
    expect(blockButton(dialog).disabled).toBe(true);
    fireEvent.click(blockButton(dialog));
    fireEvent.input(box, { target: { value: '.co' } });
    expect(blockButton(dialog).disabled).toBe(true);
    expect(sent(client)).toEqual([]);
    fireEvent.input(box, { target: { value: typed } });
    expect(blockButton(dialog).disabled).toBe(false);
    fireEvent.click(blockButton(dialog));
    await waitFor(() => expect(tlds.getByRole('status').textContent).toContain(`under ${tld}`));
    expect(sent(client)).toHaveLength(1);
  });

  it('the country code of another locale is confirmed with one click', async () => {
    const { dialog } = await ask('.de', 'en-US');
    expect(dialog.queryByRole('textbox')).toBeNull();
    expect(blockButton(dialog).disabled).toBe(false);
  });
});

describe('Default block section', () => {
  const theSwitch = () =>
    within(section('Default block')).getByRole('checkbox', {
      name: 'Block everything not on the whitelist',
    }) as HTMLInputElement;

  it('says the state is not known until it is set from this browser, then shows it', async () => {
    const client = createFakeClient('A', { profiles: ['default', 'kids1'] });
    await renderAccount({ client, now: () => Date.UTC(2024, 4, 31, 12) });
    const block = within(section('Default block'));
    expect(block.getByText(/not known: set from another place/)).toBeTruthy();
    expect(block.getByText(/blocked unless it is on the whitelist/)).toBeTruthy();
    // Not known is drawn as not known (mixed), never as off.
    expect(theSwitch().indeterminate).toBe(true);

    fireEvent.click(theSwitch());
    await waitFor(() =>
      expect(block.getByRole('status').textContent).toContain('Default block is on for profile default'),
    );
    expect(client.state.defaultBlock).toEqual({ default: true });
    expect(theSwitch().checked).toBe(true);
    expect(theSwitch().indeterminate).toBe(false);
    expect(block.getByText(/Current state: on, set from this browser/)).toBeTruthy();
    expect(await defaultBlockItem.getValue()).toEqual({
      'A:default': { enabled: true, at: Date.UTC(2024, 4, 31, 12) },
    });

    // Another profile's state is its own.
    fireEvent.change(screen.getByRole('combobox', { name: 'Profile' }), { target: { value: 'kids1' } });
    await waitFor(() => expect(block.getByText(/not known/)).toBeTruthy());
    expect(theSwitch().checked).toBe(false);
    expect(theSwitch().indeterminate).toBe(true);
  });

  it('keeps the last known state when the change fails', async () => {
    await defaultBlockItem.setValue({ 'B:account': { enabled: true, at: 0 } });
    const client = createFakeClient('B');
    client.failNext(
      'setDefaultBlock',
      new ApiError('service', 'Could not turn off default block: Not allowed'),
    );
    await renderAccount({ client });
    await waitFor(() => expect(theSwitch().checked).toBe(true));
    fireEvent.click(theSwitch());
    const block = within(section('Default block'));
    await waitFor(() => expect(block.getByRole('status').textContent).toContain('Not allowed'));
    expect(theSwitch().checked).toBe(true);
    expect(block.getByText(/Current state: on/)).toBeTruthy();
  });
});
