/**
 * The popup under a policy that closes changes from it: the verdict still shows, Whitelist and
 * Blocklist are not offered (once the policy is read, after the first view), and it says why.
 */
import { cleanup, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { openPopup } from '../popup/popup-harness';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

describe('the popup under a policy', () => {
  it('offers no Whitelist or Blocklist when the policy closes changes from the popup', async () => {
    await fakeBrowser.storage.managed.set({ popupChanges: false });
    const popup = await openPopup({ url: 'https://www.shop.example/' });
    await popup.started;
    await screen.findByText('Your organization does not allow changes from the popup.');
    expect(screen.queryByRole('button', { name: 'Whitelist' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Blocklist' })).toBeNull();
    // The verdict is still there.
    expect(popup.marks).toContain('verdict');
  });

  it('offers them when the policy allows it', async () => {
    await fakeBrowser.storage.managed.set({ popupChanges: true, lockRequired: true });
    const popup = await openPopup({ url: 'https://www.shop.example/' });
    await popup.started;
    await screen.findByRole('button', { name: 'Whitelist' });
    // The extras (and the policy with them) are loaded: still offered.
    await waitFor(() => expect(screen.queryByText(/does not allow changes/)).toBeNull());
    screen.getByRole('button', { name: 'Blocklist' });
  });
});
