/**
 * The real toolbar popup in Firefox, opened by a real click on the toolbar, for the e2e tests and
 * for `npm run bench` (scripts/bench/), which imports this file.
 *
 * Firefox opens an extension's popup only from a user's click (`action.openPopup()` opens it but
 * grants no activeTab, so it does not show what a user sees). Launched with
 * `--remote-allow-system-access`, the WebDriver BiDi connection may run code in the browser
 * window itself (chrome://browser/content/browser.xhtml), where `window.synthesizeMouseEvent`
 * with `isDOMEventSynthesized: false` makes mouse events Firefox treats as a person's: a click on
 * the Extensions button, then on the extension's item, opens the popup and grants activeTab for
 * the selected tab.
 *
 * BiDi cannot reach the popup's document, but the extension's own pages can:
 * `extension.getViews({type: 'popup'})` from the options page the extension opened on install
 * gives the popup's window (`readPopupFrom`, which the bench also uses for Chromium's popups). Code run there is passed as a string expression: extension
 * pages forbid `eval`, and a serialised function would miss the helpers tsx adds to functions.
 *
 * The flag gives the test client the browser's own privileges: tests and the bench only.
 */
import type { Browser, Page } from 'puppeteer-core';

/** The one command of the BiDi connection used here (puppeteer keeps the type internal). */
interface BidiConnection {
  send(method: string, params: object): Promise<{ result: unknown }>;
}

interface EvaluateResult {
  type: 'success' | 'exception';
  result?: { type: string; value?: unknown };
  exceptionDetails?: { text?: string };
}

/** Puppeteer's launch arguments that let the test client script the browser window. */
export const FIREFOX_CHROME_ACCESS_ARGS = ['--remote-allow-system-access'];

/** The toolbar widget id Firefox gives an extension's action (its add-on id made id-safe). */
export function browserActionWidgetId(addonId: string): string {
  return `${addonId.toLowerCase().replace(/[^a-z0-9_-]/g, '_')}-browser-action`;
}

/** Turns a JSON-able value from the browser window's BiDi serialisation back into plain JSON. */
function fromRemoteValue(value: { type: string; value?: unknown } | undefined): unknown {
  if (!value) return undefined;
  switch (value.type) {
    case 'undefined':
    case 'null':
      return value.type === 'null' ? null : undefined;
    case 'array':
      return (value.value as { type: string; value?: unknown }[]).map(fromRemoteValue);
    case 'object':
      return Object.fromEntries(
        (value.value as [string, { type: string; value?: unknown }][]).map(([key, item]) => [
          key,
          fromRemoteValue(item),
        ]),
      );
    default:
      return value.value;
  }
}

/** Code run in the browser window (chrome://browser/content/browser.xhtml). */
export interface BrowserWindow {
  /** Evaluates `expression` there, awaiting a promise it gives; the value should be JSON. */
  evaluate<T>(expression: string): Promise<T>;
}

export async function browserWindow(browser: Browser): Promise<BrowserWindow> {
  const connection = (browser as unknown as { connection?: BidiConnection }).connection;
  if (!connection) throw new Error('Firefox: no WebDriver BiDi connection on this browser');
  const tree = (await connection.send('browsingContext.getTree', { 'moz:scope': 'chrome' })).result as {
    contexts: { context: string; url: string }[];
  };
  const window = tree.contexts.find((c) => c.url === 'chrome://browser/content/browser.xhtml');
  if (!window) {
    throw new Error(
      `Firefox: the browser window is not scriptable (launch with ${FIREFOX_CHROME_ACCESS_ARGS.join(' ')}); contexts: ${tree.contexts.map((c) => c.url).join(', ')}`,
    );
  }
  return {
    async evaluate<T>(expression: string): Promise<T> {
      const { result } = (await connection.send('script.evaluate', {
        expression,
        target: { context: window.context },
        awaitPromise: true,
      })) as { result: EvaluateResult };
      if (result.type === 'exception') {
        throw new Error(`Firefox browser window: ${result.exceptionDetails?.text ?? 'exception'}`);
      }
      return fromRemoteValue(result.result) as T;
    },
  };
}

/** In the browser window: a real left click at the centre of `element`, then `Date.now()` before it. */
const CLICK_HELPER = `
  const click = (element) => {
    const box = element.getBoundingClientRect();
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    const at = performance.timeOrigin + performance.now();
    for (const [type, buttons] of [['mousedown', 1], ['mouseup', 0]]) {
      window.synthesizeMouseEvent(type, x, y, { button: 0, buttons, clickCount: 1 },
        { isDOMEventSynthesized: false });
    }
    return at;
  };
  const until = async (what, check, timeoutMs = 10000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = check();
      if (value) return value;
      if (Date.now() > deadline) throw new Error('Firefox browser window: timed out waiting for ' + what);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
`;

/**
 * Clicks the extension's toolbar action the way a person does when it is not pinned: the
 * Extensions button, then the extension's item in that panel. Returns the moment of the click on
 * the item (epoch ms, the browser's clock), from which "time from the click" is counted.
 */
