import { startEmulator } from '../emulator/index.ts';
import { launchChromium } from '../tests/e2e/harness/chromium.ts';
import { addAccounts, configureExtension, inPage, sleep, untilQuiet } from './bench/page.ts';
import { SITE_HOST } from './bench/popup.ts';
const emulator = await startEmulator({ seed: 'demo', dumpGuard: false });
const chromium = await launchChromium({ extensionDir: process.cwd() + '/.output/bench-shipped-chrome-mv3' });
try {
const setup = await chromium.firstRunPage();
await configureExtension(setup, emulator);
await untilQuiet(emulator);
const others = await addAccounts(setup, 4);
await untilQuiet(emulator);
const site = await chromium.openSiteTab(SITE_HOST, '/');
const tabId = await inPage<number>(setup, `chrome.tabs.query({}).then((tabs) => tabs.filter((t) => !(t.url||'').startsWith('chrome-extension')).pop().id)`);
for (let i = 0; i < 2; i++) { await setup.goto(chromium.extensionUrl(`popup.html?tabId=${tabId}`)); await sleep(2500); }
const out = await inPage<string>(setup, `chrome.storage.local.get(null).then((all) => { const hint = localStorage.getItem('earlyReadKeys'); return hint + '\\n' + Object.entries(all).map(([k,v]) => JSON.stringify(v).length + '\\t' + k).sort((a,b)=>parseInt(b)-parseInt(a)).join('\\n'); })`);
(await import("node:fs")).writeFileSync("/tmp/sizes.txt", out);
for (const o of others) await o.close();
} catch (e) { (await import("node:fs")).writeFileSync("/tmp/sizes.txt", String(e?.stack ?? e)); } finally { await chromium.close(); await emulator.close(); process.exit(0); }
