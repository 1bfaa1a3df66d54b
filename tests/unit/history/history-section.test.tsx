import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { HistorySection, type HistoryServices } from '@/components/options/history/HistorySection';
import { attributeChanges } from '@/lib/history/changes';
import { diffSections } from '@/lib/history/diff';
import { planRollback, type RollbackJob, runRollback } from '@/lib/history/rollback';
import { DEFAULT_HISTORY_SETTINGS } from '@/lib/history/schema';
import { createHistoryStore } from '@/lib/history/store';
import { takeSnapshot } from '@/lib/history/take';
import { createFakeClient } from '../../fakes/fake-client';
import { historyDeps, memoryStorage } from './memory-storage';

afterEach(cleanup);

/** The section's services over the real store, snapshot, diff and rollback, with a fake service. */
function servicesFor(client: ReturnType<typeof createFakeClient>) {
  let clock = 1_000_000;
  const store = createHistoryStore(historyDeps(memoryStorage().storage, () => clock));
  const known = { tlds: {}, defaultBlock: {} };
  const downloads: string[] = [];
  let job: RollbackJob | null = null;
  const take = async () => {
    clock += 60_000;
    return store.add('acc', await takeSnapshot(client, known, 'manual', () => clock), 90);
  };
  const services: HistoryServices = {
    account: 'acc',
    client,
    read: async () => ({
      snapshots: [...(await store.list('acc'))].reverse(),
      rows: attributeChanges(await store.changes('acc'), {
        form: 'A',
        journal: [],
        settled: [],
        notes: [],
        rollbacks: [],
      }),
      rollback: null,
    }),
    take,
    diff: async (id) => {
      const snapshot = await store.snapshotOf('acc', id);
      if (!snapshot) return null;
      const lines = diffSections(snapshot.sections, (await takeSnapshot(client, known, 'manual')).sections);
      return { snapshot, lines, plan: planRollback(lines) };
    },
    rollBack: async (_diff, lines, onProgress) => {
      await take();
      job = {
        v: 1,
        id: 'j',
        account: 'acc',
        snapshotTakenAt: 0,
        createdAt: clock,
        steps: planRollback(lines).steps,
        next: 0,
        refused: [],
        attempts: 0,
        nextAttemptAt: 0,
      };
      const outcome = await runRollback('acc', client, {
        read: async () => job,
        write: async (next) => {
          job = next;
        },
        now: () => clock,
        sleep: async () => undefined,
        onProgress,
      });
      return outcome.state === 'none' ? null : outcome.job;
    },
    readSettings: async () => DEFAULT_HISTORY_SETTINGS,
    saveSettings: async () => undefined,
    download: (text) => void downloads.push(text),
  };
  return { services, downloads };
}

describe('History section', () => {
  it('takes a snapshot, shows a change made elsewhere, and rolls it back after a dialog naming count and profiles', async () => {
    const client = createFakeClient('A', {
      profiles: ['default', 'kids'],
      lists: { whitelist: { kids: new Set(['school.example']) }, blocklist: {} },
    });
    const { services, downloads } = servicesFor(client);
    render(<HistorySection services={services} />);
    const section = await screen.findByRole('region', { name: 'History' });
    fireEvent.click(within(section).getByRole('button', { name: 'Take snapshot' }));
    await within(section).findByText('Snapshot taken.');

    // Changed behind the extension's back.
    client.state.lists.whitelist.kids!.add('games.example');
    client.state.lists.whitelist.kids!.delete('school.example');
    fireEvent.click(within(section).getByRole('button', { name: 'Take snapshot' }));
    await waitFor(() =>
      expect(within(section).getAllByRole('row', { name: /games\.example/ })).toHaveLength(1),
    );
    expect(within(section).getByRole('row', { name: /games\.example/ }).textContent).toContain('elsewhere');
    // What happened to the entry, in words; no Note column while no change has a note.
    expect(within(section).getByRole('row', { name: /games\.example/ }).textContent).toContain(
      'Added to whitelist',
    );
    expect(within(section).getByRole('row', { name: /school\.example/ }).textContent).toContain(
      'Removed from whitelist',
    );
    expect(within(section).queryByRole('columnheader', { name: 'Note' })).toBeNull();

    fireEvent.click(within(section).getByRole('button', { name: 'Export CSV' }));
    expect(downloads[0]).toContain('kids,whitelist,added,games.example,elsewhere');

    const compare = within(section).getAllByRole('button', { name: /^Compare with now/ });
    fireEvent.click(compare.at(-1)!);
    const rollBack = await within(section).findByRole('button', { name: /^Roll back/ });
    fireEvent.click(rollBack);
    const dialog = await screen.findByRole('dialog', { name: /^Roll back to the snapshot of/ });
    expect(dialog.textContent).toContain('2 changes, in these profiles: kids.');
    fireEvent.click(within(dialog).getByRole('button', { name: /^Roll back 2 changes/ }));
    await within(section).findByText('Rollback done: 2 of 2 changes made.');
    expect([...client.state.lists.whitelist.kids!]).toEqual(['school.example']);
  });

  it('rolls back only the ticked lines', async () => {
    const client = createFakeClient('A', { lists: { whitelist: { default: new Set() }, blocklist: {} } });
    const { services } = servicesFor(client);
    render(<HistorySection services={services} />);
    const section = await screen.findByRole('region', { name: 'History' });
    fireEvent.click(within(section).getByRole('button', { name: 'Take snapshot' }));
    await within(section).findByText('Snapshot taken.');
    client.state.lists.whitelist.default!.add('a.example');
    client.state.lists.whitelist.default!.add('b.example');
    fireEvent.click(within(section).getAllByRole('button', { name: /^Compare with now/ })[0]!);
    const box = await within(section).findByRole('checkbox', { name: /a\.example/ });
    fireEvent.click(box);
    fireEvent.click(within(section).getByRole('button', { name: /^Roll back 1 change/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: /^Roll back 1 change/ }));
    await within(section).findByText('Rollback done: 1 of 1 changes made.');
    expect([...client.state.lists.whitelist.default!]).toEqual(['a.example']);
  });
});

describe('History section, a category', () => {
  it('is named as the categories section names it, never by the service id', async () => {
    const client = createFakeClient('A', { blocked: { default: new Set() } });
    const { services } = servicesFor(client);
    render(<HistorySection services={services} />);
    const section = await screen.findByRole('region', { name: 'History' });
    fireEvent.click(within(section).getByRole('button', { name: 'Take snapshot' }));
    await within(section).findByText('Snapshot taken.');
    client.state.blocked.default!.add('category_social_network');
    fireEvent.click(within(section).getByRole('button', { name: 'Take snapshot' }));
    const row = await within(section).findByRole('row', { name: /Category blocked/ });
    expect(row.textContent).toContain('Social networks');
    expect(section.textContent).not.toContain('category_social_network');

    fireEvent.click(
      within(section)
        .getAllByRole('button', { name: /^Compare with now/ })
        .at(-1)!,
    );
    const line = await within(section).findByRole('checkbox', { name: /Social networks/ });
    expect(line.closest('label')!.textContent).not.toContain('category_social_network');
  });
});
