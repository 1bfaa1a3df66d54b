/**
 * The locked popup (components/popup/LockGate.tsx, docs/lock.md "The popup"): the verdict shows
 * without the key; Whitelist asks for the passphrase in the popup; a wrong one is refused and
 * sends nothing; the right one unlocks and the whitelisting goes; "Ask for access" records a
 * request for the site instead.
 */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { createPopupLock } from '@/lib/lock/popup-lock';
import { readAccessRequests } from '@/lib/lock/requests';
import { isLocked, lockNow, turnOnLock } from '@/lib/lock/state';
import { configure, createFakeApi, openPopup } from '../popup/popup-harness';

const PASSPHRASE = 'correct horse battery staple';
const PAGE = 'https://ads.example/offer?user=42#top';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

async function lockedPopup() {
  await configure('A', 'test-key');
  await turnOnLock({ passphrase: PASSPHRASE, idleMinutes: 5, background: {} });
  await lockNow(null);
  const api = createFakeApi('A', { blocklist: { default: ['ads.example'] } });
  const popup = await openPopup({
    url: PAGE,
    key: '',
    api,
    lock: createPopupLock({ pageUrl: async () => PAGE }),
  });
  await waitFor(() =>
    expect(screen.getByRole('status', { name: 'Verdict' }).textContent).toMatch(/^Blocked/),
  );
  await screen.findByRole('button', { name: 'Unlock' });
  return popup;
}

describe('a locked popup', () => {
  it('shows the verdict, and Whitelist asks for the passphrase before anything is sent', async () => {
    const popup = await lockedPopup();
    fireEvent.click(screen.getByRole('button', { name: 'Whitelist' }));
    expect(popup.submitted).toEqual([]);
    const field = screen.getByLabelText('Passphrase');
    expect(document.activeElement).toBe(field);

    fireEvent.input(field, { target: { value: 'wrong passphrase' } });
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Wrong passphrase.');
    expect(popup.submitted).toEqual([]);
    expect(await isLocked()).toBe(true);

    fireEvent.input(field, { target: { value: PASSPHRASE } });
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    await waitFor(() =>
      expect(popup.submitted.map((change) => [change.list, change.domain])).toEqual([
        ['whitelist', 'ads.example'],
      ]),
    );
    expect(await isLocked()).toBe(false);
    expect(screen.queryByRole('button', { name: 'Unlock' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Lock now' })).toBeTruthy();
  });

  it('records a request with “Ask for access”, without the page’s query', async () => {
    const popup = await lockedPopup();
    fireEvent.input(screen.getByLabelText('Message (optional)'), { target: { value: 'For homework' } });
    fireEvent.click(screen.getByRole('button', { name: 'Ask for access' }));
    await screen.findByText(/^Asked\./);
    const [request] = await readAccessRequests();
    expect(request).toMatchObject({
      site: 'ads.example',
      profile: 'default',
      page: 'https://ads.example/offer',
      message: 'For homework',
    });
    expect(popup.submitted).toEqual([]);
  });
});

describe('a locked popup with stale or missing lists', () => {
  it('keeps the cached verdict rather than asking for a key, and says so when nothing is cached', async () => {
    await configure('A', 'test-key');
    await turnOnLock({ passphrase: PASSPHRASE, idleMinutes: 5, background: {} });
    await lockNow(null);
    await openPopup({
      url: PAGE,
      key: '',
      keyUnreadable: true,
      lock: createPopupLock({ pageUrl: async () => PAGE }),
    });
    expect(await screen.findByText(/this site's lists are not in this browser yet/)).toBeTruthy();
    expect(screen.queryByText(/No API key is set/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Unlock' })).toBeTruthy();
  });

  it('does not say “Locked” when no lock is on: a key that cannot be read is a key to enter in Setup', async () => {
    await configure('A', 'test-key');
    await openPopup({
      url: PAGE,
      key: '',
      keyUnreadable: true,
      lock: createPopupLock({ pageUrl: async () => PAGE }),
    });
    expect(await screen.findByText(/No API key is set/)).toBeTruthy();
    expect(screen.queryByText(/^Locked|this site's lists are not in this browser yet/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Unlock' })).toBeNull();
  });
});
