/**
 * The popup, opened through the real toolbar action on a site tab, against the emulator's demo
 * account (emulator/seed.ts): default whitelists allowed-demo.example and wikipedia.org and
 * blocklists blocked-demo.example and tracker.example.net; kids1 blocklists roblox.com; today's
 * statistics show ads.example.net blocked by a category.
 */
import type { Page } from 'puppeteer-core';
import { activeAccountId, storeValues } from './harness/extension-storage.ts';
import {
  type ApiFormName,
  allByRole,
  byRole,
  type ChromiumSession,
  chooseOption,
  configureExtension,
  describe,
  expect,
  test,
  textOf,
  waitForStatus,
} from './harness/index.ts';
import { listItems } from './options-helpers.ts';

type Emulator = { url: string; key: string };

async function setUp(
  chromium: ChromiumSession,
  emulator: Emulator,
  form: ApiFormName = 'A',
  key = emulator.key,
) {
  const options = await chromium.openOptions();
  await configureExtension(options, { baseUrl: emulator.url, key, form });
  // Save opens the Overview, which asks the service for the account at a glance: let it finish,
  // so a fault a test injects next reaches the popup and not the options page.
  await options.waitForFunction(() => !document.querySelector('[aria-busy="true"]'), { timeout: 20_000 });
  return options;
}

async function popupOn(chromium: ChromiumSession, host: string): Promise<Page> {
  const tab = await chromium.openSiteTab(host, '/page');
  return chromium.openPopup(tab);
}

/** The verdict once it is known (not the "Checking…" text shown before). */
function verdict(popup: Page, start: string): Promise<string> {
  return waitForStatus(popup, { startsWith: start }, { name: 'Verdict' });
}

/** Presses a one-click button and returns the outcome once the worker has answered. */
async function press(popup: Page, button: string): Promise<string> {
  await byRole(popup, 'button', button).click();
  return waitForStatus(popup, /^(?!.*…$).+/, { name: 'Change outcome' });
}

/**
 * The domain the buttons act on. It is plain text in the popup ("Acts on <domain>") with no role
 * or name of its own, so it is read from the popup's `main` landmark, which contains it.
 */
async function actsOn(popup: Page): Promise<string> {
  const shown = await textOf(popup, 'main');
  const domain = /\bActs on (\S+)/.exec(shown)?.[1];
  if (!domain) throw new Error(`The popup names no domain it acts on; it shows: ${shown}`);
  return domain;
}

/** The site the verdict is about: the heading above the verdict. */
async function shows(popup: Page, host: string): Promise<boolean> {
  return Boolean(await byRole(popup, 'heading', host).wait());
}

/** The verdict marks, in order (the start path's own `popup:<step>` marks left out). */
async function marks(popup: Page): Promise<string[]> {
  return popup.evaluate(() =>
    performance
      .getEntriesByType('mark')
      .map((mark) => mark.name)
      .filter((name) => !name.startsWith('popup:')),
  );
}

