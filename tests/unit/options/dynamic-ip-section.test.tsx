import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { DynamicIpSection } from '@/components/options/DynamicIpSection';
import { MenuSection } from '@/components/options/MenuSection';
import {
  connectionItem,
  contextMenuSettingsItem,
  dynamicIpSettingsItem,
  profilesCacheItem,
  registrationOutcomeItem,
} from '@/lib/settings/storage';
import { accountIdFor } from '../account-ids';

const requested: string[][] = [];
let grant = true;
let answer: unknown;
const messages: unknown[] = [];

beforeEach(async () => {
  fakeBrowser.reset();
  requested.length = 0;
  messages.length = 0;
  grant = true;
  answer = { ok: true, ip: '198.51.100.7', message: 'Registered 198.51.100.7 as “Home” (profile kids).' };
  Object.assign(fakeBrowser, {
    permissions: {
      request: vi.fn(async ({ origins }: { origins: string[] }) => {
        requested.push(origins);
        return grant;
      }),
    },
  });
  // The worker's side of 'register-now'.
  fakeBrowser.runtime.onMessage.addListener((message: unknown) => {
    messages.push(message);
    return Promise.resolve(answer);
  });
  await connectionItem.setValue({ baseUrl: 'https://dns.example', form: 'A' });
  await profilesCacheItem.setValue({
    account: accountIdFor('A', 'https://dns.example', ''),
    profiles: ['default', 'kids'],
    at: 1,
  });
});
afterEach(cleanup);

async function renderSection() {
  render(<DynamicIpSection />);
  const region = within(screen.getByRole('region', { name: 'Dynamic IP' }));
  await waitFor(() =>
    expect((region.getByRole('textbox', { name: 'IP lookup URL' }) as HTMLInputElement).value).toBe(
      'https://api.ipify.org?format=json',
    ),
  );
  return region;
}

const type = (element: HTMLElement, value: string) => fireEvent.input(element, { target: { value } });

describe('Dynamic IP section', () => {
  it('Register now saves the form, asks for the lookup host and shows the outcome', async () => {
    const region = await renderSection();
    type(region.getByRole('textbox', { name: 'Network label' }), 'Home');
    fireEvent.change(await region.findByRole('combobox', { name: 'Register to profile' }), {
      target: { value: 'kids' },
    });
    type(region.getByRole('textbox', { name: 'IP lookup URL' }), 'https://ip.example/json');
    fireEvent.click(region.getByRole('button', { name: 'Register now' }));
    await waitFor(() =>
      expect(region.getByRole('status').textContent).toMatch(/^Registered 198\.51\.100\.7/),
    );
    expect(requested).toEqual([['https://ip.example/*', 'https://ipv4.icanhazip.com/*']]);
    expect(messages).toEqual([{ type: 'register-now' }]);
    expect(await dynamicIpSettingsItem.getValue()).toMatchObject({
      label: 'Home',
      profile: 'kids',
      lookupUrls: ['https://ip.example/json', 'https://ipv4.icanhazip.com/'],
      enabled: false,
    });
  });

  it('a loopback lookup URL needs no permission', async () => {
    const region = await renderSection();
    type(region.getByRole('textbox', { name: 'IP lookup URL' }), 'http://127.0.0.1:8080/ip');
    type(region.getByRole('textbox', { name: /More IP lookup URLs/ }), '');
    fireEvent.click(region.getByRole('button', { name: 'Register now' }));
    await waitFor(() => expect(region.getByRole('status').textContent).toMatch(/^Registered/));
    expect(requested).toEqual([]);
  });

  it('a refused permission stores nothing and says why', async () => {
    grant = false;
    const region = await renderSection();
    fireEvent.click(region.getByRole('checkbox', { name: 'Keep this network registered automatically' }));
    fireEvent.click(region.getByRole('button', { name: 'Save dynamic IP settings' }));
    await waitFor(() =>
      expect(region.getByRole('status').textContent).toMatch(/needs your permission to ask api\.ipify\.org/),
    );
    expect((await dynamicIpSettingsItem.getValue()).enabled).toBe(false);
    expect(messages).toEqual([]);
  });

  it('a failed registration shows the reason', async () => {
    answer = { ok: false, message: 'Not registered: Could not register the network: Invalid profile' };
    const region = await renderSection();
    fireEvent.click(region.getByRole('button', { name: 'Register now' }));
    await waitFor(() =>
      expect(region.getByRole('status').textContent).toBe(answer && (answer as { message: string }).message),
    );
  });

  it('turning it on registers at once', async () => {
    const region = await renderSection();
    fireEvent.click(region.getByRole('checkbox', { name: 'Keep this network registered automatically' }));
    type(region.getByRole('spinbutton', { name: 'Check every (minutes)' }), '60');
    fireEvent.click(region.getByRole('button', { name: 'Save dynamic IP settings' }));
    await waitFor(() =>
      expect(region.getByRole('status').textContent).toMatch(/^Saved\. Registered 198\.51\.100\.7/),
    );
    expect(await dynamicIpSettingsItem.getValue()).toMatchObject({ enabled: true, intervalMinutes: 60 });
  });

  it('refuses an interval out of range before anything is stored', async () => {
    const region = await renderSection();
    type(region.getByRole('spinbutton', { name: 'Check every (minutes)' }), '2');
    fireEvent.click(region.getByRole('button', { name: 'Save dynamic IP settings' }));
    await waitFor(() => expect(region.getByRole('status').textContent).toMatch(/from 5 to 1440/));
    expect(await dynamicIpSettingsItem.getValue()).toEqual(dynamicIpSettingsItem.fallback);
  });

  it('shows the last outcome, and follows it when the worker stores a new one', async () => {
    const region = await renderSection();
    await registrationOutcomeItem.setValue({
      at: Date.UTC(2024, 4, 1, 10, 0),
      ok: false,
      reason: 'network',
      message: 'Not registered: the service could not be reached.',
      consecutiveFailures: 3,
    });
    await region.findByText(/3 failures in a row.*Not registered: the service could not be reached\./);
  });

  it('the right-click menu can be turned off (its own section, saved by its Save button)', async () => {
    render(<MenuSection />);
    const menu = within(screen.getByRole('region', { name: 'Right-click menu and shortcuts' }));
    const box = menu.getByRole('checkbox', { name: /right-click menu/ }) as HTMLInputElement;
    const save = menu.getByRole('button', { name: 'Save menu setting' }) as HTMLButtonElement;
    await waitFor(() => expect(box.checked).toBe(true));
    expect(save.disabled).toBe(true);
    fireEvent.click(box);
    expect((await contextMenuSettingsItem.getValue()).enabled).toBe(true);
    fireEvent.click(save);
    await waitFor(async () => expect((await contextMenuSettingsItem.getValue()).enabled).toBe(false));
  });
});
