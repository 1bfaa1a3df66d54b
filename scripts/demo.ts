/**
 * `npm run demo`: builds the extension, starts the emulator with demo data, and opens Chromium with
 * the extension loaded and pointed at the emulator, on a demo site that is on a blocklist.
 * With a display the browser stays open for you to try; without one it runs headless, saves
 * screenshots of the popup and the options page, and says where they are.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import puppeteer, { type Page } from 'puppeteer-core';
import { startEmulator } from '../emulator/index.ts';
import { startSiteServer } from '../tests/e2e/harness/site-server.ts';

const ROOT = resolve(import.meta.dirname, '..');
const EXTENSION_DIR = join(ROOT, '.output/chrome-mv3');
const SCREENSHOT_DIR = join(ROOT, 'demo-screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DEMO_SITE = 'news.blocked-demo.example';
/** The popup's other verdicts on the demo account (emulator/seed.ts): whitelisted, not listed. */
const POPUP_CASES = [
  ['allowed', 'allowed-demo.example'],
  ['not-blocked', 'news.example'],
] as const;
/** The options views the README and a reviewer look at first (lib/options/routes.ts ids). */
const OPTIONS_VIEWS = ['overview', 'whitelist', 'categories', 'logs', 'setup'] as const;
const SCHEMES = ['light', 'dark'] as const;

