import puppeteer, { type Browser, type Extension, type Page, type WebWorker } from 'puppeteer-core';
import { type BrowserOutput, captureBrowserOutput, isChromiumConsoleLine } from './browser-output.ts';
import type { FailureEvidenceSource } from './failure-artifacts.ts';
import { builtExtensionDirs, CHROMIUM_EXECUTABLE } from './paths.ts';
import { type SiteServer, startSiteServer } from './site-server.ts';

export interface ChromiumSession extends FailureEvidenceSource {
  browser: Browser;
  extension: Extension;
  extensionId: string;
  /** `chrome-extension://<id>/<path>` */
  extensionUrl(path: string): string;
  /** The site server behind `openSiteTab`. */
  site: SiteServer;
  /** The extension's service worker (waits for it to be running). */
  worker(): Promise<WebWorker>;
  /** The options tab the extension opened by itself on install. */
  firstRunPage(): Promise<Page>;
  /** A new tab on options.html. */
  openOptions(): Promise<Page>;
  /** A new tab on `http://<host>:<site port><path>`; every host name resolves to 127.0.0.1. */
  openSiteTab(host: string, path?: string): Promise<Page>;
  /**
   * Opens the real popup the way a user does, by triggering the toolbar action on `tab`
   * (this grants activeTab for that tab), and returns it once its document has loaded.
   */
  openPopup(tab: Page): Promise<Page>;
  close(): Promise<void>;
}

export interface LaunchChromiumOptions {
  /** Unpacked extension; defaults to this run's copy of .output/chrome-mv3. */
  extensionDir?: string;
  /** Serve site tabs from this server instead of one owned by the session. */
  site?: SiteServer;
  /** Extra command-line switches. */
  args?: string[];
}

/**
 * Headless Chromium on this closed network (no background connections, no first-run page), with
 * every site name reaching the local site server (site tabs use real-looking host names) and the
 * interface in English: what any launch here needs, whatever the driver.
 */
export const QUIET_CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--host-resolver-rules=MAP * 127.0.0.1',
  // The tests read English names and texts (ui-contract.md) whatever the machine's language.
  '--lang=en-US',
  '--accept-lang=en-US',
];

const LAUNCH_ARGS = [
  ...QUIET_CHROMIUM_ARGS,
  // Console messages of every extension page and the worker, from the first one on.
  '--enable-logging=stderr',
  '--v=0',
];

/**
 * On Linux, Chromium's interface language (which `i18n.getMessage` follows) can come from the
 * environment (LANGUAGE first) instead of --lang: pin that to English as well.
 */
const LAUNCH_ENV = { ...process.env, LANGUAGE: 'en_US:en' };

export async function launchChromium(options: LaunchChromiumOptions = {}): Promise<ChromiumSession> {
  const ownsSite = !options.site;
  const site = options.site ?? (await startSiteServer());
  let browser: Browser | undefined;
  try {
    browser = await puppeteer.launch({
      executablePath: CHROMIUM_EXECUTABLE,
      headless: true,
      // installExtension needs the pipe transport and extension support.
      pipe: true,
      enableExtensions: true,
      args: [...LAUNCH_ARGS, ...(options.args ?? [])],
      env: LAUNCH_ENV,
    });
    const output = captureBrowserOutput(browser.process(), isChromiumConsoleLine);
    const extensionId = await browser.installExtension(options.extensionDir ?? builtExtensionDirs().chrome);
    const extension = (await browser.extensions()).get(extensionId);
    if (!extension) throw new Error(`Extension ${extensionId} installed but not listed by the browser`);
    return createSession(browser, extension, site, output, ownsSite);
  } catch (error) {
    await browser?.close().catch(() => {});
    if (ownsSite) await site.close();
    throw error;
  }
}

function createSession(
  browser: Browser,
  extension: Extension,
  site: SiteServer,
  output: BrowserOutput,
  ownsSite: boolean,
): ChromiumSession {
  const extensionId = extension.id;
  const origin = `chrome-extension://${extensionId}`;
  const extensionUrl = (path: string) => `${origin}/${path.replace(/^\//, '')}`;
  const popups = new Set<Page>();

  /**
   * The options tab the worker opens on install (entrypoints/background: `openOptionsPage`). Until
   * it has, a test must not open options.html itself: Chromium would load the install's page into
   * that tab, a navigation in the middle of the test (seen on a busy machine, where the worker's
   * onInstalled ran after the test's tab had opened).
   */
  let installPageTarget: ReturnType<Browser['waitForTarget']> | undefined;
  const installPageOpened = () =>
    (installPageTarget ??= browser.waitForTarget((t) => t.url().startsWith(extensionUrl('options.html')), {
      timeout: 20_000,
    }));

  return {
    browserName: 'chromium',
    browser,
    extension,
    extensionId,
    extensionUrl,
    site,
    output,

    async worker() {
      const target = await browser.waitForTarget(
        (t) => t.type() === 'service_worker' && t.url().startsWith(`${origin}/`),
      );
      const worker = await target.worker();
      if (!worker) throw new Error('The extension service worker target has no worker');
      return worker;
    },

    async firstRunPage() {
      const page = await (await installPageOpened()).asPage();
      await page.waitForFunction(() => document.readyState === 'complete');
      return page;
    },

    async openOptions() {
      await installPageOpened();
      const page = await browser.newPage();
      await page.goto(extensionUrl('options.html'), { waitUntil: 'load' });
      return page;
    },

    async openSiteTab(host, path = '/') {
      const page = await browser.newPage();
      const response = await page.goto(site.url(host, path), { waitUntil: 'load' });
      if (!response?.ok()) throw new Error(`Site tab ${host}${path} answered ${response?.status()}`);
      return page;
    },

    async openPopup(tab) {
      const popupUrl = extensionUrl('popup.html');
      const open = async () => {
        const known = new Set(browser.targets().filter((t) => t.url().startsWith(popupUrl)));
        const opened = browser.waitForTarget((t) => t.url().startsWith(popupUrl) && !known.has(t), {
          timeout: 15_000,
        });
        await tab.bringToFront();
        await tab.triggerExtensionAction(extension);
        const popup = await (await opened).asPage();
        await popup.waitForFunction(() => document.readyState === 'complete');
        return popup;
      };
      // Headless Chromium sometimes closes a popup it has just opened, before puppeteer attaches
      // to it ("frame got detached", "main frame too early"): the click is made once more. A
      // popup that closes itself fails both times.
      const popup = await open().catch(async (error: unknown) => {
        console.warn(`The popup did not open at the first click (${String(error)}); clicking again.`);
        return open();
      });
      popups.add(popup);
      return popup;
    },

    async pages() {
      const open = await browser.pages();
      for (const popup of popups) {
        if (!popup.isClosed() && !open.some((page) => page.target() === popup.target())) open.push(popup);
      }
      return open;
    },

    async close() {
      await browser.close().catch(() => {});
      if (ownsSite) await site.close();
    },
  };
}
