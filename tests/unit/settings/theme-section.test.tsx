import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { AppearanceSection } from '@/components/options/AppearanceSection';
import { themeItem } from '@/lib/settings/storage';
import { THEME_CACHE_KEY } from '@/lib/theme/theme';

beforeEach(() => {
  fakeBrowser.reset();
  localStorage.clear();
  document.documentElement.removeAttribute('data-theme');
});
afterEach(cleanup);

const theme = () => screen.getByRole('combobox', { name: 'Theme' }) as HTMLSelectElement;

it('offers System, Light and Dark, starting from the stored choice', async () => {
  await themeItem.setValue('light');
  render(<AppearanceSection />);
  expect([...theme().options].map((option) => option.textContent)).toEqual(['System', 'Light', 'Dark']);
  await waitFor(() => expect(theme().value).toBe('light'));
});

const save = () => screen.getByRole('button', { name: 'Save appearance' }) as HTMLButtonElement;

it('shows a choice on the page at once and keeps it for the popup and the next opening on Save', async () => {
  render(<AppearanceSection />);
  await waitFor(() => expect(theme().value).toBe('system'));
  expect(save().disabled).toBe(true);
  fireEvent.change(theme(), { target: { value: 'dark' } });
  expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
  expect(screen.getByText('Unsaved changes')).toBeTruthy();
  expect(await themeItem.getValue()).toBe('system');
  fireEvent.click(save());
  await waitFor(async () => expect(await themeItem.getValue()).toBe('dark'));
  expect(localStorage.getItem(THEME_CACHE_KEY)).toBe('dark');
  await screen.findByText('Saved.');
  await waitFor(() => expect(save().disabled).toBe(true));

  fireEvent.change(theme(), { target: { value: 'system' } });
  expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
  fireEvent.click(save());
  await waitFor(async () => expect(await themeItem.getValue()).toBe('system'));
});

it('shows a theme restored from a backup', async () => {
  render(<AppearanceSection />);
  await themeItem.setValue('dark');
  await waitFor(() => expect(theme().value).toBe('dark'));
});
