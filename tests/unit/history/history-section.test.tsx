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

/**
 * The one row whose text holds `text`, as a person reads it. Not by accessible name: a domain
 * offers a break after each dot (`<wbr>`, components/DomainName.tsx), and happy-dom gives no
 * element a display, so dom-accessibility-api puts a space at each one ("games. example").
 */
async function rowWith(section: HTMLElement, text: string): Promise<HTMLTableRowElement> {
  return waitFor(() => {
    const rows = within(section)
      .getAllByRole('row')
      .filter((row) => row.textContent?.includes(text));
    expect(rows).toHaveLength(1);
    return rows[0] as HTMLTableRowElement;
  });
}

/** The tick box of the one diff line whose text holds `text` (see rowWith). */
async function lineWith(section: HTMLElement, text: string): Promise<HTMLInputElement> {
  return waitFor(() => {
    const boxes = within(section)
      .getAllByRole('checkbox')
      .filter((box) => box.closest('label')?.textContent?.includes(text));
    expect(boxes).toHaveLength(1);
    return boxes[0] as HTMLInputElement;
  });
}

/** The section's services over the real store, snapshot, diff and rollback, with a fake service. */
function servicesFor(client: ReturnType<typeof createFakeClient>, { apart = 60_000 } = {}) {
  let clock = 1_000_000;
  const store = createHistoryStore(historyDeps(memoryStorage().storage, () => clock));
  const known = { tlds: {}, defaultBlock: {} };
  const downloads: string[] = [];
  let job: RollbackJob | null = null;
  const take = async () => {
    clock += apart;
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

/** The section open over `client`'s account, with its first snapshot taken. */
async function openWithSnapshot(client: ReturnType<typeof createFakeClient>, options?: { apart?: number }) {
  const { services, downloads } = servicesFor(client, options);
  render(<HistorySection services={services} />);
  const section = await screen.findByRole('region', { name: 'History' });
  fireEvent.click(within(section).getByRole('button', { name: 'Take snapshot' }));
  await within(section).findByText('Snapshot taken.');
  return { section, downloads };
}

describe('History section', () => {
  it('takes a snapshot, shows a change made elsewhere, and rolls it back after a dialog naming count and profiles', async () => {
    const client = createFakeClient('A', {
      profiles: ['default', 'kids'],
      lists: { whitelist: { kids: new Set(['school.example']) }, blocklist: {} },
    });
    const { section, downloads } = await openWithSnapshot(client);

    // Changed behind the extension's back.
    client.state.lists.whitelist.kids!.add('games.example');
    client.state.lists.whitelist.kids!.delete('school.example');
    fireEvent.click(within(section).getByRole('button', { name: 'Take snapshot' }));
    const games = await rowWith(section, 'games.example');
    expect(games.textContent).toContain('elsewhere');
    // What happened to the entry, in words; no Note column while no change has a note.
    expect(games.textContent).toContain('Added to whitelist');
    expect((await rowWith(section, 'school.example')).textContent).toContain('Removed from whitelist');
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
    const { section } = await openWithSnapshot(client);
    client.state.lists.whitelist.default!.add('a.example');
    client.state.lists.whitelist.default!.add('b.example');
    fireEvent.click(within(section).getAllByRole('button', { name: /^Compare with now/ })[0]!);
    const box = await lineWith(section, 'a.example');
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
    const { section } = await openWithSnapshot(client);
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

describe('History section at a narrow window', () => {
  it('shows a domain as pieces that break only after a dot, a hyphenated label whole; a category as plain words', async () => {
    const client = createFakeClient('A', {
      lists: { whitelist: { default: new Set() }, blocklist: { default: new Set() } },
      blocked: { default: new Set() },
    });
    const { section } = await openWithSnapshot(client);
    client.state.lists.whitelist.default!.add('homework-help.example');
    client.state.blocked.default!.add('category_social_network');
    fireEvent.click(within(section).getByRole('button', { name: 'Take snapshot' }));

    const row = await rowWith(section, 'homework-help.example');
    const entry = row.querySelector('bdi.domain');
    expect(entry?.textContent).toBe('homework-help.example');
    // The label with a hyphen is one piece that does not wrap (.domain > span); a break only after its dot.
    expect([...(entry?.querySelectorAll(':scope > span') ?? [])].map((span) => span.textContent)).toEqual([
      'homework-help.',
    ]);
    expect(entry?.querySelectorAll('wbr')).toHaveLength(1);
    const category = within(section).getByRole('row', { name: /Category blocked/ });
    expect(category.querySelector('.domain')).toBeNull();
    expect(category.textContent).toContain('Social networks');

    // "Compare with now" (the first snapshot had neither) lists the same domain the same way.
    fireEvent.click(
      within(section)
        .getAllByRole('button', { name: /^Compare with now/ })
        .at(-1)!,
    );
    const box = await lineWith(section, 'homework-help.example');
    const line = box.closest('label')!;
    expect(line.querySelector('bdi.domain > span')?.textContent).toBe('homework-help.');
    expect(
      within(section)
        .getByRole('checkbox', { name: /Social networks/ })
        .closest('label')!
        .querySelector('.domain'),
    ).toBeNull();
  });
});

describe('History section, two snapshots within a minute', () => {
  it('reads two different times, in the snapshots and in what changed', async () => {
    const client = createFakeClient('A', { lists: { whitelist: { default: new Set() }, blocklist: {} } });
    const { section } = await openWithSnapshot(client, { apart: 5_000 });
    client.state.lists.whitelist.default!.add('a.example');
    fireEvent.click(within(section).getByRole('button', { name: 'Take snapshot' }));
    const change = await rowWith(section, 'a.example');

    const snapshots = within(section).getAllByRole('button', { name: /^Compare with now/ });
    expect(snapshots).toHaveLength(2);
    const [newer, older] = snapshots.map((button) => button.closest('tr')!.cells[0]!.textContent);
    expect(newer).not.toBe(older);
    // The change's time is the newer snapshot's, not the older one's.
    expect(change.cells[0]!.textContent).toBe(newer);
  });
});