function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() === 0) {
    console.log('Chromium is missing: installing Debian package "chromium"…');
    spawnSync('apt-get', ['update'], { stdio: 'inherit' });
    spawnSync('apt-get', ['install', '-y', 'chromium'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  }
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}. Install it with: sudo apt-get install -y chromium`);
  }
}

/** The element with this role and accessible name (puppeteer's built-in ARIA query). */
const aria = (role: string, name: string) => `::-p-aria([name="${name}"][role="${role}"])`;

/**
 * Waits until a status region shows text matching `pattern` and returns it. The check is passed
 * as a string: tsx compiles this script with helpers that a serialised function would not find
 * inside the page.
 */
async function statusMatching(page: Page, pattern: RegExp): Promise<string> {
  const read = `[...document.querySelectorAll('[role=status]')].map((e) => e.textContent.trim()).find((t) => ${pattern}.test(t))`;
  try {
    const handle = await page.waitForFunction(read, { timeout: 20_000 });
    return String(await handle.jsonValue());
  } catch (error) {
    const shown = await page.evaluate(
      "[...document.querySelectorAll('[role=status]')].map((e) => e.textContent.trim()).join(' | ')",
    );
    throw new Error(`No status matching ${pattern} on ${page.url()} (shown: ${shown}): ${String(error)}`);
  }
}

async function main(): Promise<void> {
  ensureChromium();
  console.log('Building the extension…');
  const build = spawnSync('npx', ['wxt', 'build'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`The build failed:\n${build.stdout}\n${build.stderr}`);

  const emulator = await startEmulator({ port: Number(process.env.DEMO_PORT ?? 0), seed: 'demo' });
  const site = await startSiteServer();
  const headless = !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
  console.log(`Emulator: ${emulator.url} (demo key ${emulator.key})`);

  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless,
    pipe: true,
    enableExtensions: true,
    defaultViewport: headless ? undefined : null,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      // Every site name reaches the local demo site server.
      '--host-resolver-rules=MAP * 127.0.0.1',
    ],
  });
  const shutdown = async () => {
    await browser.close().catch(() => {});
    await site.close();
    await emulator.close();
  };
  process.on('SIGINT', () => void shutdown().then(() => process.exit(0)));

  const extensionId = await browser.installExtension(EXTENSION_DIR);
  const extension = (await browser.extensions()).get(extensionId);
  if (!extension) throw new Error('The extension did not load');

  // The extension opens its setup page on install, as it does for a new user; the demo fills it in.
  const firstRun = await browser.waitForTarget((t) =>
    t.url().startsWith(`chrome-extension://${extensionId}/options.html`),
  );
  const options = (await browser.newPage()) as Page;
  await options.goto(firstRun.url(), { waitUntil: 'load' });
  await (await firstRun.asPage()).close();
  console.log('Setting up the extension on its options page…');
  await options.locator(aria('textbox', 'API key')).fill(emulator.key);
  await options.locator(aria('textbox', 'Base URL')).fill(emulator.url);
  await options.select(aria('combobox', 'API form'), 'A');
  // On first run Save also tests the connection and then opens the Overview (the welcome).
  await options.locator(aria('button', 'Save')).click();
  console.log(`Options page: ${await statusMatching(options, /Connected|Could not|Not connected/)}`);

  console.log(`Opening ${DEMO_SITE} and the popup…`);
  const openPopup = async (host: string): Promise<{ page: Page; verdict: string }> => {
    const tab = await browser.newPage();
    await tab.goto(site.url(host), { waitUntil: 'load' });
    const popupTarget = browser.waitForTarget((t) => t.url().includes('/popup.html'));
    await tab.bringToFront();
    await tab.triggerExtensionAction(extension);
    const page = (await (await popupTarget).asPage()) as Page;
    return { page, verdict: await statusMatching(page, /^(Blocked|Allowed|Not blocked)/) };
  };
  const first = await openPopup(DEMO_SITE);
  console.log(`Popup on ${DEMO_SITE}: ${first.verdict}`);
  // The demo site is on the seeded blocklist: anything but "Blocked" means the demo is broken.
  if (!first.verdict.startsWith('Blocked'))
    throw new Error(`The popup should show the demo site blocked: ${first.verdict}`);

  if (headless) {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const written: string[] = [];
    const shoot = async (page: Page, name: string, options: { fullPage?: boolean } = {}) => {
      const path = join(SCREENSHOT_DIR, `${name}.png`);
      await page.screenshot({ path, ...options });
      if (!existsSync(path)) throw new Error(`The screenshot ${path} was not written`);
      written.push(path);
    };
    /** Both schemes of one screen: the pages follow the system's scheme (components/theme.css). */
    const shootBothSchemes = async (page: Page, name: string) => {
      for (const scheme of SCHEMES) {
        await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
        await new Promise((settle) => setTimeout(settle, 150));
        await shoot(page, `${name}-${scheme}`);
      }
    };
    await shootBothSchemes(first.page, 'popup-blocked');
    await first.page.close();
    for (const [kind, host] of POPUP_CASES) {
      const { page, verdict } = await openPopup(host);
      if (!verdict.toLowerCase().startsWith(kind.replace('-', ' ')))
        throw new Error(`The popup on ${host} should say ${kind}: ${verdict}`);
      await shootBothSchemes(page, `popup-${kind}`);
      await page.close();
    }
    // A background tab never paints in headless Chromium: its screenshot would not arrive.
    await options.bringToFront();
    await options.setViewport({ width: 1280, height: 860 });
    const base = options.url().split('#')[0];
    for (const section of OPTIONS_VIEWS) {
      await options.goto(`${base}#${section}`, { waitUntil: 'load' });
      await new Promise((settle) => setTimeout(settle, 1200));
      await shootBothSchemes(options, `options-${section}`);
    }
    console.log(`
No display, so the demo ran headless. Screenshots (${written.length}) in ${SCREENSHOT_DIR}:
  ${written.map((path) => path.slice(SCREENSHOT_DIR.length + 1)).join('\n  ')}

To try the extension in a desktop browser by hand:
  1. Keep an emulator running: npm run emulator -- --port 8787   (it prints the demo key)
  2. Chrome/Chromium: open chrome://extensions, turn on Developer mode, "Load unpacked", choose
     ${EXTENSION_DIR}
  3. In the options page that opens: API key = the demo key, Base URL = http://127.0.0.1:8787,
     API form = Form A, Save, Test connection.`);
    await shutdown();
    return;
  }
  console.log('The browser is open with the demo. Press Ctrl-C here to stop the demo.');
  await new Promise<void>((done) => browser.on('disconnected', () => done()));
  await shutdown();
}

main().catch((error: unknown) => {
  console.error(`Demo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
