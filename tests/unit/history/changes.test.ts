import { describe, expect, it } from 'vitest';
import { attributeChanges, changesCsv, filterChanges, madeByText, NO_FILTER } from '@/lib/history/changes';
import { createJournal, journaledClient } from '@/lib/history/journal';
import type { SnapshotChanges } from '@/lib/history/store';
import { applyCopy, planCopy } from '@/lib/profile-groups/copy';
import type { SettledChange } from '@/lib/settings/storage';
import { createFakeClient } from '../../fakes/fake-client';
import { memoryStorage } from './memory-storage';

const DAY = 24 * 60 * 60_000;
const changes: SnapshotChanges[] = [
  {
    id: 's3',
    takenAt: 3 * DAY,
    reason: 'manual',
    lines: [
      { kind: 'whitelist', scope: 'kids', entry: 'games.example', change: 'added' },
      { kind: 'blocklist', scope: 'kids', entry: 'ads.example', change: 'removed' },
      { kind: 'categories', scope: 'kids', entry: 'category_gaming', change: 'removed' },
    ],
  },
  {
    id: 's2',
    takenAt: 2 * DAY,
    reason: 'daily',
    lines: [{ kind: 'whitelist', scope: 'default', entry: 'school.example', change: 'added' }],
  },
];

function journalInMemory() {
  const { storage } = memoryStorage();
  const journal = createJournal({
    storage,
    exclusively: (_name, fn) => fn(),
    withRoom: (write) => write(),
    retentionDays: async () => 90,
    now: () => 2 * DAY,
  });
  return { journal };
}

const records = {
  form: 'A' as const,
  journal: [],
  settled: [
    {
      id: 'c1',
      account: 'A https://x abcdefabcdefabcd',
      state: 'delivered' as const,
      message: 'done',
      at: 2.5 * DAY,
      change: {
        op: 'add' as const,
        list: 'whitelist' as const,
        domain: 'games.example',
        profile: 'kids',
        source: 'popup' as const,
        page: 'games.example',
      },
    },
  ],
  notes: [
    {
      scope: 'A:kids',
      list: 'whitelist' as const,
      domain: 'games.example',
      at: 2.6 * DAY,
      note: 'Homework, said Mum',
    },
    {
      scope: 'A:default',
      list: 'whitelist' as const,
      domain: 'school.example',
      addedAt: 1.5 * DAY,
      source: 'menu' as const,
      at: 1.5 * DAY,
    },
  ],
  rollbacks: [
    {
      from: 2.8 * DAY,
      to: 2.9 * DAY,
      steps: [{ kind: 'blocklist' as const, scope: 'kids', entry: 'ads.example', op: 'remove' as const }],
    },
  ],
};

