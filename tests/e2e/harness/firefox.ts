import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { captureBrowserOutput, isFirefoxConsoleLine } from './browser-output.ts';
import type { FailureEvidenceSource } from './failure-artifacts.ts';
import { builtExtensionDirs, FIREFOX_EXECUTABLE } from './paths.ts';

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
  close(): Promise<void>;
}

export interface LaunchFirefoxOptions {
  /** Unpacked extension; defaults to this run's copy of .output/firefox-mv3. */
  extensionDir?: string;
  /** How long to wait for the extension to open its options page. */
  optionsPageTimeoutMs?: number;
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

async function findExtensionPage(browser: Browser, path: string, timeoutMs: number): Promise<Page> {
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
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_EXECUTABLE,
    headless: true,
    extraPrefsFirefox: {
      // Console messages of extension pages and the background script go to stdout.
      'devtools.console.stdout.content': true,
      // The tests read English names and texts (ui-contract.md) whatever the machine's language.
      'intl.locale.requested': 'en-US',
      'intl.accept_languages': 'en-US',
    },
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
    return {
      browserName: 'firefox',
      browser,
      extensionId,
      extensionOrigin,
      optionsPage,
      output,
      pages: () => browser.pages(),
      close: () => browser.close().catch(() => {}),
    };
  } catch (error) {
    await browser.close().catch(() => {});
    throw error;
  }
}