describe('verdicts (Chromium)', () => {
  test('each kind of verdict, with its reason and the performance marks', async ({ chromium, emulator }) => {
    const options = await setUp(chromium, emulator);

    const whitelisted = await popupOn(chromium, 'allowed-demo.example');
    expect(await verdict(whitelisted, 'Allowed')).toBe('Allowed: On the whitelist of profile default.');
    expect(await shows(whitelisted, 'allowed-demo.example')).toBe(true);
    // Nothing was cached: both marks at the moment the service's answer appeared.
    expect(await marks(whitelisted)).toEqual(['verdict', 'verdict-fresh']);
    expect(await byRole(whitelisted, 'button', 'Remove from whitelist').wait()).toBeTruthy();
    const callsAfterFirstPopup = emulator.admin.calls().length;

    const parentCovered = await popupOn(chromium, 'www.allowed-demo.example');
    expect(await verdict(parentCovered, 'Allowed')).toBe(
      'Allowed: Covered by the whitelist entry allowed-demo.example of profile default.',
    );
    expect(await shows(parentCovered, 'www.allowed-demo.example')).toBe(true);

    const blocklisted = await popupOn(chromium, 'cdn.tracker.example.net');
    expect(await verdict(blocklisted, 'Blocked')).toBe(
      'Blocked: Covered by the blocklist entry tracker.example.net of profile default.',
    );
    expect(await shows(blocklisted, 'cdn.tracker.example.net')).toBe(true);

    const statsBlocked = await popupOn(chromium, 'ads.example.net');
    expect(await verdict(statsBlocked, 'Blocked')).toMatch(
      /^Blocked: Probably a blocked category: \d+ blocked quer(y|ies) today\.$/,
    );
    expect(await shows(statsBlocked, 'ads.example.net')).toBe(true);

    const notBlocked = await popupOn(chromium, 'weather.example.com');
    expect(await verdict(notBlocked, 'Not blocked')).toBe(
      'Not blocked: On no list of profile default; no blocked queries today.',
    );
    expect(await shows(notBlocked, 'weather.example.com')).toBe(true);
    // The caveat is one click away, in the verdict's details.
    await byRole(notBlocked, 'button', 'Details').click();
    expect(await textOf(notBlocked, 'main')).toMatch(/A blocked category may still apply/);

    // Lists and today's statistics (fetched alongside the lists by the first, cold opening) are
    // cached for five minutes: the later popups called the service for none of them.
    const popupCalls = emulator.admin.calls().slice(callsAfterFirstPopup);
    const viewCalls = /^((whitelist|blocklist|profiles)\/list|logs\/getstats)$/;
    expect(popupCalls.filter((call) => viewCalls.test(call.action))).toEqual([]);

    await storeValues(options, { addedTlds: { 'A:default': ['.xyz'] } });
    const tldBlocked = await popupOn(chromium, 'files.xyz');
    expect(await verdict(tldBlocked, 'Blocked')).toBe(
      'Blocked: The top-level domain .xyz is blocked for profile default.',
    );

    await storeValues(options, { defaultBlock: { 'A:default': { enabled: true, at: Date.now() } } });
    const defaultBlocked = await popupOn(chromium, 'weather.example.com');
    expect(await verdict(defaultBlocked, 'Blocked')).toBe(
      'Blocked: Default block is on for profile default.',
    );
  });

  test('"Open the whitelist" shows the options page at its Whitelist, not the top of the view', async ({
    chromium,
    emulator,
  }) => {
    // Closed, so the popup opens the page anew at `options.html#whitelist`.
    await (await setUp(chromium, emulator)).close();
    const popup = await popupOn(chromium, 'allowed-demo.example');
    await verdict(popup, 'Allowed');
    await popup.click('details.verdict-details > summary');
    const address = chromium.extensionUrl('options.html#whitelist');
    await byRole(popup, 'button', 'Open the whitelist').click();
    const options = await (await chromium.browser.waitForTarget((t) => t.url() === address)).page();
    if (!options) throw new Error('The options page opened without a page to read');
    await options.bringToFront();
    // The Whitelist's heading has the keyboard, at the top of the window, below the profile bar:
    // the Categories above it have loaded by then and pushed nothing down.
    await options.waitForFunction(
      () =>
        document.activeElement?.tagName === 'H2' &&
        document.activeElement.textContent?.trim() === 'Whitelist',
      { timeout: 15_000 },
    );
    await options.waitForFunction(() => !document.querySelector('[aria-busy="true"]'), { timeout: 20_000 });
    const place = await options.evaluate(() => ({
      top: document.activeElement?.getBoundingClientRect().top ?? -1,
      scrolled: window.scrollY,
      height: window.innerHeight,
    }));
    expect(place.scrolled).toBeGreaterThan(0);
    expect(place.top).toBeGreaterThanOrEqual(0);
    expect(place.top).toBeLessThan(place.height / 4);
  });

  test('acts on the registrable domain, one click switches to the exact hostname', async ({
    chromium,
    emulator,
  }) => {
    await setUp(chromium, emulator);
    const popup = await popupOn(chromium, 'news.bbc.co.uk');
    await verdict(popup, 'Not blocked');
    expect(await actsOn(popup)).toBe('bbc.co.uk');
    await byRole(popup, 'button', 'Use the exact hostname news.bbc.co.uk').click();
    await byRole(popup, 'main', undefined, { text: { contains: 'Acts on news.bbc.co.uk' } }).wait();
    expect(await actsOn(popup)).toBe('news.bbc.co.uk');
    expect(await press(popup, 'Blocklist')).toMatch(
      /^news\.bbc\.co\.uk was added to the blocklist of profile default/,
    );
    expect(emulator.admin.state().profiles.default?.blocklist).toContain('news.bbc.co.uk');
    expect(emulator.admin.state().profiles.default?.blocklist).not.toContain('bbc.co.uk');
  });

  test('pages with nothing to filter', async ({ chromium, emulator }) => {
    await setUp(chromium, emulator);
    const bareIp = await popupOn(chromium, '127.0.0.1');
    expect(await verdict(bareIp, 'Nothing to filter here')).toMatch(/no domain name/);
    const localhost = await popupOn(chromium, 'localhost');
    expect(await verdict(localhost, 'Nothing to filter here')).toMatch(/no domain name/);
    expect(await allByRole(localhost, 'button', 'Whitelist')).toEqual([]);
  });
});