describe('what changed', () => {
  it("marks a category or default block a schedule set through the outbox as this browser's", () => {
    const schedule = (id: string, at: number, change: SettledChange['change']): SettledChange => ({
      id,
      account: 'A https://x abcdefabcdefabcd',
      state: 'delivered',
      message: 'done',
      at,
      change,
    });
    const rows = attributeChanges(
      [
        {
          id: 's5',
          takenAt: 5 * DAY,
          reason: 'daily',
          lines: [
            { kind: 'categories', scope: 'kids', entry: 'category_gaming', change: 'added' },
            { kind: 'categories', scope: 'kids', entry: 'category_dating', change: 'added' },
            { kind: 'defaultBlock', scope: 'kids', entry: 'on', change: 'removed' },
          ],
        },
        { id: 's4', takenAt: 4 * DAY, reason: 'daily', lines: [] },
      ],
      {
        ...records,
        settled: [
          schedule('c3', 4.5 * DAY, {
            op: 'set-default-block',
            enabled: false,
            profile: 'kids',
            source: 'schedule',
          }),
          schedule('c2', 4.2 * DAY, {
            op: 'set-category',
            category: 'category_gaming',
            blocked: true,
            profile: 'kids',
            source: 'schedule',
          }),
        ],
      },
    );
    expect(rows.map((row) => [row.entry, row.madeHere?.surface ?? 'elsewhere'])).toEqual([
      ['category_gaming', 'schedule'],
      // Blocked elsewhere (the dashboard): no change of this browser names it.
      ['category_dating', 'elsewhere'],
      ['on', 'schedule'],
    ]);
  });

  it('marks each change as made here (surface, page, note) or elsewhere, newest first', () => {
    const rows = attributeChanges(changes, records);
    expect(
      rows.map((row) => [row.entry, row.madeHere?.surface ?? 'elsewhere', row.madeHere?.page, row.note]),
    ).toEqual([
      ['games.example', 'popup', 'games.example', 'Homework, said Mum'],
      ['ads.example', 'rollback', undefined, undefined],
      ['category_gaming', 'elsewhere', undefined, undefined],
      ['school.example', 'menu', undefined, undefined],
    ]);
  });

  it('a change made here before the span of its snapshot is not taken for this one', () => {
    const late = { ...records, settled: [{ ...records.settled[0]!, at: 3.5 * DAY }], notes: [] };
    expect(attributeChanges(changes, late)[0]!.madeHere).toBeUndefined();
  });

  it('filters by profile, kind, origin and text', () => {
    const rows = attributeChanges(changes, records);
    expect(filterChanges(rows, { ...NO_FILTER, profile: 'default' }).map((r) => r.entry)).toEqual([
      'school.example',
    ]);
    expect(filterChanges(rows, { ...NO_FILTER, kind: 'categories' }).map((r) => r.entry)).toEqual([
      'category_gaming',
    ]);
    expect(filterChanges(rows, { ...NO_FILTER, origin: 'elsewhere' }).map((r) => r.entry)).toEqual([
      'category_gaming',
    ]);
    expect(filterChanges(rows, { ...NO_FILTER, text: 'mum' }).map((r) => r.entry)).toEqual(['games.example']);
  });

  it('finds a category by the name shown for it, not only by its id', () => {
    const rows = attributeChanges(changes, records).map((row) =>
      row.kind === 'categories' ? { ...row, entry: 'category_social_network' } : row,
    );
    expect(filterChanges(rows, { ...NO_FILTER, text: 'social networks' }).map((r) => r.entry)).toEqual([
      'category_social_network',
    ]);
  });

  it('exports CSV with quoting, no formula a spreadsheet would run, and nothing of the connection', () => {
    const rows = attributeChanges(changes, records);
    rows[0]!.note = '=HYPERLINK("http://evil")';
    const csv = changesCsv(rows, [
      'When',
      'Profile',
      'Kind',
      'Change',
      'Entry',
      'Made',
      'Surface',
      'Page',
      'Note',
    ]);
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('When,Profile,Kind,Change,Entry,Made,Surface,Page,Note');
    expect(lines[1]).toBe(
      `1970-01-04T00:00:00.000Z,kids,whitelist,added,games.example,this browser,popup,games.example,"'=HYPERLINK(""http://evil"")"`,
    );
    expect(lines).toHaveLength(5);
    expect(csv).not.toContain(records.settled[0]!.account);
  });
});

