/**
 * A public suffix (co.uk, cloudfront.net, blogspot.com) is shared by the sites of many unrelated
 * owners: the popup never offers it for one click. On a page whose host is itself a public suffix,
 * it says so and keeps Whitelist and Blocklist off until the user types the name; a failed host
 * that is one gets no button at all.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { diagnosisSettingsItem, failedHostsOfTabItem, failedHostsTabsItem } from '@/lib/settings/storage';
import { createFakeApi, openPopup, T0 } from './popup-harness';

const tabId = 7;

beforeEach(() => {
  fakeBrowser.reset();
  vi.spyOn(fakeBrowser.tabs, 'query').mockResolvedValue([
    { id: tabId, index: 0, active: true, highlighted: true, incognito: false, pinned: false, windowId: 1 },
  ] as Awaited<ReturnType<typeof fakeBrowser.tabs.query>>);
});
afterEach(cleanup);

const verdictText = () => screen.getByRole('status', { name: 'Verdict' }).textContent ?? '';
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

describe('a page whose host is itself a public suffix', () => {
  it('says so, keeps Whitelist and Blocklist off until its name is typed, and offers no allow for a while', async () => {
    const popup = await openPopup({ url: 'https://co.uk/', api: createFakeApi('A') });
    await popup.started;
    await waitFor(() => expect(verdictText()).toMatch(/^Not blocked/));
    const actions = screen.getByRole('region', { name: 'Acts on co.uk' });

    expect(within(actions).getByRole('note').textContent).toMatch(
      /^co\.uk is a public suffix: many unrelated sites share it/,
    );
    expect(button('Whitelist').disabled).toBe(true);
    expect(button('Blocklist').disabled).toBe(true);
    expect(screen.queryByRole('group', { name: 'Allow co.uk for a while' })).toBeNull();

    const typed = within(actions).getByRole('textbox', { name: 'To add co.uk itself anyway, type co.uk' });
    fireEvent.input(typed, { target: { value: 'co' } });
    expect(button('Whitelist').disabled).toBe(true);
    fireEvent.input(typed, { target: { value: ' CO.UK ' } });
    await waitFor(() => expect(button('Whitelist').disabled).toBe(false));

    fireEvent.click(button('Whitelist'));
    await waitFor(() =>
      expect(popup.sent).toEqual([
        {
          change: {
            op: 'add',
            list: 'whitelist',
            domain: 'co.uk',
            profile: 'default',
            source: 'popup',
            page: 'co.uk',
          },
          publicSuffixConfirmed: true,
          accountId: expect.any(String),
        },
      ]),
    );
  });
});

describe('a list entry that is a public suffix', () => {
  it('may be taken off its list in one click; put on the other one only once typed', async () => {
    const api = createFakeApi('A', { blocklist: { default: ['cloudfront.net'] } });
    const popup = await openPopup({ url: 'https://d111.cloudfront.net/app.js', api });
    await popup.started;
    await waitFor(() => expect(verdictText()).toMatch(/^Blocked/));
    // The entry that decides comes first: it is the suffix, shared with every distribution.
    const actions = screen.getByRole('region', { name: 'Acts on cloudfront.net' });
    expect(within(actions).getByRole('note').textContent).toMatch(/^cloudfront\.net is a public suffix/);
    expect(button('Remove from blocklist').disabled).toBe(false);
    expect(button('Whitelist').disabled).toBe(true);

    // The registrable domain, one click away, is this distribution's own: nothing to confirm.
    fireEvent.click(screen.getByRole('button', { name: 'Use the registrable domain d111.cloudfront.net' }));
    const own = screen.getByRole('region', { name: 'Acts on d111.cloudfront.net' });
    expect(within(own).queryByRole('note')).toBeNull();
    expect(button('Whitelist').disabled).toBe(false);
  });
});

describe('a failed host that is itself a public suffix', () => {
  it('gets no Whitelist button and no allow for a while, only the reason', async () => {
    await diagnosisSettingsItem.setValue({ enabled: true });
    const failed = (host: string) => ({
      host,
      kind: 'name-not-resolved' as const,
      error: 'net::ERR_NAME_NOT_RESOLVED',
      count: 1,
      at: T0,
    });
    await failedHostsOfTabItem(tabId).setValue({
      pageHost: 'www.news.example',
      mainFrame: null,
      hosts: [failed('cloudfront.net'), failed('img.cdn.example')],
    });
    await failedHostsTabsItem.setValue({ tabs: [tabId] });
    const popup = await openPopup({ url: 'https://www.news.example/story' });
    await popup.started;

    const list = await screen.findByRole('list', { name: /^Failed hosts/ });
    const [suffix, other] = within(list).getAllByRole('listitem');
    // The other host's buttons show once the registrable domains are known.
    expect(await within(other!).findByRole('button', { name: 'Whitelist cdn.example' })).toBeTruthy();
    expect(suffix?.textContent).toMatch(/cloudfront\.net is a public suffix shared by many sites/);
    expect(within(suffix!).queryAllByRole('button')).toEqual([]);
    expect(screen.queryByRole('group', { name: 'Allow cloudfront.net for a while' })).toBeNull();
    // Unbreak this page leaves it out too.
    expect(await screen.findByText(/^Allows cdn\.example for a while/)).toBeTruthy();
  });
});