describe('stored data it cannot read (Chromium)', () => {
  test('the verdict still shows, and the popup says which data it could not read', async ({
    chromium,
    emulator,
  }) => {
    const options = await setUp(chromium, emulator);
    // What a newer version (before a downgrade) or a damaged profile could leave.
    await storeValues(options, { outbox: { queued: 'by a newer version' } });
    const popup = await popupOn(chromium, 'blocked-demo.example');
    expect(await verdict(popup, 'Blocked')).toMatch(/^Blocked: On the blocklist/);
    expect(await textOf(popup, 'main')).toMatch(/could not be read.*the changes waiting to be sent/);
  });
});

describe('one-click changes (Chromium)', () => {
  test('blocklist, move to the whitelist (exclusive), undo, remove; per profile', async ({
    chromium,
    emulator,
  }) => {
    await setUp(chromium, emulator);
    const lists = (profile: string) => {
      const state = emulator.admin.state().profiles[profile];
      return { whitelist: state?.whitelist ?? [], blocklist: state?.blocklist ?? [] };
    };

    const popup = await popupOn(chromium, 'www.shop.example');
    await verdict(popup, 'Not blocked');

    const blocked = await press(popup, 'Blocklist');
    expect(blocked).toMatch(/^shop\.example was added to the blocklist of profile default/);
    expect(blocked).toContain('30 to 45 minutes');
    // With when and from where the entry was added here (lib/notes).
    expect(await verdict(popup, 'Blocked')).toMatch(
      /^Blocked: Covered by the blocklist entry shop\.example of profile default\. Since .+, from the popup\.$/,
    );
    expect(lists('default').blocklist).toContain('shop.example');

    // Exclusivity: whitelisting moves it.
    expect(await press(popup, 'Whitelist')).toMatch(
      /^shop\.example was added to the whitelist of profile default and removed from the blocklist\./,
    );
    await verdict(popup, 'Allowed');
    expect(lists('default').whitelist).toContain('shop.example');
    expect(lists('default').blocklist).not.toContain('shop.example');

    // Undo puts it back where it was.
    await press(popup, 'Undo');
    await verdict(popup, 'Blocked');
    expect(lists('default').blocklist).toContain('shop.example');
    expect(lists('default').whitelist).not.toContain('shop.example');

    await press(popup, 'Remove from blocklist');
    await verdict(popup, 'Not blocked');
    expect(lists('default').blocklist).not.toContain('shop.example');

    // Another profile: the change lands there only, and the choice is remembered.
    await chooseOption(popup, 'Profile', 'kids1');
    await verdict(popup, 'Not blocked: On no list of profile kids1');
    expect(await press(popup, 'Whitelist')).toMatch(
      /^shop\.example was added to the whitelist of profile kids1/,
    );
    expect(lists('kids1').whitelist).toContain('shop.example');
    expect(lists('default').whitelist).not.toContain('shop.example');

    const reopened = await popupOn(chromium, 'shop.example');
    expect(await verdict(reopened, 'Allowed')).toMatch(
      /^Allowed: On the whitelist of profile kids1\. Since .+, from the popup\.$/,
    );
    const chosen = await byRole(reopened, 'combobox', 'Profile')
      .map((element) => (element as HTMLSelectElement).value)
      .wait();
    expect(chosen).toBe('kids1');
    await press(reopened, 'Remove from whitelist');
    await verdict(reopened, 'Not blocked');
    expect(lists('kids1').whitelist).not.toContain('shop.example');
  });

  test('Form B: whole account, no profile picker', async ({ chromium, emulator }) => {
    await setUp(chromium, emulator, 'B');
    const popup = await popupOn(chromium, 'blocked-demo.example');
    expect(await verdict(popup, 'Blocked')).toBe('Blocked: On the blocklist of your account.');
    expect(await textOf(popup, 'main')).toContain('Whole account.');
    expect(await allByRole(popup, 'combobox')).toEqual([]);
    await press(popup, 'Whitelist');
    await verdict(popup, 'Allowed');
    // Form B acts on the account (the emulator keeps it as the default profile's lists).
    expect(emulator.admin.state().profiles.default?.whitelist).toContain('blocked-demo.example');
    expect(emulator.admin.state().profiles.default?.blocklist).not.toContain('blocked-demo.example');
  });
});

