import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { MAX_ACCOUNTS } from '@/lib/accounts';
import {
  browserNotesStorage,
  createNotesStore,
  type EntryRecord,
  MAX_ENTRIES_PER_ACCOUNT,
  NOTE_MAX_CHARS,
  recordOf,
} from '@/lib/notes';
import { exclusively } from '@/lib/outbox/lease';
import { testAccount } from '../account-ids';

const ACCOUNT = testAccount('A').id;
const OTHER = testAccount('A', 'fedcba9876543210').id;
const school = { scope: 'A:default', list: 'whitelist', domain: 'school.example' } as const;

function setUp(start = 1_000_000, accountsHere: readonly string[] = []) {
  let clock = start;
  const store = createNotesStore({
    storage: browserNotesStorage,
    exclusively,
    now: () => clock,
    accountsHere: async () => new Set(accountsHere),
  });
  return { store, advance: (ms = 1) => (clock += ms) };
}

beforeEach(() => fakeBrowser.reset());

describe('recording entries added here', () => {
  it('keeps when, from where and on which page, per account', async () => {
    const { store } = setUp();
    await store.recordAdded(ACCOUNT, [{ ...school, source: 'menu', page: 'portal.school.example' }]);

    expect(recordOf(await store.read(ACCOUNT), school)).toEqual({
      ...school,
      addedAt: 1_000_000,
      source: 'menu',
      page: 'portal.school.example',
      at: 1_000_000,
    });
    expect((await store.read(OTHER)).entries).toEqual([]);
  });

  it('adding to the other list forgets the record on this one; adding again keeps the note', async () => {
    const { store, advance } = setUp();
    await store.recordAdded(ACCOUNT, [{ ...school, source: 'popup' }]);
    await store.setNote(ACCOUNT, school, 'school portal');
    advance();
    await store.recordAdded(ACCOUNT, [{ ...school, source: 'shortcut' }]);
    expect(recordOf(await store.read(ACCOUNT), school)).toMatchObject({
      source: 'shortcut',
      note: 'school portal',
    });

    await store.recordAdded(ACCOUNT, [{ ...school, list: 'blocklist', source: 'logs' }]);
    const notes = await store.read(ACCOUNT);
    expect(recordOf(notes, school)).toBeUndefined();
    expect(recordOf(notes, { ...school, list: 'blocklist' })).toMatchObject({ source: 'logs' });
  });

  it('a page is a host name, never a whole address', async () => {
    const { store } = setUp();
    await expect(
      store.recordAdded(ACCOUNT, [
        { ...school, source: 'popup', page: 'https://school.example/login?token=1' },
      ]),
    ).rejects.toThrow();
    expect((await store.read(ACCOUNT)).entries).toEqual([]);
  });
});

describe('notes', () => {
  it('are written, changed and cleared; clearing keeps where the entry came from', async () => {
    const { store } = setUp();
    await store.recordAdded(ACCOUNT, [{ ...school, source: 'popup' }]);
    await store.setNote(ACCOUNT, school, '  school portal  ');
    expect(recordOf(await store.read(ACCOUNT), school)?.note).toBe('school portal');
    await store.setNote(ACCOUNT, school, 'homework site');
    expect(recordOf(await store.read(ACCOUNT), school)?.note).toBe('homework site');
    await store.setNote(ACCOUNT, school, '   ');
    const record = recordOf(await store.read(ACCOUNT), school);
    expect(record).toMatchObject({ source: 'popup' });
    expect(record?.note).toBeUndefined();
  });

  it('on an entry added elsewhere, a note makes a record of its own, and clearing it forgets it', async () => {
    const { store } = setUp();
    await store.setNote(ACCOUNT, school, 'from the school');
    expect(recordOf(await store.read(ACCOUNT), school)).toEqual({
      ...school,
      note: 'from the school',
      at: 1_000_000,
    });
    await store.setNote(ACCOUNT, school, '');
    expect((await store.read(ACCOUNT)).entries).toEqual([]);
    expect(await fakeBrowser.storage.local.get(null)).toEqual({ listNotesAccounts: {} });
  });

  it(`are cut to ${NOTE_MAX_CHARS} characters, without control characters`, async () => {
    const { store } = setUp();
    await store.setNote(ACCOUNT, school, `a\u0000b${'x'.repeat(500)}`);
    const note = recordOf(await store.read(ACCOUNT), school)?.note ?? '';
    expect(note.length).toBe(NOTE_MAX_CHARS);
    expect(note.startsWith('a b')).toBe(true);
  });
});

