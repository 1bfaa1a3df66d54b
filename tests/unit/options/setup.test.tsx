import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing';
import { SetupSection } from '@/components/options/SetupSection';
import { onStorageChanged } from '@/entrypoints/background/handlers';
import { apiKeyItem, connectionItem } from '@/lib/settings/storage';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

const field = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const keyField = () => screen.getByLabelText('API key') as HTMLInputElement;

async function renderSetup() {
  render(<SetupSection />);
  // The stored settings are loaded into the form first.
  await waitFor(() => expect(field('Base URL').value).toBe('https://my.cleanbrowsing.org'));
}

/** Save is usable once the form holds unsaved changes (the page's save model): pressed then. */
async function pressSave() {
  const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
  await waitFor(() => expect(save.disabled).toBe(false));
  fireEvent.click(save);
}

describe('Setup section', () => {
  it('keeps the key masked until asked, and stores it in storage.local only', async () => {
    await renderSetup();
    expect(keyField().type).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Show key' }));
    expect(keyField().type).toBe('text');

    fireEvent.input(keyField(), { target: { value: '  secret-key-1  ' } });
    fireEvent.input(field('Base URL'), { target: { value: 'http://127.0.0.1:8787' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'API form' }), { target: { value: 'B' } });
    await pressSave();

    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Saved.'));
    expect(await apiKeyItem.getValue()).toBe('secret-key-1');
    expect(await connectionItem.getValue()).toEqual({ baseUrl: 'http://127.0.0.1:8787', form: 'B' });
    expect(await browser.storage.sync.get(null)).toEqual({});
  });

  it('refuses plain http to another computer, saving nothing and keeping what was typed', async () => {
    await renderSetup();
    fireEvent.input(keyField(), { target: { value: 'k' } });
    fireEvent.input(field('Base URL'), { target: { value: 'http://dns.example.com' } });
    await pressSave();
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Use an https:// address'));
    expect(await apiKeyItem.getValue()).toBe('');
    expect(field('Base URL').value).toBe('http://dns.example.com');
  });

  it('asks for permission to reach another service, and saves nothing when refused', async () => {
    const request = vi.spyOn(fakeBrowser.permissions, 'request').mockResolvedValue(false);
    await renderSetup();
    fireEvent.input(field('Base URL'), { target: { value: 'https://filter.example.org' } });
    expect(screen.getByText(/the browser asks you to allow the extension to contact it/)).toBeTruthy();
    fireEvent.input(keyField(), { target: { value: 'k2' } });
    await pressSave();
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Not saved'));
    expect(request).toHaveBeenCalledWith({ origins: ['https://filter.example.org/*'] });
    expect(await apiKeyItem.getValue()).toBe('');
  });

  it('Test connection asks before sending the key to a typed, unsaved origin; Cancel sends nothing', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('must not be called'));
    const request = vi.spyOn(fakeBrowser.permissions, 'request').mockResolvedValue(true);
    await renderSetup();
    fireEvent.input(keyField(), { target: { value: 'secret-key-1' } });
    fireEvent.input(field('Base URL'), { target: { value: 'https://attacker.example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send your API key to attacker.example?' });
    expect(dialog.textContent).toContain(
      'sends your API key to https://attacker.example, which is not the saved service address (https://my.cleanbrowsing.org)',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'Not tested: the key was not sent to https://attacker.example.',
      ),
    );
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(request).not.toHaveBeenCalled();
    expect(field('Base URL').value).toBe('https://attacker.example');
    fetchSpy.mockRestore();
  });

  it('Forget key removes the key from the browser', async () => {
    await apiKeyItem.setValue('old-key');
    render(<SetupSection />);
    await waitFor(() => expect(keyField().value).toBe('old-key'));
    fireEvent.click(screen.getByRole('button', { name: 'Forget key' }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('The key was removed from this browser.'),
    );
    expect(await apiKeyItem.getValue()).toBe('');
    expect(keyField().value).toBe('');
  });
  it('Test connection shows one failure, beside its buttons, with advice that fits its kind', async () => {
    await apiKeyItem.setValue('secret-key-1');
    const answers: Record<string, () => Promise<Response>> = {
      unreachable: () => Promise.reject(new TypeError('Failed to fetch')),
      badKey: async () => Response.json({ status: 'failed', reason: 'Invalid API key' }),
    };
    let answer = answers.unreachable;
    vi.spyOn(globalThis, 'fetch').mockImplementation(() => answer!());
    await renderSetup();
    await waitFor(() => expect(keyField().value).toBe('secret-key-1'));

    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('could not be reached'));
    const unreachable = screen.getByRole('status').textContent ?? '';
    expect(unreachable).toContain('Check your internet connection and the Base URL');
    expect(unreachable).not.toMatch(/API key|API form/);
    // Said once: no second copy of the failure anywhere on the section.
    expect(document.body.textContent?.split('could not be reached').length).toBe(2);

    answer = answers.badKey;
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Invalid API key'));
    const badKey = screen.getByRole('status').textContent ?? '';
    expect(badKey).toContain('Check the API key in Setup');
    expect(badKey).not.toMatch(/internet connection/);
    expect(document.body.textContent?.split('Invalid API key').length).toBe(2);
  });

  it('Save never lets the worker send the new key to the old address', async () => {
    await apiKeyItem.setValue('old-key');
    await connectionItem.setValue({ baseUrl: 'https://old.example', form: 'A' });
    // Every profiles call the worker makes, with the address and the key it carried.
    const sent: { origin: string; key: string | null }[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = new URL(String(input));
      sent.push({ origin: url.origin, key: url.searchParams.get('apikey') });
      return Response.json({ status: 'success', profiles: ['default'] });
    });
    // The worker follows storage; the fake storage waits for it after each write, so the worker
    // acts on each write before the next one (as a fast worker may).
    fakeBrowser.storage.onChanged.addListener((changes, area) => onStorageChanged(changes, area));
    render(<SetupSection />);
    await waitFor(() => expect(keyField().value).toBe('old-key'));

    fireEvent.input(keyField(), { target: { value: 'new-key' } });
    fireEvent.input(field('Base URL'), { target: { value: 'http://127.0.0.1:8787' } });
    await pressSave();
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Saved.'));

    expect(sent).toContainEqual({ origin: 'http://127.0.0.1:8787', key: 'new-key' });
    expect(sent.filter((call) => call.key === 'new-key' && call.origin !== 'http://127.0.0.1:8787')).toEqual(
      [],
    );
  });
});
