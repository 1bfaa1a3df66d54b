import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { readAccounts } from '@/lib/accounts/store';
import {
  diagnosisSettingsItem,
  failedHostsOfTabItem,
  type TabFailures,
  temporaryAllowsItem,
} from '@/lib/settings/storage';
import { accountOf, cacheAt, createFakeApi, MINUTE, openPopup, T0 } from '../popup/popup-harness';

const HOUR = 60 * 60_000;
const tabId = 7;

beforeEach(() => {
  fakeBrowser.reset();
  // The popup reads the active tab's id to find its record (fakeBrowser has no active tab).
  vi.spyOn(fakeBrowser.tabs, 'query').mockResolvedValue([
    { id: tabId, index: 0, active: true, highlighted: true, incognito: false, pinned: false, windowId: 1 },
  ] as Awaited<ReturnType<typeof fakeBrowser.tabs.query>>);
});
afterEach(cleanup);

const failed = (host: string, error = 'net::ERR_NAME_NOT_RESOLVED') => ({
  host,
  kind: 'name-not-resolved' as const,
  error,
  count: 1,
  at: T0,
});

async function record(value: TabFailures, enabled = true) {
  await diagnosisSettingsItem.setValue({ enabled });
  await failedHostsOfTabItem(tabId).setValue(value);
}

const verdictText = () => screen.getByRole('status', { name: 'Verdict' }).textContent ?? '';
const failedList = () => screen.findByRole('list', { name: /^Failed hosts/ });

describe('failed hosts in the popup', () => {
  it('lists the failed hosts of the page with what today’s statistics say, and whitelists one in a click', async () => {
    await record({
      pageHost: 'news.example',
      mainFrame: null,
      hosts: [failed('cdn.broken.example'), failed('img.other.example')],
    });
    const api = createFakeApi('A', { blockedToday: { 'cdn.broken.example': 3 } });
    const popup = await openPopup({ url: 'https://news.example/story', api });
    await popup.started;

    const list = await failedList();
    expect(list.getAttribute('aria-labelledby')).toBeTruthy();
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('strong')?.textContent)).toEqual([
      'cdn.broken.example',
      'img.other.example',
    ]);
    await waitFor(() =>
      expect(items[0]?.textContent).toMatch(/Today's statistics confirm a block: 3 blocked queries/),
    );
    expect(items[1]?.textContent).toMatch(/no blocked queries for it/);
    expect(items[0]?.textContent).toMatch(/name did not resolve \(net::ERR_NAME_NOT_RESOLVED\)/);

    // The registrable domain by default, the exact host one click away (once the Public Suffix
    // List, loaded on demand, has arrived).
    expect(
      await within(items[0]!).findByRole('button', { name: 'Whitelist only cdn.broken.example' }),
    ).toBeTruthy();
    fireEvent.click(within(items[0]!).getByRole('button', { name: 'Whitelist broken.example' }));
    await waitFor(() =>
      expect(popup.submitted).toEqual([
        {
          op: 'add',
          list: 'whitelist',
          domain: 'broken.example',
          profile: 'default',
          source: 'popup',
          // The page it was whitelisted for, for the entry's record (lib/notes).
          page: 'news.example',
        },
      ]),
    );
    await waitFor(() =>
      expect(items[0]?.textContent).toMatch(/On the whitelist\. The filter can take 30 to 45 minutes/),
    );
    // Only today's statistics the popup needed anyway: no extra call.
    expect(api.calls.filter((call) => call.startsWith('logs/getstats'))).toHaveLength(1);
  });

  it('a page that failed itself is "probably blocked by the filter"', async () => {
    const page = failed('blocked-site.example');
    await record({ pageHost: 'blocked-site.example', mainFrame: page, hosts: [page] });
    const popup = await openPopup({ url: 'https://blocked-site.example/' });
    await popup.started;
    await waitFor(() =>
      expect(verdictText()).toBe('Blocked: Probably a blocked category: the page did not load.'),
    );
    // How it failed, in the verdict's details.
    expect(
      screen.getByText(
        /^blocked-site\.example did not load \(net::ERR_NAME_NOT_RESOLVED, the way a DNS block looks\)/,
      ),
    ).toBeTruthy();
    const [item] = within(await failedList()).getAllByRole('listitem');
    expect(item?.textContent).toMatch(/This page itself: the buttons above act on it/);
  });

  it('the lists still come first: a whitelisted page that failed is "Allowed"', async () => {
    const page = failed('blocked-site.example');
    await record({ pageHost: 'blocked-site.example', mainFrame: page, hosts: [page] });
    const api = createFakeApi('A', { whitelist: { default: ['blocked-site.example'] } });
    const popup = await openPopup({ url: 'https://blocked-site.example/', api });
    await popup.started;
    await waitFor(() => expect(verdictText()).toMatch(/^Allowed: On the whitelist/));
  });

  it.each([
    [
      'diagnosis is off',
      { pageHost: 'news.example', mainFrame: null, hosts: [failed('cdn.broken.example')] },
      false,
    ],
    [
      'the record is of another page',
      { pageHost: 'old.example', mainFrame: null, hosts: [failed('cdn.broken.example')] },
      true,
    ],
  ])('shows no list when %s', async (_case, value, enabled) => {
    await record(value, enabled);
    const popup = await openPopup({ url: 'https://news.example/' });
    await popup.started;
    await waitFor(() => expect(verdictText()).toMatch(/^Not blocked/));
    expect(screen.queryByRole('list', { name: /^Failed hosts/ })).toBeNull();
  });

  it('follows failures that happen while the popup is open', async () => {
    await record({ pageHost: 'news.example', mainFrame: null, hosts: [] });
    const popup = await openPopup({ url: 'https://news.example/' });
    await popup.started;
    await screen.findByText(/no host of this page has failed/);
    await failedHostsOfTabItem(tabId).setValue({
      pageHost: 'news.example',
      mainFrame: null,
      hosts: [failed('late.broken.example')],
    });
    expect(within(await failedList()).getByText('late.broken.example')).toBeTruthy();
  });

  it('fetches today’s statistics once when the popup had no need of them', async () => {
    await record({ pageHost: 'news.example', mainFrame: null, hosts: [failed('cdn.broken.example')] });
    // Fresh lists in the cache settle the verdict: the popup needs no statistics of its own.
    await cacheAt(T0 - 2 * MINUTE).saveLists('A:default', accountOf('A'), {
      whitelist: [],
      blocklist: ['news.example'],
    });
    const api = createFakeApi('A', {
      blocklist: { default: ['news.example'] },
      blockedToday: { 'cdn.broken.example': 7 },
    });
    const fetchStats = vi.spyOn(api, 'getStats');
    const popup = await openPopup({ url: 'https://news.example/', api });
    await popup.started;
    await waitFor(() => expect(verdictText()).toMatch(/^Blocked: On the blocklist/));
    await screen.findByText(/confirm a block: 7 blocked queries/);
    // The panel renders again (another domain chosen): nothing is fetched again.
    popup.controller.chooseDomain('news.example');
    await screen.findByText(/confirm a block: 7 blocked queries/);
    expect(fetchStats).toHaveBeenCalledTimes(1);
  });
});

