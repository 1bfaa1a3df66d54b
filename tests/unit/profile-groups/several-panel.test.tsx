/**
 * The popup's "Several profiles" panel (components/popup/SeveralProfilesPanel.tsx): a preview per
 * profile before anything is sent, one outcome per profile, Retry of the failed ones only, and
 * saved groups.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { SeveralProfilesPanel } from '@/components/popup/SeveralProfilesPanel';
import type { ListChange, SeveralOutcomes } from '@/lib/messaging/protocol';
import type { ProfileGroup } from '@/lib/profile-groups/groups';
import { removeGroup, saveGroup } from '@/lib/profile-groups/groups';
import type { SeveralProfilesActions } from '@/lib/profile-groups/page-actions';

afterEach(cleanup);

/** A worker whose service refuses the profiles in `refusing` until they are taken out of it. */
function fakeActions(refusing: Set<string>, groups: ProfileGroup[] = []) {
  const sent: { change: ListChange; profiles: readonly string[] }[] = [];
  let stored = groups;
  const actions: SeveralProfilesActions = {
    submit: async (change, profiles) => {
      sent.push({ change, profiles });
      return {
        outcomes: profiles.map((profile) =>
          refusing.has(profile)
            ? { profile, state: 'failed', message: `Profile ${profile} is busy.` }
            : { profile, state: 'delivered', message: `Added to ${profile}.` },
        ),
      } satisfies SeveralOutcomes;
    },
    readGroups: async () => stored,
    saveGroup: async (name, profiles) => {
      const result = saveGroup(stored, name, profiles, () => `group-id-${stored.length + 1}`);
      if (result.ok) stored = result.groups;
      return result;
    },
    deleteGroup: async (id) => {
      stored = removeGroup(stored, id);
      return stored;
    },
  };
  return { actions, sent, stored: () => stored };
}

function renderPanel(actions: SeveralProfilesActions) {
  return render(
    <SeveralProfilesPanel
      domain="games.example"
      profile="kids1"
      profiles={['default', 'kids1', 'kids2']}
      membership="blocklist"
      page="games.example"
      shownAccount={async () => 'home-account-0001'}
      actions={actions}
    />,
  );
}

describe('several profiles in the popup', () => {
  it('previews per profile, sends only after confirming, and shows one outcome per profile', async () => {
    const { actions, sent } = fakeActions(new Set());
    renderPanel(actions);
    fireEvent.click(screen.getByRole('checkbox', { name: 'kids2' }));
    fireEvent.click(screen.getByRole('button', { name: 'Whitelist for 2 profiles' }));
    const preview = screen.getByRole('list', { name: 'Preview per profile' });
    expect(
      within(preview)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'kids1: games.example comes off the blocklist and goes on the whitelist.',
      'kids2: games.example goes on the whitelist (and comes off the blocklist if it is there).',
    ]);
    expect(sent).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Send to 2 profiles' }));
    const outcomes = await screen.findByRole('list', { name: 'Outcome per profile' });
    expect(
      within(outcomes)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['kids1: done Added to kids1.', 'kids2: done Added to kids2.']);
    expect(screen.getByRole('status').textContent).toBe('Done for 2 of 2 profiles.');
    expect(sent).toEqual([
      {
        change: {
          op: 'add',
          list: 'whitelist',
          domain: 'games.example',
          source: 'popup',
          page: 'games.example',
        },
        profiles: ['kids1', 'kids2'],
      },
    ]);
  });

  it('a failure for one profile shows one failed outcome, and Retry sends only that one', async () => {
    const refusing = new Set(['kids2']);
    const { actions, sent } = fakeActions(refusing);
    renderPanel(actions);
    fireEvent.click(screen.getByRole('checkbox', { name: 'kids2' }));
    fireEvent.click(screen.getByRole('button', { name: 'Blocklist for 2 profiles' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send to 2 profiles' }));
    await screen.findByRole('list', { name: 'Outcome per profile' });
    expect(screen.getByRole('status').textContent).toBe('Done for 1 of 2 profiles. Not done: kids2.');

    refusing.clear();
    fireEvent.click(screen.getByRole('button', { name: 'Retry the failed profile' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Done for 2 of 2 profiles.'));
    expect(sent.map(({ change, profiles }) => [change.list, profiles])).toEqual([
      ['blocklist', ['kids1', 'kids2']],
      ['blocklist', ['kids2']],
    ]);
    expect(screen.queryByRole('button', { name: /^Retry/ })).toBeNull();
  });

  it('saves the ticked profiles as a group and ticks a saved group’s profiles, naming those gone', async () => {
    const { actions, stored } = fakeActions(new Set(), [
      { id: 'group-id-old', name: 'Old kids', profiles: ['kids2', 'gone1'] },
    ]);
    renderPanel(actions);
    const select = await screen.findByRole('combobox', { name: 'Saved group' });
    await waitFor(() => expect((select as HTMLSelectElement).disabled).toBe(false));
    fireEvent.change(select, { target: { value: 'group-id-old' } });
    expect((screen.getByRole('checkbox', { name: 'kids2' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'kids1' }) as HTMLInputElement).checked).toBe(false);
    expect(screen.getByRole('note').textContent).toBe('No longer in the account, left out: gone1.');

    fireEvent.click(screen.getByRole('checkbox', { name: 'kids1' }));
    fireEvent.input(screen.getByRole('textbox', { name: 'Group name' }), {
      target: { value: 'All children' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save as group' }));
    await screen.findByText('Saved the group All children.');
    expect(stored().map(({ name, profiles }) => [name, profiles])).toEqual([
      ['Old kids', ['kids2', 'gone1']],
      ['All children', ['kids1', 'kids2']],
    ]);
  });
});
