/**
 * "Unbreak this page" in the popup (components/popup/Unbreak*.tsx): the offer from the page's
 * failed hosts, the hosts blocked on purpose asked for apart, and the review of an unbreak of the
 * site with its "Needed by this page" list. The worker is a listener on runtime messages.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { readAccounts } from '@/lib/accounts/store';
import type { Request } from '@/lib/messaging/protocol';
import {
  diagnosisSettingsItem,
  failedHostsOfTabItem,
  type UnbreakSession,
  unbreakSessionsItem,
} from '@/lib/settings/storage';
import { accountOf, createFakeApi, MINUTE, openPopup, T0 } from '../popup/popup-harness';

const HOUR = 60 * MINUTE;
const tabId = 7;
let requests: Request[];

beforeEach(async () => {
  fakeBrowser.reset();
  vi.spyOn(fakeBrowser.tabs, 'query').mockResolvedValue([
    { id: tabId, index: 0, active: true, highlighted: true, incognito: false, pinned: false, windowId: 1 },
  ] as Awaited<ReturnType<typeof fakeBrowser.tabs.query>>);
  requests = [];
  fakeBrowser.runtime.onMessage.addListener(async (message: unknown) => {
    const request = message as Request;
    requests.push(request);
    if (request.type === 'unbreak') {
      return {
        state: 'delivered',
        message: 'Allowed until 13:00. The filter’s resolvers take 30 to 45 minutes to apply this.',
        expiresAt: T0 + HOUR,
        allowed: request.domains.map((entry) => entry.domain),
      };
    }
    if (request.type === 'unbreak-review') return { state: 'delivered', message: 'Kept.' };
    return undefined;
  });
});
afterEach(cleanup);

const failed = (host: string) => ({
  host,
  kind: 'name-not-resolved' as const,
  error: 'net::ERR_NAME_NOT_RESOLVED',
  count: 1,
  at: T0,
});

async function brokenNewsPage(hosts: string[], lists: { whitelist?: string[]; blocklist?: string[] } = {}) {
  await diagnosisSettingsItem.setValue({ enabled: true });
  await failedHostsOfTabItem(tabId).setValue({
    pageHost: 'www.news.example',
    mainFrame: null,
    hosts: hosts.map(failed),
  });
  return createFakeApi('A', {
    whitelist: { default: lists.whitelist ?? [] },
    blocklist: { default: lists.blocklist ?? [] },
  });
}

/** The account the popup shows (the only one: the setup made an account of its own as it was read). */
const shownAccount = async () => (await readAccounts()).activeId;

const unbreakButton = () => screen.findByRole('button', { name: 'Unbreak this page' });

describe('the offer', () => {
  it('allows every failed domain of the page in one click, for an hour unless chosen otherwise', async () => {
    const api = await brokenNewsPage([
      'img.cdn.example',
      'js.cdn.example',
      'login.provider.example',
      'www.news.example',
    ]);
    const popup = await openPopup({ url: 'https://www.news.example/story', api });
    await popup.started;
    const button = await unbreakButton();
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    expect(screen.getByText(/^Allows cdn\.example and provider\.example for a while/)).toBeTruthy();
    expect((screen.getByRole('combobox', { name: 'For how long' }) as HTMLSelectElement).value).toBe(
      String(HOUR),
    );
    fireEvent.click(button);
    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'Unbreak outcome' }).textContent).toMatch(/30 to 45 minutes/),
    );
    expect(requests.filter((request) => request.type === 'unbreak')).toEqual([
      {
        type: 'unbreak',
        pageHost: 'www.news.example',
        profile: 'default',
        durationMs: HOUR,
        domains: [
          { domain: 'cdn.example', before: 'none' },
          { domain: 'provider.example', before: 'none' },
        ],
        accountId: await shownAccount(),
      },
    ]);
  });

  it('asks for exact hosts when told to', async () => {
    await brokenNewsPage(['img.cdn.example', 'js.cdn.example']);
    const popup = await openPopup({ url: 'https://www.news.example/story' });
    await popup.started;
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Exact hosts only' }));
    await waitFor(() =>
      expect(screen.getByText(/^Allows img\.cdn\.example and js\.cdn\.example for a while/)).toBeTruthy(),
    );
  });

  it('names the domains on the blocklist apart and allows them only once ticked', async () => {
    const api = await brokenNewsPage(['ads.tracker.example'], { blocklist: ['tracker.example'] });
    const popup = await openPopup({ url: 'https://www.news.example/story', api });
    await popup.started;
    const button = (await unbreakButton()) as HTMLButtonElement;
    const confirm = await screen.findByRole('checkbox', {
      name: 'Also allow tracker.example (blocklist entry tracker.example)',
    });
    expect(button.disabled).toBe(true);
    fireEvent.click(confirm);
    await waitFor(() => expect(button.disabled).toBe(false));
    fireEvent.click(button);
    await waitFor(() => expect(requests.some((request) => request.type === 'unbreak')).toBe(true));
    expect(requests.find((request) => request.type === 'unbreak')).toMatchObject({
      domains: [{ domain: 'tracker.example', before: 'blocklist' }],
    });
  });

  it('says which failed domains are allowed already, and offers only the rest', async () => {
    const api = await brokenNewsPage(['img.cdn.example', 'login.provider.example'], {
      whitelist: ['cdn.example'],
    });
    const popup = await openPopup({ url: 'https://www.news.example/story', api });
    await popup.started;
    await screen.findByText('Already allowed: cdn.example.');
    expect(screen.getByText(/^Allows provider\.example for a while/)).toBeTruthy();
  });

  it('is not offered when only the page itself failed', async () => {
    await brokenNewsPage(['www.news.example']);
    const popup = await openPopup({ url: 'https://www.news.example/' });
    await popup.started;
    await screen.findByRole('list', { name: /^Failed hosts/ });
    expect(screen.queryByRole('button', { name: 'Unbreak this page' })).toBeNull();
  });
});

