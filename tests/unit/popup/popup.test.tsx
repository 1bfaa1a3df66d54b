import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { localDate } from '@/lib/cache/freshness';
import {
  addedTldsItem,
  chosenProfileItem,
  defaultBlockItem,
  dynamicIpSettingsItem,
  type OutboxEntry,
  outboxItem,
  registrationOutcomeItem,
  settledChangesItem,
} from '@/lib/settings/storage';
import {
  ApiError,
  accountOf,
  cacheAt,
  configure,
  createFakeApi,
  MINUTE,
  openPopup,
  T0,
} from './popup-harness';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

const TODAY = localDate(new Date(T0));
const verdictRegion = () => screen.getByRole('status', { name: 'Verdict' });
const verdictText = () => verdictRegion().textContent ?? '';
const waitForVerdict = (start: string) =>
  waitFor(() => expect(verdictText()).toMatch(new RegExp(`^${start}`)));
const outcomeText = () => screen.getByRole('status', { name: 'Change outcome' }).textContent ?? '';
/** The site the verdict is about: the heading above it. */
const shownHost = (host: string) =>
  screen.getAllByRole('heading', { level: 2 }).find((heading) => heading.textContent === host);
/** The domain the buttons act on: it names their group ("Acts on bbc.co.uk"). */
const actingOn = (domain: string) => screen.getByRole('region', { name: `Acts on ${domain}` });

