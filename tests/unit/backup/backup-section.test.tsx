import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { type BackupPermissionsApi, BackupSection } from '@/components/options/BackupSection';
import { BACKUP_FORMAT } from '@/lib/backup/format';
import type { PermissionSet } from '@/lib/diagnosis/permissions';
import { notes } from '@/lib/notes';
import { apiKeyItem, connectionItem, themeItem } from '@/lib/settings/storage';
import { testAccount } from '../account-ids';

const KEY = 'sk-live-abcdef0123456789';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

function fakePermissions(answer: boolean) {
  const held = new Set<string>();
  const requests: string[][] = [];
  const names = (set: PermissionSet) => [...(set.permissions ?? []), ...(set.origins ?? [])];
  const api: BackupPermissionsApi = {
    contains: async (set) => names(set).every((name) => held.has(name)),
    request: async (set) => {
      requests.push(names(set));
      if (answer) for (const name of names(set)) held.add(name);
      return answer;
    },
    remove: async (set) => {
      for (const name of names(set)) held.delete(name);
      return true;
    },
  };
  return { api, requests };
}

function renderSection(permissions = fakePermissions(true)) {
  const downloads: Array<{ text: string; fileName: string }> = [];
  const view = render(
    <BackupSection
      permissions={permissions.api}
      download={(text, fileName) => downloads.push({ text, fileName })}
    />,
  );
  const chooseFile = (text: string, name = 'backup.json') => {
    const input = view.container.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('no file input');
    Object.defineProperty(input, 'files', {
      configurable: true,
      value: [new File([text], name, { type: 'application/json' })],
    });
    fireEvent.change(input);
  };
  return { downloads, chooseFile, permissions };
}

const status = () => screen.getByRole('status', { name: 'Backup' });

describe('Export settings', () => {
  it('leaves the key out unless "Include the API key" is ticked, and warns when it is', async () => {
    await apiKeyItem.setValue(KEY);
    await themeItem.setValue('dark');
    const { downloads } = renderSection();

    fireEvent.click(screen.getByRole('button', { name: 'Export settings' }));
    await waitFor(() => expect(status().textContent).toMatch(/^Exported to .*, without the API key\.$/));
    expect(downloads).toHaveLength(1);
    expect(downloads[0]?.text).not.toContain(KEY);
    expect(JSON.parse(downloads[0]?.text ?? '').settings.theme).toBe('dark');
    expect(downloads[0]?.fileName).toMatch(/^dns-filter-companion-settings-\d{4}-\d{2}-\d{2}\.json$/);

    expect(screen.queryByText(/Whoever has the file/)).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Include the API key' }));
    expect(screen.getByText(/Whoever has the file can change your filtering account/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Export settings' }));
    await waitFor(() => expect(downloads).toHaveLength(2));
    expect(downloads[1]?.text).toContain(KEY);
    await waitFor(() => expect(status().textContent).toMatch(/with the API key: keep the file private/));
    // The status region is on screen and read aloud: never the key itself.
    expect(status().textContent).not.toContain(KEY);
  });
});

describe('Export settings: the pages of list entries', () => {
  it('leaves out the pages entries were added on unless "Include the pages entries were added on" is ticked', async () => {
    await notes.recordAdded(testAccount('A').id, [
      {
        scope: 'A:default',
        list: 'whitelist',
        domain: 'school.example',
        source: 'popup',
        page: 'portal.school.example',
      },
    ]);
    const { downloads } = renderSection();
    fireEvent.click(screen.getByRole('button', { name: 'Export settings' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(downloads[0]?.text).toContain('school.example');
    expect(downloads[0]?.text).not.toContain('portal.school.example');

    fireEvent.click(screen.getByRole('checkbox', { name: 'Include the pages entries were added on' }));
    fireEvent.click(screen.getByRole('button', { name: 'Export settings' }));
    await waitFor(() => expect(downloads).toHaveLength(2));
    expect(downloads[1]?.text).toContain('portal.school.example');
  });
});

describe('Import settings', () => {
  it('refuses a file that is not a backup and changes nothing', async () => {
    await connectionItem.setValue({ baseUrl: 'https://dns.example.net', form: 'B' });
    await themeItem.setValue('light');
    const { chooseFile } = renderSection();

    chooseFile('{"hello": "world"}', 'notes.json');
    await waitFor(() => expect(status().textContent).toMatch(/not a settings backup.*Nothing was changed/));
    expect(await connectionItem.getValue()).toEqual({ baseUrl: 'https://dns.example.net', form: 'B' });
    expect(await themeItem.getValue()).toBe('light');
    expect(screen.queryByRole('heading', { name: 'Imported' })).toBeNull();
  });

  it('reports what was imported, refused and left unchanged, then asks for the access the settings need', async () => {
    const permissions = fakePermissions(true);
    const { chooseFile } = renderSection(permissions);
    chooseFile(
      JSON.stringify({
        format: BACKUP_FORMAT,
        version: 1,
        settings: {
          connection: { baseUrl: 'https://dns.example.net', form: 'A' },
          theme: 'purple',
          chosenProfile: 'kids1',
        },
      }),
    );
    // The file moves the service: the old and new addresses are shown, and confirmed first.
    const dialog = await screen.findByRole('dialog', { name: 'Use the addresses in this file?' });
    expect(dialog.textContent).toContain(
      'Service address (where the API key goes): now https://my.cleanbrowsing.org; the file says https://dns.example.net',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Import' }));

    await waitFor(() =>
      expect(status().textContent).toBe(
        'Imported 2 settings, refused 1 (their current values stay). Details below.',
      ),
    );
    const imported = screen.getByRole('list', { name: 'Imported' });
    expect(imported.textContent).toContain('Service address and API form: https://dns.example.net, /api');
    expect(imported.textContent).toContain('Profile of the popup: kids1');
    expect(screen.getByRole('list', { name: 'Refused' }).textContent).toBe(
      'Theme: not in the expected form (expected one of "system", "light", "dark")',
    );
    expect(screen.getByRole('list', { name: 'Unchanged' }).textContent).toMatch(
      /API key: not in the file: the key saved in this browser stays/,
    );
    expect(await themeItem.getValue()).toBe('system');

    expect(screen.getByText(/to contact dns\.example\.net/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Allow access' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Allow access' })).toBeNull());
    expect(permissions.requests).toEqual([['https://dns.example.net/*']]);
  });

  it('asks for nothing when the imported settings need no new access', async () => {
    const { chooseFile } = renderSection();
    chooseFile(JSON.stringify({ format: BACKUP_FORMAT, version: 1, settings: { theme: 'dark' } }));
    await waitFor(() => expect(status().textContent).toMatch(/^Imported 1 setting\./));
    expect(screen.queryByRole('button', { name: 'Allow access' })).toBeNull();
    expect(await themeItem.getValue()).toBe('dark');
  });
});
