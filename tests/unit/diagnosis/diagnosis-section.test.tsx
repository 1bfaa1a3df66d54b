import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { type DiagnosisPermissionsApi, DiagnosisSection } from '@/components/options/DiagnosisSection';
import type { PermissionSet } from '@/lib/diagnosis/permissions';
import { connectionItem, diagnosisSettingsItem } from '@/lib/settings/storage';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

/** A browser that holds a set of granted permissions and origins and answers prompts as told. */
function fakePermissions(answer: boolean) {
  const held = new Set<string>();
  const calls: string[] = [];
  const names = (set: PermissionSet) => [...(set.permissions ?? []), ...(set.origins ?? [])];
  const api: DiagnosisPermissionsApi = {
    async contains(set) {
      return names(set).every((name) => held.has(name));
    },
    async request(set) {
      calls.push(`request ${names(set).join(' ')}`);
      if (answer) for (const name of names(set)) held.add(name);
      return answer;
    },
    async remove(set) {
      calls.push(`remove ${names(set).join(' ')}`);
      for (const name of names(set)) held.delete(name);
      return true;
    },
  };
  return { api, held, calls };
}

const toggle = () => screen.getByRole('checkbox', { name: 'Diagnose pages' }) as HTMLInputElement;
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save page diagnosis' }));
const status = () => screen.getByRole('status', { name: 'Page diagnosis' });

describe('"Diagnose pages" on the options page', () => {
  it('explains itself and asks for its permissions only when turned on', async () => {
    const browser = fakePermissions(true);
    render(<DiagnosisSection permissions={browser.api} />);
    expect(screen.getByRole('region', { name: 'Page diagnosis' })).toBeTruthy();
    expect(toggle().checked).toBe(false);
    expect(toggle().getAttribute('aria-describedby')).toBeTruthy();
    expect(browser.calls).toEqual([]);

    fireEvent.click(toggle());
    expect(browser.calls).toEqual([]);
    save();
    // The prompt is the first thing the Save click does: a browser shows it only during the gesture.
    expect(browser.calls).toEqual(['request webRequest webNavigation <all_urls>']);
    await waitFor(() => expect(status().textContent).toMatch(/^Page diagnosis is on/));
    expect(await diagnosisSettingsItem.getValue()).toEqual({ enabled: true });
    expect(toggle().checked).toBe(true);
  });

  it('stays off when the browser does not grant the permission', async () => {
    const browser = fakePermissions(false);
    render(<DiagnosisSection permissions={browser.api} />);
    fireEvent.click(toggle());
    save();
    await waitFor(() => expect(status().textContent).toMatch(/^Not turned on: the browser did not grant/));
    expect(await diagnosisSettingsItem.getValue()).toEqual({ enabled: false });
    expect(toggle().checked).toBe(false);
  });

  it('turning it off gives the permissions back, and asks again for a custom service address', async () => {
    const browser = fakePermissions(true);
    await connectionItem.setValue({ baseUrl: 'https://filter.example.org', form: 'A' });
    render(<DiagnosisSection permissions={browser.api} />);
    fireEvent.click(toggle());
    save();
    await waitFor(() => expect(status().textContent).toMatch(/^Page diagnosis is on/));
    expect(toggle().checked).toBe(true);

    fireEvent.click(toggle());
    save();
    await waitFor(() => expect(status().textContent).toMatch(/^Page diagnosis is off/));
    expect(await diagnosisSettingsItem.getValue()).toEqual({ enabled: false });
    expect(browser.calls.slice(1)).toEqual([
      'remove webRequest webNavigation <all_urls>',
      'request https://filter.example.org/*',
    ]);
    expect(browser.held.has('webRequest')).toBe(false);
  });

  it('says so when the setting is on but the permission was withdrawn in the browser', async () => {
    const browser = fakePermissions(true);
    await diagnosisSettingsItem.setValue({ enabled: true });
    render(<DiagnosisSection permissions={browser.api} />);
    await waitFor(() => expect(screen.getByText(/no longer grants its permission/)).toBeTruthy());
    expect(toggle().checked).toBe(false);
  });
});
