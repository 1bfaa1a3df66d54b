/**
 * "Several profiles" beside the popup's Profile picker (components/popup/ListActions.tsx): offered
 * in Form A with two profiles or more, never in Form B; while it is open the buttons act on the
 * ticked profiles only, and closing it brings back the single Whitelist and Blocklist buttons.
 */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { createFakeApi, openPopup } from '../popup/popup-harness';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

describe('the choice of several profiles in the popup', () => {
  it('is offered in Form A with several profiles, and replaces the single buttons while open', async () => {
    const api = createFakeApi('A', { profiles: ['default', 'kids1', 'kids2'] });
    const popup = await openPopup({ url: 'https://games.example/', api, profile: 'kids1' });
    await popup.started;
    const toggle = await screen.findByRole('button', { name: 'Several profiles' });
    expect(screen.getByRole('combobox', { name: 'Profile' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Whitelist' })).toBeTruthy();

    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    await screen.findByRole('button', { name: 'Whitelist for 1 profile' });
    expect((screen.getByRole('checkbox', { name: 'kids1' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByRole('button', { name: 'Whitelist' })).toBeNull();

    fireEvent.click(toggle);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Whitelist' })).toBeTruthy());
    expect(popup.submitted).toEqual([]);
  });

  it('is not offered in Form B, which has no profiles', async () => {
    const api = createFakeApi('B', { profiles: ['default', 'kids1', 'kids2'] });
    const popup = await openPopup({ url: 'https://games.example/', form: 'B', api });
    await popup.started;
    await screen.findByRole('button', { name: 'Whitelist' });
    expect(screen.queryByRole('button', { name: 'Several profiles' })).toBeNull();
  });
});
