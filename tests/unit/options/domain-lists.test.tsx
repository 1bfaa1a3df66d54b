import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { ApiError } from '@/lib/api/errors';
import { createFakeClient } from '../../fakes/fake-client';
import { renderAccount, section } from './render-account';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

const box = (list: 'whitelist' | 'blocklist') =>
  within(section(list === 'whitelist' ? 'Whitelist' : 'Blocklist')).getByRole('textbox', {
    name: `Domains to add to the ${list}`,
  }) as HTMLTextAreaElement;

describe('Whitelist and Blocklist sections', () => {
  it('adds a pasted list one call at a time, with progress, per-domain results, and keeps what failed', async () => {
    const client = createFakeClient('A');
    client.failNext(
      'addDomain',
      new ApiError('service', 'Could not add bad.com to the whitelist: Domain is reserved'),
    );
    const onListChanged = vi.fn();
    await renderAccount({ client, onListChanged });
    const whitelist = within(section('Whitelist'));
    await whitelist.findByText('The whitelist is empty.');

    // The first call fails; hold the second one to see the progress on screen.
    fireEvent.input(box('whitelist'), {
      target: { value: 'bad.com\nhttps://Good.example.org/page\nnot a domain\nthird.net\ngood.example.org' },
    });
    const release = client.hold('addDomain');
    fireEvent.click(whitelist.getByRole('button', { name: 'Add to whitelist' }));
    await waitFor(() => expect(whitelist.getByRole('status').textContent).toContain('0 of 3'));
    expect(whitelist.getByRole('button', { name: 'Stop adding' })).toBeTruthy();
    release();

    await waitFor(() => expect(whitelist.getByRole('status').textContent).toContain('Added 2 of 3 domains'));
    expect(
      client.invocations.filter((call) => call.method === 'addDomain').map((call) => call.args[1]),
    ).toEqual(['bad.com', 'good.example.org', 'third.net']);
    const results = whitelist.getByRole('list', { name: 'Results of adding to the whitelist' });
    const lines = within(results)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(lines).toEqual([
      expect.stringMatching(/^not a domain: not a domain: /),
      'bad.com: Could not add bad.com to the whitelist: Domain is reserved',
      'good.example.org: added',
      'third.net: added',
    ]);
    // What did not go in stays in the box, to fix and retry.
    expect(box('whitelist').value).toBe('not a domain\nbad.com');
    const entries = whitelist.getByRole('list', { name: 'Whitelist entries' });
    expect(within(entries).getByText('good.example.org')).toBeTruthy();
    expect(onListChanged).toHaveBeenCalledWith({
      list: 'whitelist',
      profile: 'default',
      scope: 'A:default',
      changes: [
        { op: 'add', list: 'whitelist', domain: 'good.example.org' },
        { op: 'add', list: 'whitelist', domain: 'third.net' },
      ],
    });
  });

  it('adds nothing and says so when no line is a domain', async () => {
    const client = createFakeClient('B');
    await renderAccount({ client });
    const blocklist = within(section('Blocklist'));
    fireEvent.input(box('blocklist'), { target: { value: '*.ads.com' } });
    fireEvent.click(blocklist.getByRole('button', { name: 'Add to blocklist' }));
    await waitFor(() => expect(blocklist.getByRole('status').textContent).toContain('Nothing added'));
    expect(client.invocations.some((call) => call.method === 'addDomain')).toBe(false);
    expect(box('blocklist').value).toBe('*.ads.com');
  });

  it('stops a long run on request and keeps the rest in the box', async () => {
    const client = createFakeClient('B');
    await renderAccount({ client });
    const blocklist = within(section('Blocklist'));
    fireEvent.input(box('blocklist'), { target: { value: 'a.com\nb.com\nc.com' } });
    const release = client.hold('addDomain');
    fireEvent.click(blocklist.getByRole('button', { name: 'Add to blocklist' }));
    fireEvent.click(await blocklist.findByRole('button', { name: 'Stop adding' }));
    release();
    await waitFor(() => expect(blocklist.getByRole('status').textContent).toContain('Stopped'));
    expect(box('blocklist').value).toBe('a.com\nb.com\nc.com');
    expect([...(client.state.lists.blocklist.account ?? [])]).toEqual([]);
  });

  it('removes one entry', async () => {
    const client = createFakeClient('A', {
      lists: { whitelist: {}, blocklist: { default: new Set(['x.com', 'y.com']) } },
    });
    const onListChanged = vi.fn();
    await renderAccount({ client, onListChanged });
    const blocklist = within(section('Blocklist'));
    fireEvent.click(await blocklist.findByRole('button', { name: 'Remove x.com from the blocklist' }));
    await waitFor(() => expect(blocklist.queryByText('x.com')).toBeNull());
    expect(blocklist.getByRole('status').textContent).toContain(
      'Removed x.com from the blocklist of profile default.',
    );
    expect([...(client.state.lists.blocklist.default ?? [])]).toEqual(['y.com']);
    // The keyboard stays in the list: on the entry that took the removed one's place.
    await waitFor(() =>
      expect(document.activeElement?.getAttribute('aria-label')).toBe('Remove y.com from the blocklist'),
    );
    expect(onListChanged).toHaveBeenCalledWith({
      list: 'blocklist',
      profile: 'default',
      scope: 'A:default',
      changes: [{ op: 'remove', list: 'blocklist', domain: 'x.com' }],
    });
  });

  it('keeps the entry and shows the reason when removal fails', async () => {
    const client = createFakeClient('A', {
      lists: { whitelist: {}, blocklist: { default: new Set(['x.com']) } },
    });
    client.failNext(
      'deleteDomain',
      new ApiError('network', 'Could not remove x.com: the service could not be reached.'),
    );
    await renderAccount({ client });
    const blocklist = within(section('Blocklist'));
    fireEvent.click(await blocklist.findByRole('button', { name: 'Remove x.com from the blocklist' }));
    await waitFor(() => expect(blocklist.getByRole('status').textContent).toContain('could not be reached'));
    expect(blocklist.getByText('x.com')).toBeTruthy();
  });

  it('warns about domains on both lists, in both sections', async () => {
    const client = createFakeClient('A', {
      lists: {
        whitelist: { default: new Set(['both.com', 'white.com']) },
        blocklist: { default: new Set(['both.com', 'black.com']) },
      },
    });
    await renderAccount({ client });
    for (const name of ['Whitelist', 'Blocklist']) {
      const note = await within(section(name)).findByRole('note');
      expect(note.textContent).toContain('1 domain is on both the whitelist and the blocklist: both.com');
    }
    expect(within(section('Whitelist')).getByText('also on the blocklist')).toBeTruthy();
  });

  it('stays small with 10,000 entries and finds any of them through the filter', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `host${String(i).padStart(5, '0')}.example.com`);
    const client = createFakeClient('B', { lists: { whitelist: { account: new Set(many) }, blocklist: {} } });
    await renderAccount({ client });
    const whitelist = within(section('Whitelist'));
    const entries = await whitelist.findByRole('list', { name: 'Whitelist entries' });
    expect(whitelist.getByText('10,000 domains')).toBeTruthy();
    const rendered = within(entries).getAllByRole('listitem');
    expect(rendered.length).toBeLessThan(60);
    expect(rendered[0]?.getAttribute('aria-setsize')).toBe('10000');

    fireEvent.input(whitelist.getByRole('textbox', { name: 'Filter the whitelist' }), {
      target: { value: 'host09876' },
    });
    await waitFor(() => expect(within(entries).getAllByRole('listitem')).toHaveLength(1));
    expect(within(entries).getByText('host09876.example.com')).toBeTruthy();
    expect(whitelist.getByText('1 of 10,000 domains shown')).toBeTruthy();
  });

  it('in Form B acts on the whole account', async () => {
    const client = createFakeClient('B');
    await renderAccount({ client });
    const whitelist = within(section('Whitelist'));
    expect(whitelist.getByText('Whole account')).toBeTruthy();
    fireEvent.input(box('whitelist'), { target: { value: 'example.com' } });
    fireEvent.click(whitelist.getByRole('button', { name: 'Add to whitelist' }));
    await waitFor(() =>
      expect(whitelist.getByRole('status').textContent).toContain('to the whitelist of the whole account'),
    );
    expect([...(client.state.lists.whitelist.account ?? [])]).toEqual(['example.com']);
    expect(screen.queryByRole('combobox', { name: 'Profile' })).toBeNull();
  });
});