export function clickToolbarAction(window: BrowserWindow, addonId: string): Promise<number> {
  const widgetId = browserActionWidgetId(addonId);
  return window.evaluate<number>(`(async () => {
    ${CLICK_HELPER}
    await until('the toolbar widget ${widgetId}',
      () => CustomizableUI.getPlacementOfWidget(${JSON.stringify(widgetId)}));
    const panel = gUnifiedExtensions.panel;
    if (panel.state !== 'open') {
      click(document.getElementById('unified-extensions-button'));
      await until('the Extensions panel to open', () => panel.state === 'open');
    }
    const item = await until('the extension item in the Extensions panel', () => {
      const button = document.querySelector(
        ${JSON.stringify(`#${widgetId} .unified-extensions-item-action-button`)});
      const box = button?.getBoundingClientRect();
      return box && box.width > 0 && box.height > 0 ? button : null;
    });
    return click(item);
  })()`);
}

/** Whether Firefox granted activeTab for the selected tab to the add-on (as a click does). */
export function hasActiveTabForSelectedTab(window: BrowserWindow, addonId: string): Promise<boolean> {
  return window.evaluate<boolean>(
    `WebExtensionPolicy.getByID(${JSON.stringify(addonId)}).extension.tabManager.hasActiveTabPermission(gBrowser.selectedTab)`,
  );
}

/** Adds host names that resolve to 127.0.0.1 (pref `network.dns.localDomains`), for site tabs. */
export function resolveLocally(window: BrowserWindow, hosts: readonly string[]): Promise<void> {
  return window.evaluate<void>(`(() => {
    const pref = 'network.dns.localDomains';
    const known = new Set(Services.prefs.getStringPref(pref, '').split(',').map((h) => h.trim()).filter(Boolean));
    for (const host of ${JSON.stringify(hosts)}) known.add(host);
    Services.prefs.setStringPref(pref, [...known].join(','));
  })()`);
}

/**
 * The popup's window as the extension sees it, read from one of its pages (Chromium's
 * `chrome.extension.getViews` answers the same way, so the bench reads Chromium's popups so too).
 */
const POPUP_VIEW = "chrome.extension.getViews({ type: 'popup' })[0]";

/**
 * A popup opened by a click, read through an extension page of the same extension (`host`).
 * Code given to it sees `view` (the popup's window) and `document` (its document).
 */
export interface ExtensionPopup {
  /** The moment of the click that opened it (epoch ms). */
  clickedAt: number;
  /** Evaluates a function body (statements ending in `return …`, may `await`) in the popup. */
  run<T>(body: string): Promise<T>;
  /**
   * Waits until `condition` (an expression over `view` and `document`) is truthy and returns its
   * value. The waiting runs inside the host page, so it costs one round trip, not one per check.
   */
  waitFor<T>(condition: string, timeoutMs?: number): Promise<T>;
  /** Closes the popup and waits until it is gone. */
  close(): Promise<void>;
}

/** Firefox's popup, as the tests name it. */
export type FirefoxPopup = ExtensionPopup;

/** An expression for the host page that resolves once `check` (an expression) is truthy. */
function untilInHost(check: string, what: string, timeoutMs: number): string {
  return `new Promise((resolve, reject) => {
    const deadline = Date.now() + ${timeoutMs};
    const attempt = () => {
      let value = null;
      try { value = ${check}; } catch (error) { reject(error); return; }
      if (value) resolve(value);
      else if (Date.now() > deadline) reject(new Error(${JSON.stringify(`timed out waiting for ${what}`)}));
      else setTimeout(attempt, 5);
    };
    attempt();
  })`;
}

/** The popup of `host`'s extension, as it is now, opened by a click at `clickedAt`. */
export function readPopupFrom(host: Page, clickedAt: number): ExtensionPopup {
  const run = <T>(body: string) =>
    host.evaluate(`(async () => {
      const view = ${POPUP_VIEW};
      if (!view) throw new Error('No popup is open');
      const document = view.document;
      ${body}
    })()`) as Promise<T>;
  return {
    clickedAt,
    run,
    waitFor<T>(condition: string, timeoutMs = 15_000): Promise<T> {
      const check = `(() => {
        const view = ${POPUP_VIEW};
        if (!view || view.document.readyState === 'loading') return null;
        const document = view.document;
        return (${condition}) || null;
      })()`;
      return host.evaluate(untilInHost(check, `the popup: ${condition}`, timeoutMs)) as Promise<T>;
    },
    async close() {
      await host.evaluate(`(() => { const view = ${POPUP_VIEW}; if (view) view.close(); })()`);
      await waitForPopupCount(host, 0);
    },
  };
}

/** Waits until `host`'s extension has `count` popups open. */
export async function waitForPopupCount(host: Page, count: number, timeoutMs = 15_000): Promise<void> {
  await host.evaluate(
    untilInHost(
      `chrome.extension.getViews({ type: 'popup' }).length === ${count}`,
      `${count} popup(s) open`,
      timeoutMs,
    ),
  );
}

export interface OpenFirefoxPopupOptions {
  browser: Browser;
  window: BrowserWindow;
  /** The add-on whose action is clicked. */
  addonId: string;
  /** A page of that add-on (the options page it opened on install), to read the popup from. */
  host: Page;
  /** The site tab the popup is opened on; brought to the front first. */
  tab: Page;
}

/**
 * Opens the add-on's real popup on `tab` by clicking its toolbar action, and returns it once its
 * document exists (its scripts may still be running).
 */
export async function openFirefoxPopup(options: OpenFirefoxPopupOptions): Promise<ExtensionPopup> {
  const { window, addonId, host, tab } = options;
  await waitForPopupCount(host, 0);
  await tab.bringToFront();
  const clickedAt = await clickToolbarAction(window, addonId);
  await waitForPopupCount(host, 1);
  const popup = readPopupFrom(host, clickedAt);
  await popup.waitFor("document.readyState !== 'loading'");
  return popup;
}