describe("what changed, from this browser's journal", () => {
  const ACCOUNT = 'A https://my.cleanbrowsing.org 0123456789abcdef';
  const kinds: SnapshotChanges[] = [
    {
      id: 's2',
      takenAt: 2 * DAY,
      reason: 'manual',
      lines: [
        { kind: 'categories', scope: 'kids', entry: 'category_gaming', change: 'added' },
        { kind: 'defaultBlock', scope: 'kids', entry: 'on', change: 'removed' },
        { kind: 'networks', scope: 'kids', entry: '203.0.113.7 home', change: 'removed' },
        { kind: 'profiles', scope: '', entry: 'guests', change: 'added' },
        { kind: 'blocklist', scope: 'kids', entry: 'ads.example', change: 'removed' },
        { kind: 'whitelist', scope: 'kids', entry: 'late.example', change: 'added' },
      ],
    },
  ];

  it('categories, default block, networks and profiles changed in the options page are this browser’s', async () => {
    const { journal } = journalInMemory();
    const service = createFakeClient('A', { profiles: ['default', 'kids'] });
    service.state.networks = [{ ip: '203.0.113.7', label: 'home', profile: 'kids' }];
    const client = journaledClient(service, ACCOUNT, 'options', journal, () => 1.5 * DAY);
    await client.setCategoryBlocked('category_gaming', true, 'kids');
    await client.setDefaultBlock(false, 'kids');
    await client.deleteNetwork({ ip: '203.0.113.7', profile: 'kids' });
    await client.addProfile('guests');
    await journal.record(ACCOUNT, [
      {
        at: 1.2 * DAY,
        kind: 'blocklist',
        scope: 'kids',
        entry: 'ads.example',
        op: 'remove',
        surface: 'popup',
        page: 'ads.example',
      },
      // After the snapshot: not this one's.
      { at: 2.5 * DAY, kind: 'whitelist', scope: 'kids', entry: 'late.example', op: 'add', surface: 'popup' },
    ]);
    const rows = attributeChanges(kinds, {
      ...records,
      settled: [],
      notes: [],
      rollbacks: [],
      journal: await journal.read(ACCOUNT),
    });
    expect(rows.map((row) => [row.entry, row.madeHere?.surface ?? 'elsewhere', row.madeHere?.page])).toEqual([
      ['category_gaming', 'options', undefined],
      ['on', 'options', undefined],
      ['203.0.113.7 home', 'options', undefined],
      ['guests', 'options', undefined],
      ['ads.example', 'popup', 'ads.example'],
      ['late.example', 'elsewhere', undefined],
    ]);
  });

  it('a copy of a profile made in the options page is this browser’s, step by step', async () => {
    const { journal } = journalInMemory();
    const service = createFakeClient('A', { profiles: ['default', 'kids'] });
    const client = journaledClient(service, ACCOUNT, 'options', journal, () => 1.5 * DAY);
    const plan = planCopy(
      'kids',
      {
        categories: ['category_gaming'],
        blockedCategories: ['category_gaming'],
        whitelist: ['school.example'],
        blocklist: [],
        defaultBlock: true,
      },
      'teens',
      null,
    );
    expect((await applyCopy(client, plan)).every(({ ok }) => ok)).toBe(true);
    const copied: SnapshotChanges = {
      id: 's2',
      takenAt: 2 * DAY,
      reason: 'manual',
      lines: [
        { kind: 'profiles', scope: '', entry: 'teens', change: 'added' },
        { kind: 'categories', scope: 'teens', entry: 'category_gaming', change: 'added' },
        { kind: 'whitelist', scope: 'teens', entry: 'school.example', change: 'added' },
        { kind: 'defaultBlock', scope: 'teens', entry: 'on', change: 'added' },
      ],
    };
    const rows = attributeChanges([copied], {
      ...records,
      settled: [],
      notes: [],
      rollbacks: [],
      journal: await journal.read(ACCOUNT),
    });
    expect(rows.map((row) => row.madeHere?.surface)).toEqual(['options', 'options', 'options', 'options']);
  });
});

describe('who made a row, in words', () => {
  const row = {
    kind: 'whitelist',
    scope: 'kids',
    entry: 'a.example',
    change: 'added',
    snapshotId: 's',
    takenAt: 0,
  } as const;
  it('names the surface as a person reads it, the page when known, and elsewhere otherwise', () => {
    expect(madeByText({ ...row, madeHere: { surface: 'menu', page: 'news.example' } })).toBe(
      'this browser, from the right-click menu on news.example',
    );
    expect(madeByText({ ...row, madeHere: { surface: 'schedule' } })).toBe('this browser, from a schedule');
    expect(madeByText({ ...row, madeHere: { surface: 'rollback' } })).toBe('this browser, from a rollback');
    expect(madeByText(row)).toBe('elsewhere');
  });
});
