import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { captureBrowserOutput, isFirefoxConsoleLine } from './browser-output.ts';
import type { FailureEvidenceSource } from './failure-artifacts.ts';
import {
  type BrowserWindow,
  browserWindow,
  FIREFOX_CHROME_ACCESS_ARGS,
  type FirefoxPopup,
  openFirefoxPopup,
  resolveLocally,
} from './firefox-popup.ts';
import { builtExtensionDirs, FIREFOX_EXECUTABLE } from './paths.ts';
import { type SiteServer, startSiteServer } from './site-server.ts';

export interface FirefoxSession extends FailureEvidenceSource {
  browser: Browser;
  /** The add-on id from browser_specific_settings.gecko.id. */
  extensionId: string;
  /** `moz-extension://<this profile's uuid>` */
  extensionOrigin: string;
  /**
   * The options page the extension opened by itself on first install. WebDriver BiDi refuses to
   * navigate to moz-extension:// URLs, so this tab is the way into the extension's pages; it has
   * the extension APIs.
   */
  optionsPage: Page;
  /** The browser window (chrome://browser/content/browser.xhtml), scriptable with its privileges. */
  window: BrowserWindow;
  /** The site server behind `openSiteTab`. */
  site: SiteServer;
  /** A new tab on `http://<host>:<site port><path>`; the host name resolves to 127.0.0.1. */
  openSiteTab(host: string, path?: string): Promise<Page>;
  /**
   * Opens the real popup the way a user does, by clicking the toolbar action (Extensions button,
   * then the extension's item) with `tab` in front (this grants activeTab for that tab). Read it
   * through the returned handle (firefox-popup.ts), from the options page.
   */
  openPopup(tab: Page): Promise<FirefoxPopup>;
  close(): Promise<void>;
}

export interface LaunchFirefoxOptions {
  /** Unpacked extension; defaults to this run's copy of .output/firefox-mv3. */
  extensionDir?: string;
  /** How long to wait for the extension to open its options page. */
  optionsPageTimeoutMs?: number;
  /** Serve site tabs from this server instead of one owned by the session. */
  site?: SiteServer;
  /** More preferences (the bench asks for full timer precision). */
  prefs?: Record<string, unknown>;
}

const POLL_MS = 100;

async function documentUrl(page: Page): Promise<string | null> {
  // The tab the extension navigates keeps a stale `page.url()` (BiDi reports no navigation for
  // it), so ask the document itself.
  try {
    return await page.evaluate(() => location.href);
  } catch {
    return null;
  }
}

/** The tab of an extension page whose path is `path`, found by asking each tab's document. */
export async function findExtensionPage(browser: Browser, path: string, timeoutMs: number): Promise<Page> {
  const deadline = Date.now() + timeoutMs;
  const seen = new Set<string>();
  while (Date.now() < deadline) {
    for (const page of await browser.pages()) {
      const url = await documentUrl(page);
      if (url) seen.add(url);
      if (url?.startsWith('moz-extension://') && new URL(url).pathname === `/${path}`) return page;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(
    `Firefox: the extension did not open ${path} within ${timeoutMs} ms (open pages: ${JSON.stringify([...seen])})`,
  );
}

export async function launchFirefox(options: LaunchFirefoxOptions = {}): Promise<FirefoxSession> {
  const ownsSite = !options.site;
  const site = options.site ?? (await startSiteServer());
  const browser = await puppeteer
    .launch({
      browser: 'firefox',
      executablePath: FIREFOX_EXECUTABLE,
      headless: true,
      // The popup opens only from a click on the toolbar, which the browser window is scripted for.
      args: FIREFOX_CHROME_ACCESS_ARGS,
      extraPrefsFirefox: {
        // Console messages of extension pages and the background script go to stdout.
        'devtools.console.stdout.content': true,
        // The tests read English names and texts (ui-contract.md) whatever the machine's language.
        'intl.locale.requested': 'en-US',
        'intl.accept_languages': 'en-US',
        ...options.prefs,
      },
    })
    .catch(async (error: unknown) => {
      if (ownsSite) await site.close();
      throw error;
    });
  try {
    const output = captureBrowserOutput(browser.process(), isFirefoxConsoleLine);
    const extensionId = await browser.installExtension(options.extensionDir ?? builtExtensionDirs().firefox);
    const optionsPage = await findExtensionPage(
      browser,
      'options.html',
      options.optionsPageTimeoutMs ?? 20_000,
    );
    await optionsPage.waitForFunction(() => document.readyState === 'complete');
    const extensionOrigin = await optionsPage.evaluate(() => location.origin);
    const window = await browserWindow(browser);
    return {
      browserName: 'firefox',
      browser,
      extensionId,
      extensionOrigin,
      optionsPage,
      window,
      site,
      output,
      async openSiteTab(host, path = '/') {
        await resolveLocally(window, [host]);
        const page = await browser.newPage();
        const response = await page.goto(site.url(host, path), { waitUntil: 'load' });
        if (!response?.ok()) throw new Error(`Site tab ${host}${path} answered ${response?.status()}`);
        return page;
      },
      openPopup: (tab) => openFirefoxPopup({ browser, window, addonId: extensionId, host: optionsPage, tab }),
      pages: () => browser.pages(),
      async close() {
        await browser.close().catch(() => {});
        if (ownsSite) await site.close();
      },
    };
  } catch (error) {
    await browser.close().catch(() => {});
    if (ownsSite) await site.close();
    throw error;
  }
}