describe('the review', () => {
  const session = (patch: Partial<UnbreakSession> = {}): UnbreakSession => ({
    id: `${T0} news.example`,
    account: accountOf('A'),
    profile: 'default',
    site: 'news.example',
    pageHost: 'www.news.example',
    startedAt: T0 - 2 * HOUR,
    expiresAt: T0 - HOUR,
    domains: [
      { domain: 'a.example', before: 'none', allowedAt: T0 - 2 * HOUR, loadedAt: T0 - 90 * MINUTE, loads: 4 },
      {
        domain: 'b.example',
        before: 'blocklist',
        allowedAt: T0 - 2 * HOUR,
        loadedAt: T0 - 80 * MINUTE,
        loads: 1,
      },
      { domain: 'c.example', before: 'none', allowedAt: T0 - 2 * HOUR, loads: 0 },
    ],
    ...patch,
  });

  it('after the allows ended, on any page of the site: what was needed, and one click keeps it', async () => {
    await unbreakSessionsItem.setValue([session()]);
    const popup = await openPopup({ url: 'https://news.example/other-story' });
    await popup.started;
    const list = await screen.findByRole('list', { name: /^Needed by this page/ });
    expect(list.getAttribute('aria-label')).toBe('Needed by this page (news.example)');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['a.example 4 requests loaded', 'b.example 1 request loaded, was on your blocklist']);
    expect(
      screen.getByText('This page used a.example and b.example; c.example was never needed.'),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Keep what it needed' }));
    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'Unbreak outcome' }).textContent).toBe('Kept.'),
    );
    expect(requests.filter((request) => request.type === 'unbreak-review')).toEqual([
      { type: 'unbreak-review', id: `${T0} news.example`, keep: true, accountId: await shownAccount() },
    ]);
  });

  it('while the allows run, says what was needed so far', async () => {
    await unbreakSessionsItem.setValue([session({ expiresAt: T0 + HOUR })]);
    const popup = await openPopup({ url: 'https://www.news.example/' });
    await popup.started;
    await screen.findByRole('list', { name: /^Needed by this page/ });
    expect(
      screen.getByText(
        /^So far this page used a\.example and b\.example; c\.example has not been needed yet/,
      ),
    ).toBeTruthy();
    // It can be kept now; letting it lapse waits for the end.
    expect(screen.getByRole('button', { name: 'Keep what it needed' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Let them lapse' })).toBeNull();
  });

  it('nothing needed: the only answer is Done, which keeps nothing', async () => {
    await unbreakSessionsItem.setValue([
      session({ domains: [{ domain: 'c.example', before: 'none', allowedAt: T0 - 2 * HOUR, loads: 0 }] }),
    ]);
    const popup = await openPopup({ url: 'https://www.news.example/' });
    await popup.started;
    fireEvent.click(await screen.findByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('list', { name: /^Needed by this page/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Keep what it needed' })).toBeNull();
    const accountId = await shownAccount();
    await waitFor(() =>
      expect(requests.filter((request) => request.type === 'unbreak-review')).toEqual([
        { type: 'unbreak-review', id: `${T0} news.example`, keep: false, accountId },
      ]),
    );
  });

  it('an unbreak of another site or another account is not shown here', async () => {
    await unbreakSessionsItem.setValue([
      session({ site: 'other.example', id: 'other-site' }),
      session({ account: accountOf('A', 'another-key'), id: 'other-account' }),
    ]);
    const popup = await openPopup({ url: 'https://www.news.example/' });
    await popup.started;
    await screen.findByRole('status', { name: 'Verdict' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('list', { name: /^Needed by this page/ })).toBeNull();
  });
});
