import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { AccountSwitcher } from '@/components/AccountSwitcher';
import {
  type AccountsActions,
  AccountsSection,
  type AccountsView,
  type NewAccount,
} from '@/components/options/AccountsSection';
import { ApiError } from '@/lib/api/errors';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

const TWO: AccountsView = {
  activeId: 'fam',
  accounts: [
    {
      id: 'fam',
      name: 'Family',
      baseUrl: 'https://my.cleanbrowsing.org',
      form: 'A',
      hasKey: true,
      waiting: 0,
    },
    { id: 'off', name: 'Office', baseUrl: 'http://127.0.0.1:8123', form: 'B', hasKey: true, waiting: 3 },
  ],
};

function fakeActions(overrides: Partial<AccountsActions> = {}) {
  const calls: string[] = [];
  const actions: AccountsActions = {
    maxAccounts: 10,
    checkName(typed, others) {
      const name = typed.trim();
      if (!name) throw new ApiError('invalid-input', 'Enter a name.');
      if (others.some((other) => other.name.toLowerCase() === name.toLowerCase())) {
        throw new ApiError('invalid-input', `An account named ${name} exists already: choose another name.`);
      }
      return name;
    },
    testConnection: vi.fn(async () => ['default', 'kids']),
    add: vi.fn(async (account: NewAccount) => {
      calls.push(`add ${account.name} ${account.baseUrl} ${account.form}`);
      return { active: false };
    }),
    rename: vi.fn(async (id: string, name: string) => void calls.push(`rename ${id} ${name}`)),
    remove: vi.fn(async (id: string) => void calls.push(`remove ${id}`)),
    activate: vi.fn(async (id: string) => void calls.push(`activate ${id}`)),
    ...overrides,
  };
  return { actions, calls };
}

const section = () => screen.getByRole('region', { name: 'Accounts' });

describe('Accounts section', () => {
  it('lists each account with its host and form, marks the active one, says what waits', () => {
    render(<AccountsSection view={TWO} actions={fakeActions().actions} />);
    const items = within(screen.getByRole('list', { name: 'Your accounts' })).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^FamilyActivemy\.cleanbrowsing\.org, \/api/),
      expect.stringMatching(/^Office127\.0\.0\.1:8123, \/api\/v1\/3 changes waiting to be sent/),
    ]);
    // The active account cannot be chosen again; the other can.
    expect(within(items[0]!).queryByRole('button', { name: 'Use Family' })).toBeNull();
    expect(within(items[1]!).getByRole('button', { name: 'Use Office' })).toBeTruthy();
  });

  it('removes an account only after a confirmation that says how many changes would be lost', async () => {
    const { actions, calls } = fakeActions();
    render(<AccountsSection view={TWO} actions={actions} />);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Office' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove the account Office?' });
    expect(dialog.textContent).toContain('3 changes made for it have not been sent yet and will be lost.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Remove Family' }));
    const second = await screen.findByRole('dialog', { name: 'Remove the account Family?' });
    expect(second.textContent).toContain('No change is waiting to be sent to it.');
    fireEvent.click(within(second).getByRole('button', { name: 'Remove' }));
    await within(section()).findByText('Removed Family.');
    expect(calls).toEqual(['remove fam']);
  });

  it('adds an account from what was typed, and keeps it all when something is missing', async () => {
    const { actions, calls } = fakeActions();
    render(<AccountsSection view={TWO} actions={actions} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add account' }));
    const form = within(section());
    fireEvent.input(form.getByRole('textbox', { name: 'Account name' }), { target: { value: '  Parents ' } });
    fireEvent.input(form.getByRole('textbox', { name: 'Base URL' }), {
      target: { value: 'http://127.0.0.1:9000' },
    });
    fireEvent.click(form.getByRole('button', { name: 'Save account' }));
    await form.findByText('Enter your API key first.');
    expect(calls).toEqual([]);
    expect((form.getByRole('textbox', { name: 'Account name' }) as HTMLInputElement).value).toBe(
      '  Parents ',
    );

    fireEvent.input(form.getByLabelText('API key'), { target: { value: 'parents-key' } });
    fireEvent.change(form.getByRole('combobox', { name: 'API form' }), { target: { value: 'B' } });
    fireEvent.click(form.getByRole('button', { name: 'Save account' }));
    await form.findByText('Added Parents.');
    expect(calls).toEqual(['add Parents http://127.0.0.1:9000 B']);
    expect(form.queryByRole('textbox', { name: 'Account name' })).toBeNull();
  });

  it('refuses a name another account has, and renames to a free one', async () => {
    const { actions, calls } = fakeActions();
    render(<AccountsSection view={TWO} actions={actions} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add account' }));
    fireEvent.click(screen.getByRole('button', { name: 'Rename Office' }));
    // One form at a time: renaming closed the new account's form.
    expect(within(section()).getAllByRole('textbox', { name: 'Account name' })).toHaveLength(1);
    const field = within(section()).getByRole('textbox', { name: 'Account name' });
    fireEvent.input(field, { target: { value: 'family' } });
    fireEvent.click(within(section()).getByRole('button', { name: 'Save name' }));
    await within(section()).findByText('An account named family exists already: choose another name.');
    fireEvent.input(field, { target: { value: 'Small office' } });
    fireEvent.click(within(section()).getByRole('button', { name: 'Save name' }));
    await within(section()).findByText('Renamed to Small office.');
    expect(calls).toEqual(['rename off Small office']);
  });

  it('makes another account the active one', async () => {
    const { actions, calls } = fakeActions();
    render(<AccountsSection view={TWO} actions={actions} />);
    fireEvent.click(screen.getByRole('button', { name: 'Use Office' }));
    await within(section()).findByText('Office is now the active account.');
    expect(calls).toEqual(['activate off']);
  });

  it('says how many accounts it keeps, and offers no more at the limit', () => {
    render(<AccountsSection view={TWO} actions={fakeActions({ maxAccounts: 2 }).actions} />);
    expect(section().textContent).toContain('You have 2 accounts, the most this extension keeps.');
    expect((screen.getByRole('button', { name: 'Add account' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('Account switcher', () => {
  const choices = TWO.accounts.map(({ id, name }) => ({ id, name }));

  it('is not shown while there is one account', () => {
    const { container } = render(
      <AccountSwitcher accounts={choices.slice(0, 1)} activeId="fam" onChoose={() => {}} />,
    );
    expect(container.textContent).toBe('');
    expect(screen.queryByRole('combobox', { name: 'Account' })).toBeNull();
  });

  it('shows the active account and reports another choice', () => {
    const chosen: string[] = [];
    render(<AccountSwitcher accounts={choices} activeId="fam" onChoose={(id) => chosen.push(id)} />);
    const box = screen.getByRole('combobox', { name: 'Account' }) as HTMLSelectElement;
    expect(box.value).toBe('fam');
    fireEvent.change(box, { target: { value: 'off' } });
    expect(chosen).toEqual(['off']);
  });
});
