/**
 * "Several profiles" in the options page's list views (components/options/SeveralProfilesSection.tsx):
 * a typed domain goes on the whitelist of the ticked profiles, one outcome each; not offered in
 * Form B.
 */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { AccountContext, accountScope } from '@/components/options/account-context';
import { SeveralProfilesSection } from '@/components/options/SeveralProfilesSection';
import type { ListChange } from '@/lib/messaging/protocol';
import type { SeveralProfilesActions } from '@/lib/profile-groups/page-actions';
import { createFakeClient } from '../../fakes/fake-client';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

function renderSection(form: 'A' | 'B') {
  const sent: { change: ListChange; profiles: readonly string[] }[] = [];
  const actions: SeveralProfilesActions = {
    submit: async (change, profiles) => {
      sent.push({ change, profiles });
      return { outcomes: profiles.map((profile) => ({ profile, state: 'delivered', message: 'Added.' })) };
    },
    readGroups: async () => [],
    saveGroup: async () => ({ ok: false, message: 'not here' }),
    deleteGroup: async () => [],
  };
  render(
    <AccountContext.Provider
      value={accountScope({ client: createFakeClient(form) }, 'default', ['default', 'kids1', 'kids2'])}
    >
      <SeveralProfilesSection actions={actions} />
    </AccountContext.Provider>,
  );
  return sent;
}

describe('several profiles in the options page', () => {
  it('whitelists a typed domain for the ticked profiles, through the worker, one outcome each', async () => {
    const sent = renderSection('A');
    fireEvent.input(screen.getByRole('textbox', { name: 'Domain for several profiles' }), {
      target: { value: 'Games.Example' },
    });
    fireEvent.click(screen.getByRole('checkbox', { name: 'kids2' }));
    fireEvent.click(screen.getByRole('button', { name: 'Whitelist for 2 profiles' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send to 2 profiles' }));
    const outcomes = await screen.findByRole('list', { name: 'Outcome per profile' });
    expect(within(outcomes).getAllByRole('listitem')).toHaveLength(2);
    expect(sent).toEqual([
      {
        change: { op: 'add', list: 'whitelist', domain: 'games.example', source: 'options' },
        profiles: ['default', 'kids2'],
      },
    ]);
  });

  it('is not offered in Form B', () => {
    renderSection('B');
    expect(screen.queryByRole('textbox', { name: 'Domain for several profiles' })).toBeNull();
  });
});