describe('bounds', () => {
  it(`keeps at most ${MAX_ENTRIES_PER_ACCOUNT} entries per account, the oldest without a note going first`, async () => {
    const { store, advance } = setUp();
    await store.recordAdded(ACCOUNT, [{ ...school, domain: 'first.example', source: 'popup' }]);
    await store.setNote(ACCOUNT, { ...school, domain: 'first.example' }, 'keep me');
    advance();
    const many = Array.from({ length: MAX_ENTRIES_PER_ACCOUNT }, (_, index) => ({
      ...school,
      domain: `d${index}.example`,
      source: 'options' as const,
    }));
    for (const addition of many) {
      advance();
      await store.recordAdded(ACCOUNT, [addition]);
    }
    const { entries } = await store.read(ACCOUNT);
    expect(entries).toHaveLength(MAX_ENTRIES_PER_ACCOUNT);
    const domains = entries.map((entry: EntryRecord) => entry.domain);
    // The noted one stays although it is the oldest; the oldest without a note went.
    expect(domains).toContain('first.example');
    expect(domains).not.toContain('d0.example');
    expect(domains).toContain(`d${MAX_ENTRIES_PER_ACCOUNT - 1}.example`);
  });

  it('keeps the notes of every account this browser can hold, the 9th and 10th too', async () => {
    const { store, advance } = setUp();
    const accounts = Array.from(
      { length: MAX_ACCOUNTS },
      (_, index) => testAccount('A', index.toString(16).padStart(16, '0')).id,
    );
    for (const account of accounts) {
      advance();
      await store.recordAdded(account, [{ ...school, source: 'popup' }]);
      await store.setNote(account, school, `client ${account}`);
    }
    for (const account of accounts) {
      expect(recordOf(await store.read(account), school)?.note).toBe(`client ${account}`);
    }
    expect(Object.keys(await store.exportAll())).toHaveLength(MAX_ACCOUNTS);
  });

  it(`keeps the records of at most ${MAX_ACCOUNTS} accounts, dropping the one written longest ago`, async () => {
    const { store, advance } = setUp();
    const accounts = Array.from(
      { length: MAX_ACCOUNTS + 1 },
      (_, index) => testAccount('A', index.toString(16).padStart(16, '0')).id,
    );
    for (const account of accounts) {
      advance();
      await store.recordAdded(account, [{ ...school, source: 'popup' }]);
    }
    expect((await store.read(accounts[0]!)).entries).toEqual([]);
    expect((await store.read(accounts[MAX_ACCOUNTS]!)).entries).toHaveLength(1);
    expect(Object.keys(await store.exportAll())).toHaveLength(MAX_ACCOUNTS);
  });

  it('records of an identity that is no account here (an earlier key) go before any account’s', async () => {
    const earlierKey = testAccount('A', 'ffffffffffffffff').id;
    const accounts = Array.from(
      { length: MAX_ACCOUNTS },
      (_, index) => testAccount('A', index.toString(16).padStart(16, '0')).id,
    );
    const { store, advance } = setUp(1_000_000, accounts);
    for (const account of accounts) {
      advance();
      await store.recordAdded(account, [{ ...school, source: 'popup' }]);
    }
    // Written last, but the first to go when an account here needs room.
    advance();
    await store.recordAdded(earlierKey, [{ ...school, source: 'popup' }]);
    expect((await store.read(earlierKey)).entries).toEqual([]);
    for (const account of accounts) expect((await store.read(account)).entries).toHaveLength(1);
  });
});

describe('removal', () => {
  it('forgets the records of removed entries only', async () => {
    const { store } = setUp();
    await store.recordAdded(ACCOUNT, [
      { ...school, source: 'popup' },
      { ...school, domain: 'other.example', source: 'popup' },
    ]);
    await store.setNote(ACCOUNT, school, 'school portal');
    await store.forget(ACCOUNT, [school]);
    expect((await store.read(ACCOUNT)).entries.map((entry) => entry.domain)).toEqual(['other.example']);
  });
});

describe('backup', () => {
  it('exports every account, and an import merges: the later record wins, a note is never lost', async () => {
    const { store, advance } = setUp();
    await store.recordAdded(ACCOUNT, [{ ...school, source: 'popup' }]);
    await store.setNote(ACCOUNT, school, 'school portal');
    await store.recordAdded(OTHER, [{ ...school, domain: 'b.example', source: 'menu' }]);
    const exported = await store.exportAll();
    expect(Object.keys(exported).sort()).toEqual([ACCOUNT, OTHER].sort());

    fakeBrowser.reset();
    advance();
    await store.recordAdded(ACCOUNT, [{ ...school, source: 'shortcut' }]);
    await store.importAll(exported);
    // This browser's own addition is newer; the note comes from the file.
    expect(recordOf(await store.read(ACCOUNT), school)).toMatchObject({
      source: 'shortcut',
      note: 'school portal',
    });
    expect((await store.read(OTHER)).entries).toHaveLength(1);
  });
});

describe('backup without pages', () => {
  it('a newer record of the same addition from a file without pages keeps the page known here', async () => {
    const { store, advance } = setUp();
    await store.recordAdded(ACCOUNT, [{ ...school, source: 'menu', page: 'portal.school.example' }]);
    const { page: _page, ...withoutPage } = recordOf(await store.read(ACCOUNT), school)!;
    advance();
    // Its note written elsewhere later, exported there without pages.
    await store.importAll({ [ACCOUNT]: [{ ...withoutPage, note: 'school portal', at: withoutPage.at + 1 }] });
    expect(recordOf(await store.read(ACCOUNT), school)).toMatchObject({
      note: 'school portal',
      page: 'portal.school.example',
    });
  });
});

describe('reading some records (the popup)', () => {
  it('keeps and checks only the records of the domains asked for', async () => {
    const { store } = setUp();
    await store.recordAdded(ACCOUNT, [
      { ...school, source: 'menu' },
      { ...school, domain: 'other.example', source: 'popup' },
    ]);
    const some = await store.readSome(
      ACCOUNT,
      Promise.resolve((domain: string) => domain === 'school.example'),
    );
    expect(some.entries.map((entry) => entry.domain)).toEqual(['school.example']);
  });

  it('a damaged record among those asked for reads as no notes, as a full read does', async () => {
    const { store } = setUp();
    await fakeBrowser.storage.local.set({
      [`listNotes:${ACCOUNT}`]: { v: 1, entries: [{ ...school, at: 1, page: 'https://school.example/x' }] },
    });
    expect((await store.readSome(ACCOUNT, () => true)).entries).toEqual([]);
  });
});