describe('answering from the cache and refreshing', () => {
  it('cold: one call per list, statistics only because the lists leave it open, then both marks at once', async () => {
    const api = createFakeApi('A', { blockedToday: { 'ads.example.net': 7 } });
    const popup = await openPopup({ url: 'https://ads.example.net/x', api });
    expect(verdictText()).toMatch(/^(Checking ads\.example\.net…)?$/);
    await waitForVerdict('Blocked: Probably a blocked category: 7 blocked queries today.');
    expect(shownHost('ads.example.net')).toBeTruthy();
    await popup.started;
    expect(api.calls.sort()).toEqual(
      ['blocklist/list default', `logs/getstats ${TODAY}`, 'profiles/list', 'whitelist/list default'].sort(),
    );
    expect(popup.marks).toEqual(['verdict', 'verdict-fresh']);
  });

  it('cold: the profiles are asked for only once the calls the verdict needs are answered', async () => {
    const api = createFakeApi('A', { blockedToday: { 'ads.example.net': 7 } });
    let answeredBeforeProfiles: string[] | undefined;
    const listProfiles = api.listProfiles;
    api.listProfiles = (...args) => {
      answeredBeforeProfiles = [...api.calls];
      return listProfiles(...args);
    };
    const popup = await openPopup({ url: 'https://ads.example.net/x', api });
    await popup.started;
    expect(answeredBeforeProfiles?.sort()).toEqual(
      ['blocklist/list default', `logs/getstats ${TODAY}`, 'whitelist/list default'].sort(),
    );
    expect(popup.marks).toEqual(['verdict', 'verdict-fresh']);
  });

  it('fresh cache: the verdict at once and no call to the service at all', async () => {
    await cacheAt(T0 - 2 * MINUTE).saveLists('A:default', accountOf('A'), {
      whitelist: ['example.com'],
      blocklist: [],
    });
    await cacheAt(T0 - 2 * MINUTE).saveProfiles(accountOf('A'), ['default', 'kids1']);
    const api = createFakeApi('A');
    const popup = await openPopup({ url: 'https://www.example.com/', api });
    await waitForVerdict('Allowed: Covered by the whitelist entry example.com of profile default.');
    expect(shownHost('www.example.com')).toBeTruthy();
    await popup.started;
    expect(api.calls).toEqual([]);
    expect(popup.marks).toEqual(['verdict', 'verdict-fresh']);
    expect(screen.queryByText(/Lists checked/)).toBeNull();
  });

  it("fresh cache with today's statistics: a stats verdict with no call either", async () => {
    const cache = cacheAt(T0 - 2 * MINUTE);
    await cache.saveLists('A:default', accountOf('A'), { whitelist: [], blocklist: [] });
    await cache.saveProfiles(accountOf('A'), ['default']);
    await cache.saveBlockedToday(accountOf('A'), TODAY, new Map([['ads.example.net', 4]]));
    const api = createFakeApi('A');
    const popup = await openPopup({ url: 'https://ads.example.net/', api });
    await waitForVerdict('Blocked: Probably a blocked category: 4 blocked queries today.');
    expect(shownHost('ads.example.net')).toBeTruthy();
    await popup.started;
    expect(api.calls).toEqual([]);
    expect(popup.marks).toEqual(['verdict', 'verdict-fresh']);
  });

  it('a view left open past the freshness window says it may be out of date', async () => {
    let now = T0;
    await cacheAt(T0 - MINUTE).saveLists('A:default', accountOf('A'), {
      whitelist: [],
      blocklist: ['shop.example'],
    });
    await cacheAt(T0 - MINUTE).saveProfiles(accountOf('A'), ['default']);
    const popup = await openPopup({ url: 'https://shop.example/', now: () => now });
    await popup.started;
    expect(screen.queryByText(/Lists checked/)).toBeNull();
    now = T0 + 10 * MINUTE;
    popup.controller.chooseDomain('shop.example');
    await screen.findByText('Lists checked 11 minutes ago; they may have changed since.');
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeTruthy();
  });

  it('stale cache: shows the old verdict marked as such, then the fresh one', async () => {
    await cacheAt(T0 - 12 * MINUTE).saveLists('A:default', accountOf('A'), {
      whitelist: [],
      blocklist: ['shop.example'],
    });
    await cacheAt(T0 - 12 * MINUTE).saveProfiles(accountOf('A'), ['default']);
    const api = createFakeApi('A', { whitelist: { default: ['shop.example'] } });
    const release = holdCalls(api);
    const popup = await openPopup({ url: 'https://shop.example/', api });
    await waitForVerdict('Blocked: On the blocklist of profile default.');
    expect(screen.getByText(/Lists checked 12 minutes ago; checking for changes…/)).toBeTruthy();
    expect(popup.marks).toEqual(['verdict']);
    release();
    await waitForVerdict('Allowed: On the whitelist of profile default.');
    expect(popup.marks).toEqual(['verdict', 'verdict-fresh']);
    expect(screen.queryByText(/Lists checked/)).toBeNull();
  });

  it('a failed refresh keeps the cached verdict and says why', async () => {
    await cacheAt(T0 - 30 * MINUTE).saveLists('A:default', accountOf('A'), {
      whitelist: [],
      blocklist: ['shop.example'],
    });
    const api = createFakeApi('A');
    api.failWith(new ApiError('network', 'Could not reach the service: check your connection.'));
    const popup = await openPopup({ url: 'https://shop.example/', api });
    await popup.started;
    expect(verdictText()).toBe('Blocked: On the blocklist of profile default.');
    expect(shownHost('shop.example')).toBeTruthy();
    expect(
      screen.getByText(
        'Lists checked 30 minutes ago; could not check again: Could not reach the service: check your connection.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeTruthy();
    expect(popup.marks).toEqual(['verdict']);
  });

  it('a refused key with nothing cached says so and links to the settings', async () => {
    const api = createFakeApi('A');
    api.failWith(new ApiError('bad-key', 'The service refused the API key.'));
    const popup = await openPopup({ url: 'https://shop.example/', api });
    await popup.started;
    expect(verdictText()).toBe("Couldn't check shop.example: The service refused the API key.");
    fireEvent.click(screen.getByRole('button', { name: 'Open settings' }));
    expect(popup.optionsOpened()).toBe(1);
  });

  it('does not ask for statistics when the (stale) cached lists already settle the verdict', async () => {
    await cacheAt(T0 - 20 * MINUTE).saveLists('A:default', accountOf('A'), {
      whitelist: [],
      blocklist: ['example.com'],
    });
    const api = createFakeApi('A', {
      blocklist: { default: ['example.com'] },
      blockedToday: { 'example.com': 3 },
    });
    const popup = await openPopup({ url: 'https://example.com/', api });
    await popup.started;
    expect(verdictText()).toBe('Blocked: On the blocklist of profile default.');
    expect(api.calls.sort()).toEqual(['blocklist/list default', 'profiles/list', 'whitelist/list default']);
    expect(popup.marks).toEqual(['verdict', 'verdict-fresh']);
  });

  it("cold: fetches today's statistics alongside the lists, not after them", async () => {
    const api = createFakeApi('A', { blockedToday: { 'ads.example.net': 2 } });
    const statsAsked: string[][] = [];
    const getStats = api.getStats.bind(api);
    api.getStats = (date) => {
      statsAsked.push([...api.calls]);
      return getStats(date);
    };
    const release = holdCalls(api);
    const popup = await openPopup({ url: 'https://ads.example.net/', api });
    await waitFor(() => expect(statsAsked).toHaveLength(1));
    // Asked while both list calls were still waiting for their answers.
    expect(popup.marks).toEqual([]);
    release();
    await waitForVerdict('Blocked: Probably a blocked category: 2 blocked queries today.');
    expect(popup.marks).toEqual(['verdict', 'verdict-fresh']);
  });

  it('still answers from the lists when today has no statistics', async () => {
    const api = createFakeApi('A');
    api.getStats = async () => {
      throw new ApiError('service', 'No logs for this date');
    };
    const popup = await openPopup({ url: 'https://news.example/', api });
    await popup.started;
    // The statistics were not read: the verdict does not claim that none were blocked today.
    expect(verdictText()).toBe('Not blocked: On no list of profile default.');
    expect(screen.getByText(/^A blocked category may still apply/)).toBeTruthy();
    expect(screen.getByText("Today's statistics could not be read: No logs for this date")).toBeTruthy();
    expect(popup.marks).toEqual(['verdict', 'verdict-fresh']);
  });
});

describe('verdict reasons set from this browser', () => {
  it.each([
    [
      'a TLD block',
      async () => addedTldsItem.setValue({ 'A:default': ['.zip'] }),
      'https://files.zip/',
      'Blocked: The top-level domain .zip is blocked for profile default.',
    ],
    [
      'default-block',
      async () => defaultBlockItem.setValue({ 'A:default': { enabled: true, at: T0 } }),
      'https://any.org/',
      'Blocked: Default block is on for profile default.',
    ],
    [
      'default-block of another profile',
      async () => defaultBlockItem.setValue({ 'A:kids1': { enabled: true, at: T0 } }),
      'https://any.org/',
      'Not blocked: On no list of profile default',
    ],
  ])('%s', async (_name, arrange, url, expected) => {
    await arrange();
    const popup = await openPopup({ url });
    await popup.started;
    expect(verdictText().startsWith(expected)).toBe(true);
  });
});

describe('pages with nothing to filter', () => {
  it.each([
    ['chrome://extensions/'],
    ['about:blank'],
    ['file:///home/me/notes.html'],
    ['chrome-extension://abcdefghijklmnop/options.html'],
    ['http://192.168.1.1/'],
    ['http://localhost:3000/'],
    ['http://[::1]/'],
  ])('%s', async (url) => {
    const popup = await openPopup({ url });
    await popup.started;
    expect(verdictText()).toMatch(/^Nothing to filter here: this page has no domain name/);
    expect(screen.queryByRole('button', { name: 'Whitelist' })).toBeNull();
    expect(popup.api.calls).toEqual([]);
  });

  it('a tab whose address the extension may not read', async () => {
    const popup = await openPopup({ url: undefined });
    await popup.started;
    expect(verdictText()).toMatch(/^Nothing to filter here: the extension may not read this tab's address/);
  });
});

it('without a key: what to do, and a way to the settings', async () => {
  const popup = await openPopup({ url: 'https://example.com/', key: '' });
  await popup.started;
  expect(verdictText()).toMatch(/^No API key is set/);
  fireEvent.click(screen.getByRole('button', { name: 'Open settings' }));
  expect(popup.optionsOpened()).toBe(1);
  expect(popup.optionsSections()).toEqual(['setup']);
  expect(popup.api.calls).toEqual([]);
});

describe('the domain the buttons act on', () => {
  it('is the registrable domain, with a one-click switch to the exact hostname and back', async () => {
    const popup = await openPopup({ url: 'https://news.bbc.co.uk/story' });
    await popup.started;
    expect(actingOn('bbc.co.uk')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Use the exact hostname news.bbc.co.uk' }));
    await waitFor(() => expect(actingOn('news.bbc.co.uk')).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: 'Use the registrable domain bbc.co.uk' }));
    await waitFor(() => expect(actingOn('bbc.co.uk')).toBeTruthy());
  });

  it('keeps a private suffix site on its own (alice.github.io is not github.io)', async () => {
    const popup = await openPopup({ url: 'https://alice.github.io/' });
    await popup.started;
    expect(actingOn('alice.github.io')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Use the exact hostname/ })).toBeNull();
  });

  it('is the deciding list entry when one covers the host, so removing it is one click', async () => {
    const api = createFakeApi('A', { whitelist: { default: ['docs.example.org'] } });
    const popup = await openPopup({ url: 'https://a.docs.example.org/', api });
    await popup.started;
    expect(actingOn('docs.example.org')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Remove from whitelist' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Use the registrable domain example.org' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Use the exact hostname a.docs.example.org' })).toBeTruthy();
  });
});

describe('one-click changes', () => {
  it('whitelists the shown domain for the chosen profile, shows the outcome and undoes it', async () => {
    const popup = await openPopup({
      url: 'https://www.shop.example/',
      outcomes: [
        {
          state: 'delivered',
          message:
            'Done: add shop.example to the whitelist. The filter can take 30 to 45 minutes to apply it.',
        },
        { state: 'delivered', message: 'Done: remove shop.example from the whitelist.' },
      ],
    });
    await popup.started;
    fireEvent.click(screen.getByRole('button', { name: 'Whitelist' }));
    await waitFor(() => expect(outcomeText()).toMatch(/^Done: add shop\.example/));
    expect(popup.submitted).toEqual([
      {
        op: 'add',
        list: 'whitelist',
        domain: 'shop.example',
        profile: 'default',
        source: 'popup',
        // The tab's host, for the entry's record (lib/notes).
        page: 'www.shop.example',
      },
    ]);
    expect(verdictText()).toBe('Allowed: Covered by the whitelist entry shop.example of profile default.');
    expect(screen.getByRole('button', { name: 'Remove from whitelist' })).toBeTruthy();
    // The worker's message already carries the 30 to 45 minutes; it is not said twice.
    expect(screen.queryByText(/reach the resolvers within 30 to 45 minutes/)).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(outcomeText()).toBe('Done: remove shop.example from the whitelist.'));
    expect(popup.submitted[1]).toEqual({
      op: 'remove',
      list: 'whitelist',
      domain: 'shop.example',
      profile: 'default',
      source: 'popup',
      page: 'www.shop.example',
    });
    expect(screen.getByText(/reach the resolvers within 30 to 45 minutes/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
    expect(verdictText()).toMatch(/^Not blocked: On no list of profile default/);
  });

  it('moves a blocklisted domain to the whitelist in one click; undo puts it back', async () => {
    const api = createFakeApi('A', { blocklist: { default: ['shop.example'] } });
    const popup = await openPopup({ url: 'https://shop.example/', api });
    await popup.started;
    expect(screen.getByRole('button', { name: 'Remove from blocklist' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Whitelist' }));
    await waitFor(() => expect(verdictText()).toMatch(/^Allowed/));
    expect(screen.getByRole('button', { name: 'Blocklist' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(verdictText()).toMatch(/^Blocked: On the blocklist/));
    expect(popup.submitted.map(({ op, list }) => `${op} ${list}`)).toEqual([
      'add whitelist',
      'add blocklist',
    ]);
  });

  it('removes from the blocklist', async () => {
    const api = createFakeApi('A', { blocklist: { default: ['shop.example'] } });
    const popup = await openPopup({ url: 'https://shop.example/', api });
    await popup.started;
    fireEvent.click(screen.getByRole('button', { name: 'Remove from blocklist' }));
    await waitFor(() => expect(verdictText()).toMatch(/^Not blocked/));
    expect(popup.submitted[0]).toMatchObject({ op: 'remove', list: 'blocklist', domain: 'shop.example' });
  });

  it('a refused change shows the reason and offers no undo', async () => {
    const popup = await openPopup({
      url: 'https://shop.example/',
      outcomes: [{ state: 'failed', message: 'Could not add shop.example to the blocklist: Invalid domain' }],
    });
    await popup.started;
    fireEvent.click(screen.getByRole('button', { name: 'Blocklist' }));
    await waitFor(() =>
      expect(outcomeText()).toBe('Could not add shop.example to the blocklist: Invalid domain'),
    );
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
    expect(verdictText()).toMatch(/^Not blocked/);
  });

  it('a pending change is shown as pending and counted in the verdict', async () => {
    const popup = await openPopup({
      url: 'https://shop.example/',
      outcomes: [
        {
          state: 'pending',
          message:
            'Waiting to add shop.example to the blocklist. It is kept in this browser and sent automatically.',
        },
      ],
    });
    await popup.started;
    fireEvent.click(screen.getByRole('button', { name: 'Blocklist' }));
    await waitFor(() => expect(outcomeText()).toMatch(/^Waiting to add shop\.example/));
    expect(screen.getByText(/the filter applies it within 30 to 45 minutes/)).toBeTruthy();
    // The worker keeps it in its outbox; the popup follows that item.
    await outboxItem.setValue([
      outboxEntry('add', 'blocklist', 'shop.example', 'default', 'Service unavailable'),
    ]);
    await waitFor(() =>
      expect(verdictText()).toBe('Blocked: On the blocklist of profile default. Not sent yet.'),
    );
    expect(screen.getByText('This counts a change still waiting to be sent.')).toBeTruthy();
    // One line naming what was asked and why it waits; the note once.
    const line = 'Waiting to add shop.example to the blocklist of profile default: Service unavailable';
    expect(outcomeText()).toBe(line);
    const waiting = screen.getByRole('list', { name: 'Waiting to be sent' });
    expect(
      within(waiting)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([line]);
    expect(screen.getAllByText(/30 to 45 minutes/)).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Send now' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Undo' })).toBeTruthy();
  });

  it('counts changes the worker delivered after the lists were fetched (context menu, shortcut)', async () => {
    await cacheAt(T0 - MINUTE).saveLists('A:default', accountOf('A'), { whitelist: [], blocklist: [] });
    await settledChangesItem.setValue([
      {
        id: '1',
        change: { op: 'add', list: 'blocklist', domain: 'shop.example', profile: 'default', source: 'menu' },
        account: accountOf('A'),
        state: 'delivered',
        message: 'Done.',
        at: T0 - 30_000,
      },
    ]);
    const popup = await openPopup({ url: 'https://shop.example/' });
    await popup.started;
    expect(verdictText()).toBe('Blocked: On the blocklist of profile default.');
  });
});

describe('profiles', () => {
  it('acts on the chosen profile and remembers a new choice', async () => {
    const api = createFakeApi('A', {
      profiles: ['default', 'kids1'],
      blocklist: { kids1: ['games.example'] },
    });
    const popup = await openPopup({ url: 'https://games.example/', api });
    await popup.started;
    expect(verdictText()).toMatch(/^Not blocked: On no list of profile default/);
    const picker = screen.getByRole('combobox', { name: 'Profile' }) as HTMLSelectElement;
    await waitFor(() => expect([...picker.options].map((o) => o.value)).toEqual(['default', 'kids1']));
    fireEvent.change(picker, { target: { value: 'kids1' } });
    await waitForVerdict('Blocked: On the blocklist of profile kids1.');
    expect(await chosenProfileItem.getValue()).toBe('kids1');
    expect(api.calls).toContain('blocklist/list kids1');
    fireEvent.click(screen.getByRole('button', { name: 'Remove from blocklist' }));
    await waitFor(() => expect(popup.submitted).toHaveLength(1));
    expect(popup.submitted[0]).toMatchObject({ op: 'remove', list: 'blocklist', profile: 'kids1' });
  });

  it('opens on the remembered profile', async () => {
    const api = createFakeApi('A', {
      profiles: ['default', 'office'],
      whitelist: { office: ['github.com'] },
    });
    const popup = await openPopup({ url: 'https://github.com/', api, profile: 'office' });
    await popup.started;
    expect(verdictText()).toBe('Allowed: On the whitelist of profile office.');
    expect((screen.getByRole('combobox', { name: 'Profile' }) as HTMLSelectElement).value).toBe('office');
  });

  it('Form B: whole account, no picker, changes without a profile', async () => {
    const api = createFakeApi('B', { blocklist: { account: ['shop.example'] } });
    const popup = await openPopup({ url: 'https://shop.example/', api, form: 'B' });
    await popup.started;
    expect(verdictText()).toBe('Blocked: On the blocklist of your account.');
    expect(screen.queryByRole('combobox', { name: 'Profile' })).toBeNull();
    expect(screen.getByText(/Whole account\./)).toBeTruthy();
    expect(api.calls).not.toContain('profiles/list');
    fireEvent.click(screen.getByRole('button', { name: 'Whitelist' }));
    await waitFor(() => expect(popup.submitted).toHaveLength(1));
    expect(popup.submitted[0]).toEqual({
      op: 'add',
      list: 'whitelist',
      domain: 'shop.example',
      source: 'popup',
      page: 'shop.example',
    });
  });
});

it('shows service text as text, never as markup', async () => {
  const popup = await openPopup({
    url: 'https://shop.example/',
    outcomes: [{ state: 'failed', message: '<img src=x onerror=alert(1)> refused' }],
  });
  await popup.started;
  fireEvent.click(screen.getByRole('button', { name: 'Blocklist' }));
  await waitFor(() => expect(outcomeText()).toBe('<img src=x onerror=alert(1)> refused'));
  expect(document.querySelector('img')).toBeNull();
});

function outboxEntry(
  op: 'add' | 'remove',
  list: 'whitelist' | 'blocklist',
  domain: string,
  profile: string,
  lastError?: string,
): OutboxEntry {
  return {
    id: `${op}-${list}-${domain}`,
    change: { op, list, domain, profile, source: 'popup' },
    account: accountOf('A'),
    createdAt: T0,
    attempts: 1,
    nextAttemptAt: T0 + MINUTE,
    lastError,
  };
}

/** Holds every list call until released, to see what the popup shows meanwhile. */
function holdCalls(api: ReturnType<typeof createFakeApi>): () => void {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const listDomains = api.listDomains.bind(api);
  api.listDomains = async (...args) => {
    await gate;
    return listDomains(...args);
  };
  return release;
}

it('says so when storage cannot be read, instead of staying blank', async () => {
  await configure('A');
  vi.spyOn(fakeBrowser.storage.local, 'get').mockRejectedValue(new Error('IO error'));
  const popup = await openPopup({ url: 'https://example.com/', key: '' });
  await popup.started;
  expect(verdictText()).toBe(
    'The popup could not start: Something went wrong inside the extension. Please try again.',
  );
});

describe('a failing dynamic IP registration', () => {
  const failed = (consecutiveFailures: number, reason = 'lookup') => ({
    at: T0 - 20 * MINUTE,
    ok: false,
    message:
      'Not registered: The public IPv4 address could not be found (https://ip.example/: not reachable).',
    reason,
    consecutiveFailures,
  });
  const registration = screen.queryByRole.bind(screen, 'region', { name: 'Dynamic IP registration' });

  async function openWith(enabled: boolean, outcome: ReturnType<typeof failed> | null) {
    await dynamicIpSettingsItem.setValue({ ...(await dynamicIpSettingsItem.getValue()), enabled });
    await registrationOutcomeItem.setValue(outcome);
    const popup = await openPopup({ url: 'https://shop.example/' });
    await popup.started;
    await waitForVerdict('Not blocked');
    return popup;
  }

  it('is said under the verdict with its reason, its age and a way to the settings', async () => {
    const popup = await openWith(true, failed(2));
    const warning = await screen.findByRole('region', { name: 'Dynamic IP registration' });
    expect(warning.textContent).toMatch(
      /^Dynamic IP registration is failing, so filtering may not apply to this network: Not registered: The public IPv4 address could not be found .*Last attempt 20 minutes ago\./,
    );
    fireEvent.click(within(warning).getByRole('button', { name: 'Open settings' }));
    expect(popup.optionsOpened()).toBe(1);
  });

  it('goes away as soon as the worker registers again', async () => {
    await openWith(true, failed(3));
    await screen.findByRole('region', { name: 'Dynamic IP registration' });
    await registrationOutcomeItem.setValue({
      at: T0,
      ok: true,
      message: 'Registered',
      consecutiveFailures: 0,
    });
    await waitFor(() => expect(registration()).toBeNull());
  });

  it.each([
    ['registration is off', false, failed(5)],
    ['the last attempt worked', true, { at: T0, ok: true, message: 'Registered', consecutiveFailures: 0 }],
    ['a single lookup failure, which the next attempt may fix', true, failed(1)],
    ['no attempt yet', true, null],
  ] as const)('is not shown when %s', async (_case, enabled, outcome) => {
    await openWith(enabled, outcome as ReturnType<typeof failed> | null);
    // The warning's storage reads are not tied to the verdict: give them a turn before checking.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(registration()).toBeNull();
  });

  it('a refusal by the service shows at once, without waiting for a second failure', async () => {
    await openWith(true, failed(1, 'bad-key'));
    expect(await screen.findByRole('region', { name: 'Dynamic IP registration' })).toBeTruthy();
  });
});

describe('the registrable domain of a new host', () => {
  it("comes from the worker's Public Suffix List and is remembered for the next opening", async () => {
    const asked: string[][] = [];
    const popup = await openPopup({
      url: 'https://news.bbc.co.uk/sport',
      askWorkerForDomains: async (hosts) => {
        asked.push([...hosts]);
        return ['bbc.co.uk'];
      },
    });
    await popup.started;
    expect(asked).toEqual([['news.bbc.co.uk']]);
    expect(actingOn('bbc.co.uk')).toBeTruthy();
    cleanup();
    popup.controller.dispose();
    const again = await openPopup({
      url: 'https://news.bbc.co.uk/weather',
      askWorkerForDomains: async (hosts) => {
        asked.push([...hosts]);
        return null;
      },
    });
    await again.started;
    expect(asked).toHaveLength(1);
    expect(actingOn('bbc.co.uk')).toBeTruthy();
  });
});

describe('another account', () => {
  it("after a new key on the same origin, the old key's cached lists are not shown", async () => {
    const oldKey = accountOf('A', 'old-key');
    await cacheAt(T0 - MINUTE).saveLists('A:default', oldKey, { whitelist: [], blocklist: ['shop.example'] });
    await cacheAt(T0 - MINUTE).saveProfiles(oldKey, ['default']);
    await cacheAt(T0 - MINUTE).saveBlockedToday(oldKey, TODAY, new Map([['shop.example', 9]]));
    const api = createFakeApi('A');
    const popup = await openPopup({ url: 'https://shop.example/', api, key: 'new-key' });
    await popup.started;
    expect(verdictText()).toMatch(/^Not blocked/);
    expect(api.calls).toContain('blocklist/list default');
    expect(popup.marks).toEqual(['verdict', 'verdict-fresh']);
  });

  it("another account's waiting changes are not counted here, and the popup says they wait", async () => {
    await cacheAt(T0 - MINUTE).saveLists('A:default', accountOf('A'), { whitelist: [], blocklist: [] });
    await cacheAt(T0 - MINUTE).saveProfiles(accountOf('A'), ['default']);
    await outboxItem.setValue([
      { ...outboxEntry('add', 'blocklist', 'shop.example', 'default'), account: accountOf('A', 'old-key') },
    ]);
    await settledChangesItem.setValue([
      {
        id: 's1',
        change: { op: 'add', list: 'blocklist', domain: 'shop.example', profile: 'default', source: 'menu' },
        account: accountOf('A', 'old-key'),
        state: 'delivered',
        message: 'Done.',
        at: T0 - 30_000,
      },
    ]);
    const popup = await openPopup({ url: 'https://shop.example/' });
    await popup.started;
    expect(verdictText()).toMatch(/^Not blocked/);
    expect(screen.queryByRole('list', { name: 'Waiting to be sent' })).toBeNull();
    expect(
      screen.getByText(/^1 change made for another account is waiting: it is never sent to this one\./),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Review them' }));
    expect(popup.optionsSections()).toEqual(['other-accounts']);
  });
});