describe('temporary allow in the popup', () => {
  it('offers 1, 8 or 24 hours for the shown domain and asks the worker', async () => {
    const requests: unknown[] = [];
    fakeBrowser.runtime.onMessage.addListener(async (message: unknown) => {
      requests.push(message);
      return {
        state: 'delivered',
        message: 'shop.example was added to the whitelist.',
        expiresAt: T0 + 8 * HOUR,
      };
    });
    const popup = await openPopup({ url: 'https://www.shop.example/' });
    await popup.started;
    const group = await screen.findByRole('group', { name: 'Allow shop.example for a while' });
    expect(
      within(group)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual([
      'Allow shop.example for 1 hour',
      'Allow shop.example for 8 hours',
      'Allow shop.example for 24 hours',
    ]);
    fireEvent.click(within(group).getByRole('button', { name: 'Allow shop.example for 8 hours' }));
    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'Temporary allow of shop.example' }).textContent).toBe(
        'shop.example was added to the whitelist.',
      ),
    );
    expect(requests).toEqual([
      {
        type: 'temporary-allow',
        domain: 'shop.example',
        profile: 'default',
        durationMs: 8 * HOUR,
        before: 'none',
        // The account the popup shows (the only one: the setup made an account of its own).
        accountId: (await readAccounts()).activeId,
      },
    ]);
  });

  it('shows the time left while a domain is allowed for a while, and offers to keep it', async () => {
    await temporaryAllowsItem.setValue([
      {
        domain: 'shop.example',
        profile: 'default',
        account: accountOf('A'),
        createdAt: T0 - HOUR,
        expiresAt: Date.now() + 7 * HOUR + 30 * 60_000,
        before: 'none',
      },
    ]);
    const api = createFakeApi('A', { whitelist: { default: ['shop.example'] } });
    const popup = await openPopup({ url: 'https://www.shop.example/', api });
    await popup.started;
    expect(await screen.findByText(/shop\.example is whitelisted for now: 7 h 30 min left\./)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Keep shop.example on the whitelist' })).toBeTruthy();
    expect(screen.queryByRole('group', { name: /for a while/ })).toBeNull();
  });

  it('is not offered for a domain already on the whitelist for good', async () => {
    const api = createFakeApi('A', { whitelist: { default: ['shop.example'] } });
    const popup = await openPopup({ url: 'https://www.shop.example/', api });
    await popup.started;
    await waitFor(() => expect(verdictText()).toMatch(/^Allowed/));
    expect(screen.queryByRole('group', { name: /for a while/ })).toBeNull();
  });
});
