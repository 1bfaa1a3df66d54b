import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { AccountPanel } from '@/components/options/AccountPanel';
import { notes, notesAccessFor, recordOf } from '@/lib/notes';
import { apiKeyItem, connectionItem } from '@/lib/settings/storage';
import { createFakeClient } from '../../fakes/fake-client';
import { accountIdFor, testAccount } from '../account-ids';
import { renderAccount, section } from './render-account';

const ACCOUNT = testAccount('A').id;
const MAY_3 = new Date(new Date().getFullYear(), 4, 3, 12).getTime();

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

async function setUp() {
  const client = createFakeClient('A');
  client.state.lists.whitelist.default = new Set(['school.example', 'found-there.example', 'video.example']);
  await notes.recordAdded(ACCOUNT, [
    {
      scope: 'A:default',
      list: 'whitelist',
      domain: 'school.example',
      source: 'menu',
      page: 'portal.school.example',
    },
    { scope: 'A:default', list: 'whitelist', domain: 'video.example', source: 'popup' },
  ]);
  // Records say when they were added: make it a known day.
  const stored = await notes.read(ACCOUNT);
  await fakeBrowser.storage.local.set({
    [`listNotes:${ACCOUNT}`]: {
      ...stored,
      entries: stored.entries.map((entry) => ({ ...entry, addedAt: MAY_3 })),
    },
  });
  await notes.setNote(ACCOUNT, { scope: 'A:default', list: 'whitelist', domain: 'video.example' }, 'lessons');
  await renderAccount({ client, entryNotes: notesAccessFor(notes, ACCOUNT) });
  const whitelist = within(section('Whitelist'));
  const entries = await whitelist.findByRole('list', { name: 'Whitelist entries' });
  return { client, whitelist, entries };
}

const rowOf = (entries: HTMLElement, domain: string) =>
  within(entries)
    .getAllByRole('listitem')
    .find((item) => item.textContent?.startsWith(domain)) as HTMLElement;

describe('the list views say where each entry came from', () => {
  it('a line under each domain: when, from where, which page, the note; "added elsewhere" otherwise', async () => {
    const { entries } = await setUp();
    await waitFor(() =>
      expect(rowOf(entries, 'school.example').textContent).toContain(
        'Added May 3 from the right-click menu on portal.school.example',
      ),
    );
    expect(rowOf(entries, 'video.example').textContent).toContain('Added May 3 from the popup · “lessons”');
    expect(rowOf(entries, 'found-there.example').textContent).toContain('Added elsewhere');
  });

  it('the filter searches notes and origins as well as domains', async () => {
    const { whitelist, entries } = await setUp();
    const filter = whitelist.getByRole('textbox', { name: /Filter/ });
    await waitFor(() => expect(rowOf(entries, 'video.example').textContent).toContain('lessons'));
    const shownFor = (query: string) => {
      fireEvent.input(filter, { target: { value: query } });
      return within(entries)
        .queryAllByRole('listitem')
        .map((item) => item.textContent?.split('Added')[0]);
    };
    expect(shownFor('lessons')).toEqual(['video.example']);
    expect(shownFor('right-click')).toEqual(['school.example']);
    expect(shownFor('portal.school')).toEqual(['school.example']);
    expect(shownFor('elsewhere')).toEqual(['found-there.example']);
    expect(shownFor('found')).toEqual(['found-there.example']);
  });

  it('the "Note" textbox writes a note, also on an entry added elsewhere, and an empty one removes it', async () => {
    const { whitelist, entries } = await setUp();
    fireEvent.click(within(entries).getByRole('button', { name: 'Write a note for found-there.example' }));
    const note = whitelist.getByRole('textbox', { name: 'Note' }) as HTMLTextAreaElement;
    expect(document.activeElement).toBe(note);
    fireEvent.input(note, { target: { value: 'the school asked for it' } });
    fireEvent.click(whitelist.getByRole('button', { name: 'Save note' }));

    await waitFor(() =>
      expect(
        screen
          .getAllByRole('status')
          .some((status) => status.textContent === 'Note saved for found-there.example.'),
      ).toBe(true),
    );
    expect(whitelist.queryByRole('textbox', { name: 'Note' })).toBeNull();
    const address = { scope: 'A:default', list: 'whitelist', domain: 'found-there.example' } as const;
    expect(recordOf(await notes.read(ACCOUNT), address)?.note).toBe('the school asked for it');
    await waitFor(() =>
      expect(rowOf(entries, 'found-there.example').textContent).toContain(
        'Added elsewhere · “the school asked for it”',
      ),
    );

    fireEvent.click(within(entries).getByRole('button', { name: 'Write a note for found-there.example' }));
    const again = whitelist.getByRole('textbox', { name: 'Note' }) as HTMLTextAreaElement;
    expect(again.value).toBe('the school asked for it');
    fireEvent.input(again, { target: { value: '' } });
    fireEvent.click(whitelist.getByRole('button', { name: 'Save note' }));
    await waitFor(async () => expect(recordOf(await notes.read(ACCOUNT), address)).toBeUndefined());
  });
});

describe('the options page records its own edits (AccountPanel)', () => {
  const SERVICE = 'https://dns.example';
  const KEY = 'entry-notes-test-key';

  afterEach(() => vi.unstubAllGlobals());

  it('an entry added here is "from the options page"; removed here, its record and note go', async () => {
    const whitelisted = new Set<string>();
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = new URL(String(input));
        const action = url.searchParams.get('action') ?? '';
        const domain = url.searchParams.get('domain_name') ?? '';
        if (action === 'whitelist/add') whitelisted.add(domain);
        if (action === 'whitelist/delete') whitelisted.delete(domain);
        const body =
          action === 'profiles/list'
            ? { status: 'success', profiles: ['default'] }
            : action === 'network/list'
              ? { status: 'success', networks: { default: [] } }
              : action === 'categories/list'
                ? { status: 'success', categories: [] }
                : action === 'whitelist/list'
                  ? { status: 'success', domains: [...whitelisted] }
                  : action.endsWith('/list')
                    ? { status: 'success', domains: [] }
                    : { status: 'success' };
        return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
      }),
    );
    await apiKeyItem.setValue(KEY);
    await connectionItem.setValue({ baseUrl: SERVICE, form: 'A' });
    const account = accountIdFor('A', SERVICE, KEY);
    const address = { scope: 'A:default', list: 'whitelist', domain: 'example.com' } as const;

    render(<AccountPanel />);
    const whitelist = within(await screen.findByRole('region', { name: 'Whitelist' }));
    await whitelist.findByText('The whitelist is empty.');
    fireEvent.input(whitelist.getByRole('textbox', { name: /Domains to add/ }), {
      target: { value: 'example.com' },
    });
    fireEvent.click(whitelist.getByRole('button', { name: 'Add to whitelist' }));
    await waitFor(async () =>
      expect(recordOf(await notes.read(account), address)).toMatchObject({ source: 'options' }),
    );
    const entries = whitelist.getByRole('list', { name: 'Whitelist entries' });
    await waitFor(() => expect(rowOf(entries, 'example.com').textContent).toContain('from the options page'));
    await notes.setNote(account, address, 'school portal');

    fireEvent.click(within(entries).getByRole('button', { name: 'Remove example.com from the whitelist' }));
    await waitFor(async () => expect(recordOf(await notes.read(account), address)).toBeUndefined());
  });
});
