import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { OptionsApp } from '@/components/options/OptionsApp';
import { apiKeyItem, connectionItem } from '@/lib/settings/storage';

beforeEach(() => fakeBrowser.reset());
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** The parts of the window the options page's router and scrolling use, with the history kept here. */
function fakeWindow() {
  const listeners = new Set<() => void>();
  const entries = [''];
  let at = 0;
  const win = {
    location: { hash: '' },
    history: {
      pushState(_data: unknown, _unused: string, url?: string) {
        entries.splice(at + 1, entries.length, url ?? '');
        at = entries.length - 1;
        win.location.hash = url ?? '';
      },
      replaceState(_data: unknown, _unused: string, url?: string) {
        entries[at] = url ?? '';
        win.location.hash = url ?? '';
      },
    },
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
    scrollTo: vi.fn(),
    /** The browser's Back button: the address changes, then popstate. */
    back() {
      at = Math.max(0, at - 1);
      win.location.hash = entries[at] ?? '';
      for (const listener of listeners) listener();
    },
  };
  return win;
}

const nav = () => screen.getByRole('navigation', { name: 'Sections' });
const findNav = () => screen.findByRole('navigation', { name: 'Sections' });

describe('Options navigation', () => {
  it('moves the keyboard to the chosen section’s heading and the view to its top, also on Back', async () => {
    const win = fakeWindow();
    render(<OptionsApp win={win} />);
    const appearanceLink = within(await findNav()).getByRole('link', { name: 'Appearance' });

    fireEvent.click(appearanceLink);
    const appearance = await screen.findByRole('heading', { level: 2, name: 'Appearance' });
    await waitFor(() => expect(document.activeElement).toBe(appearance));
    expect(win.scrollTo).toHaveBeenLastCalledWith({ top: 0 });
    expect(win.location.hash).toBe('#appearance');
    // Focusable by script, yet no stop for Tab.
    expect(appearance.getAttribute('tabindex')).toBe('-1');

    win.scrollTo.mockClear();
    fireEvent.click(within(nav()).getByRole('link', { name: 'Right-click menu and shortcuts' }));
    const menu = await screen.findByRole('heading', { level: 2, name: 'Right-click menu and shortcuts' });
    await waitFor(() => expect(document.activeElement).toBe(menu));
    expect(win.scrollTo).toHaveBeenCalledWith({ top: 0 });

    win.back();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2, name: 'Appearance' })),
    );
  });

  it('opened at the address of a section further down its view (the popup’s link), shows that section', async () => {
    await apiKeyItem.setValue('stored-key');
    await connectionItem.setValue({ baseUrl: 'https://dns.example', form: 'A' });
    // The service: one profile, nothing listed.
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const action = new URL(String(input)).searchParams.get('action');
      if (action === 'profiles/list') return Response.json({ status: 'success', profiles: ['default'] });
      if (action === 'categories/list') return Response.json({ status: 'success', categories: [] });
      return Response.json({ status: 'success', domains: [] });
    });
    const scrolledTo: string[] = [];
    vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(function (this: HTMLElement) {
      scrolledTo.push(this.textContent ?? '');
    });
    const win = fakeWindow();
    win.location.hash = '#blocklist';
    render(<OptionsApp win={win} />);

    const blocklist = await screen.findByRole('heading', { level: 2, name: 'Blocklist' });
    await waitFor(() => expect(document.activeElement).toBe(blocklist));
    expect(scrolledTo.at(-1)).toBe('Blocklist');
    expect(win.location.hash).toBe('#blocklist');
  });
});

describe('The welcome', () => {
  /** Fills the welcome's Setup and presses Save; the connection test waits for `answer`. */
  async function saveFirstKey(answer: Promise<Response>) {
    vi.spyOn(fakeBrowser.permissions, 'request').mockResolvedValue(true);
    vi.spyOn(globalThis, 'fetch').mockImplementation(() => answer);
    const key = await screen.findByLabelText('API key');
    fireEvent.input(key, { target: { value: 'first-key' } });
    fireEvent.input(screen.getByRole('textbox', { name: 'Base URL' }), {
      target: { value: 'http://127.0.0.1:8787' },
    });
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    await waitFor(() => expect(save.disabled).toBe(false));
    fireEvent.click(save);
    await screen.findByText('Saved. Testing the connection…');
  }
  const profiles = () => Response.json({ status: 'success', profiles: ['default'] });

  it('shows the Overview once the first key is saved and connects', async () => {
    const win = fakeWindow();
    render(<OptionsApp win={win} />);
    await saveFirstKey(Promise.resolve(profiles()));

    await screen.findByRole('heading', { level: 2, name: 'Overview' });
    expect(win.location.hash).toBe('#overview');
  });

  it('keeps a section chosen while the connection is tested, instead of moving to the Overview', async () => {
    const win = fakeWindow();
    render(<OptionsApp win={win} />);
    let answer: (response: Response) => void = () => {};
    await saveFirstKey(
      new Promise((resolve) => {
        answer = resolve;
      }),
    );

    fireEvent.click(within(nav()).getByRole('link', { name: 'Appearance' }));
    await screen.findByRole('heading', { level: 2, name: 'Appearance' });
    answer(profiles());
    await waitFor(() => expect(document.body.textContent).toContain('Connected'));

    expect(win.location.hash).toBe('#appearance');
    expect(screen.getByRole('heading', { level: 2, name: 'Appearance' })).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 2, name: 'Overview' })).toBeNull();
  });
});