describe('the detached view and waiting changes (Chromium)', () => {
  test('popup.html?tabId=<id> shows that tab once the extension may read it', async ({
    chromium,
    emulator,
  }) => {
    await setUp(chromium, emulator);
    const popup = await popupOn(chromium, 'blocked-demo.example');
    await verdict(popup, 'Blocked');
    const tabId = await popup.evaluate(async () => {
      type TabsGlobal = { chrome: { tabs: { query(q: object): Promise<{ id?: number }[]> } } };
      const [tab] = await (globalThis as unknown as TabsGlobal).chrome.tabs.query({
        active: true,
        currentWindow: true,
      });
      return tab?.id;
    });
    const detached = await chromium.browser.newPage();
    await detached.goto(chromium.extensionUrl(`popup.html?tabId=${tabId}`));
    expect(await verdict(detached, 'Blocked')).toBe('Blocked: On the blocklist of profile default.');
    expect(await shows(detached, 'blocked-demo.example')).toBe(true);
    await detached.goto(chromium.extensionUrl('popup.html?tabId=999999'));
    expect(await verdict(detached, 'Nothing to filter here')).toMatch(/may not read this tab's address/);
  });

  test('a change the service cannot take now is shown as pending and counted', async ({
    chromium,
    emulator,
  }) => {
    await setUp(chromium, emulator);
    const popup = await popupOn(chromium, 'shop.example');
    await verdict(popup, 'Not blocked');
    emulator.admin.injectFault({ kind: 'http-500', count: 50 });
    const outcome = await press(popup, 'Blocklist');
    expect(outcome).toMatch(/^Waiting to add shop\.example to the blocklist of profile default: /);
    // What was asked, and why it waits; never the step of the delivery that failed.
    expect(outcome).not.toMatch(/Could not/);
    expect(await verdict(popup, 'Blocked')).toBe(
      'Blocked: On the blocklist of profile default. Not sent yet.',
    );
    expect(await listItems(popup, 'Waiting to be sent')).toEqual([outcome]);
    expect(await byRole(popup, 'button', 'Send now').wait()).toBeTruthy();
    expect(emulator.admin.state().profiles.default?.blocklist).not.toContain('shop.example');
  });
});

describe('errors (Chromium)', () => {
  test('no key: what to do, and Open settings opens the options page', async ({ chromium }) => {
    // The first-run options tab opens by itself; closed here, so "Open settings" must open one.
    await (await chromium.firstRunPage()).close();
    const popup = await popupOn(chromium, 'example.com');
    expect(await verdict(popup, 'No API key is set')).toMatch(/settings/);
    const optionsUrl = chromium.extensionUrl('options.html');
    const known = new Set(chromium.browser.targets().filter((t) => t.url().startsWith(optionsUrl)));
    await byRole(popup, 'button', 'Open settings').click();
    await chromium.browser.waitForTarget((t) => t.url().startsWith(optionsUrl) && !known.has(t));
  });

  test('a refused key: the service text and Open settings, never the key', async ({ chromium, emulator }) => {
    await setUp(chromium, emulator, 'A', 'wrong-key-123');
    const popup = await popupOn(chromium, 'example.com');
    const text = await verdict(popup, "Couldn't check");
    expect(text).toContain('Invalid API key');
    expect(text).not.toContain('wrong-key-123');
    expect(await byRole(popup, 'button', 'Open settings').wait()).toBeTruthy();
  });

  test('a failing service: the reason, and Refresh recovers', async ({ chromium, emulator }) => {
    await setUp(chromium, emulator);
    emulator.admin.injectFault({ kind: 'http-500', count: 4 });
    const popup = await popupOn(chromium, 'blocked-demo.example');
    const failure = await verdict(popup, "Couldn't check blocked-demo.example");
    expect(failure.length).toBeGreaterThan("Couldn't check blocked-demo.example: ".length);
    emulator.admin.clearFaults();
    await byRole(popup, 'button', 'Refresh').click();
    await verdict(popup, 'Blocked');
  });

  test('a change the service refuses is reported and nothing is claimed', async ({ chromium, emulator }) => {
    await setUp(chromium, emulator);
    const popup = await popupOn(chromium, 'shop.example');
    await verdict(popup, 'Not blocked');
    emulator.admin.injectFault({ kind: 'odd-reason', count: 3, reason: 'Domain refused by policy' });
    const outcome = await press(popup, 'Blocklist');
    expect(outcome).toContain('Domain refused by policy');
    // The verdict still says what the lists hold: nothing was claimed.
    expect(await textOf(popup, 'status', 'Verdict')).toMatch(/^Not blocked/);
    expect(await allByRole(popup, 'button', 'Undo')).toEqual([]);
  });
});

describe('layout (Chromium)', () => {
  /**
   * The gaps between the boxes the popup shows one under the other (the verdict, the buttons'
   * card, the schedule's line), from the top: equal when the popup's cards are evenly spaced.
   */
  function gapsBetweenBoxes(popup: Page): Promise<number[]> {
    return popup.evaluate(() => {
      const boxes: DOMRect[] = [];
      const collect = (parent: Element) => {
        for (const element of parent.children) {
          if (getComputedStyle(element).display === 'contents') collect(element);
          else if (element.getBoundingClientRect().height > 0) boxes.push(element.getBoundingClientRect());
        }
      };
      const main = document.querySelector('main');
      if (main) collect(main);
      return boxes.slice(1).map((box, index) => Math.round(box.top - (boxes[index]?.bottom ?? 0)));
    });
  }

  test('the schedule’s line sits one gap below the buttons, as the buttons sit below the verdict', async ({
    chromium,
    emulator,
  }) => {
    const options = await setUp(chromium, emulator);
    const hhmm = (at: number) => {
      const date = new Date(at);
      return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
    };
    const now = Date.now();
    // A schedule of profile default holding now (docs/schedules.md, "Storage").
    await storeValues(options, {
      schedules: {
        [await activeAccountId(options)]: {
          leadMinutes: 0,
          rules: [
            {
              id: 'homework',
              name: 'Homework time',
              profile: 'default',
              days: [1, 2, 3, 4, 5, 6, 7],
              windows: [{ start: hhmm(now - 30 * 60_000), end: hhmm(now + 90 * 60_000) }],
              owns: [{ kind: 'category', category: 'category_gaming', inside: true, outside: false }],
            },
          ],
          overrides: [],
        },
      },
    });
    const popup = await popupOn(chromium, 'allowed-demo.example');
    await verdict(popup, 'Allowed');
    expect(await textOf(popup, 'region', 'Schedules')).toMatch(/^Homework time: Gaming blocked until/);
    const gaps = await gapsBetweenBoxes(popup);
    expect(gaps).toHaveLength(2);
    expect(gaps[1]).toBe(gaps[0]);
  });
});
