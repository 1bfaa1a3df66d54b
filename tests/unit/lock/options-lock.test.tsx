/**
 * The options page and the lock (components/options/LockSection.tsx, docs/lock.md): the Lock
 * section says what a forgotten passphrase costs before turning it on; once locked, the whole page
 * asks for the passphrase before showing or changing anything; open requests for access are
 * approved or declined in one click.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { OptionsApp } from '@/components/options/OptionsApp';
import { PolicyProvider } from '@/components/options/PolicyProvider';
import { approveRequest, declineRequest, requestText } from '@/lib/lock/options-lock';
import { readAccessRequests, recordAccessRequest } from '@/lib/lock/requests';
import { isLocked } from '@/lib/lock/state';
import type { ChangeOutcome } from '@/lib/messaging/protocol';
import { apiKeyItem, connectionItem } from '@/lib/settings/storage';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

const KEY = 'home-key-0123456789abcdef';
const PASSPHRASE = 'correct horse battery staple';

function fakeWindow(hash: string) {
  return {
    location: { hash },
    history: {
      pushState(_data: unknown, _unused: string, url?: string) {
        this.owner.location.hash = url ?? '';
      },
      replaceState(_data: unknown, _unused: string, url?: string) {
        this.owner.location.hash = url ?? '';
      },
      owner: undefined as unknown as { location: { hash: string } },
    },
    addEventListener: () => {},
    removeEventListener: () => {},
    scrollTo: vi.fn(),
  };
}

const typeInto = (label: string, value: string, index = 0) =>
  fireEvent.input(screen.getAllByLabelText(label)[index] as HTMLElement, { target: { value } });

describe('the Lock section', () => {
  it('turns the lock on after warning, and locked the page asks for the passphrase first', async () => {
    await apiKeyItem.setValue(KEY);
    await connectionItem.setValue({ baseUrl: 'https://my.cleanbrowsing.org', form: 'A' });
    const win = fakeWindow('#lock');
    win.history.owner = win;
    render(<OptionsApp win={win} />);

    await screen.findByRole('heading', { level: 2, name: 'Lock' });
    expect(screen.getByText(/If the passphrase is forgotten, nobody can open the lock/)).toBeTruthy();
    typeInto('Passphrase', PASSPHRASE);
    typeInto('Repeat passphrase', 'something else');
    fireEvent.click(screen.getByRole('button', { name: 'Turn on lock' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The two passphrases differ.');
    expect((await fakeBrowser.storage.local.get('lock')).lock).toBeUndefined();

    typeInto('Repeat passphrase', PASSPHRASE);
    fireEvent.click(screen.getByRole('button', { name: 'Turn on lock' }));
    await screen.findByRole('button', { name: 'Lock now' }, { timeout: 5_000 });
    expect(JSON.stringify(await fakeBrowser.storage.local.get(null))).not.toContain(KEY);

    fireEvent.click(screen.getByRole('button', { name: 'Lock now' }));
    await screen.findByText(/This page is locked/);
    expect(await isLocked()).toBe(true);
    expect(screen.queryByRole('navigation', { name: 'Sections' })).toBeNull();
    // No welcome asking for a key: there is one, sealed.
    expect(screen.queryByRole('heading', { name: 'Setup' })).toBeNull();

    typeInto('Passphrase', 'not the passphrase');
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Wrong passphrase.');
    typeInto('Passphrase', PASSPHRASE);
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    await screen.findByRole('navigation', { name: 'Sections' }, { timeout: 5_000 });
    expect(await isLocked()).toBe(false);
  });
});

describe('requests for access', () => {
  it('are approved through the worker or declined, each once, and read as a text to copy', async () => {
    await recordAccessRequest({
      site: 'games.example',
      profile: 'kids',
      accountId: 'home-account-0001',
      page: 'https://games.example/play?session=1',
      at: Date.UTC(2026, 10, 27, 18, 0),
      message: 'Just 20 minutes',
    });
    await recordAccessRequest({
      site: 'video.example',
      accountId: 'home-account-0001',
      page: 'https://video.example/',
      at: Date.UTC(2026, 10, 27, 18, 5),
      message: '',
    });
    const [games, video] = await readAccessRequests();
    if (!games || !video) throw new Error('not recorded');
    expect(requestText(games)).toMatch(
      /^games\.example: access asked for at .+ on https:\/\/games\.example\/play \(profile kids\)\. Just 20 minutes$/,
    );

    const worker = {
      submitChange: vi.fn(async (): Promise<ChangeOutcome> => ({ state: 'delivered', message: 'ok' })),
      temporaryAllow: vi.fn(async () => ({ state: 'delivered' as const, message: 'ok' })),
    };
    expect(await approveRequest(games, 'hour', worker)).toEqual({
      ok: true,
      message: 'Allowed for an hour: games.example.',
    });
    expect(worker.temporaryAllow).toHaveBeenCalledWith(
      expect.objectContaining({ domain: 'games.example', profile: 'kids', durationMs: 3_600_000 }),
    );
    expect((await readAccessRequests()).map((request) => request.site)).toEqual(['video.example']);

    worker.submitChange.mockResolvedValueOnce({
      state: 'failed' as const,
      message: 'Locked: enter the passphrase first.',
    });
    expect(await approveRequest(video, 'whitelist', worker)).toMatchObject({ ok: false });
    expect((await readAccessRequests()).length).toBe(1);
    expect(await declineRequest(video)).toEqual({ ok: true, message: 'Declined: video.example.' });
    await waitFor(async () => expect(await readAccessRequests()).toEqual([]));
  });
});

describe('a policy that requires the lock', () => {
  it('asks to turn it on, and once on offers no way to turn it off', async () => {
    await apiKeyItem.setValue(KEY);
    await connectionItem.setValue({ baseUrl: 'https://my.cleanbrowsing.org', form: 'A' });
    await fakeBrowser.storage.managed.set({ lockRequired: true });
    const win = fakeWindow('#lock');
    win.history.owner = win;
    render(
      <PolicyProvider>
        <OptionsApp win={win} />
      </PolicyProvider>,
    );

    await screen.findByText(/requires the passphrase lock: choose a passphrase below/);
    typeInto('Passphrase', PASSPHRASE);
    typeInto('Repeat passphrase', PASSPHRASE);
    fireEvent.click(screen.getByRole('button', { name: 'Turn on lock' }));
    await screen.findByRole('button', { name: 'Lock now' }, { timeout: 5_000 });
    expect(screen.getByText(/The lock is required by whoever manages this browser/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Turn off lock' })).toBeNull();
  });
});
