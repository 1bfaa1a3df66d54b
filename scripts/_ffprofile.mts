// Scratch: Gecko profile of Firefox's real toolbar popup (extension process main thread).
import { startEmulator } from '../emulator/index.ts';
import { launchChromium } from '../tests/e2e/harness/chromium.ts';
import { launchFirefox } from '../tests/e2e/harness/firefox.ts';
import { openFirefoxPopup } from '../tests/e2e/harness/firefox-popup.ts';
import { startSiteServer } from '../tests/e2e/harness/site-server.ts';
import { configureExtension, inPage, sleep, untilQuiet } from './bench/page.ts';
import { SITE_HOST } from './bench/popup.ts';

const emulator = await startEmulator({ seed: 'demo', dumpGuard: false });
const chromium = await launchChromium({ extensionDir: process.cwd() + '/.output/bench-shipped-chrome-mv3' });
const setup = await chromium.firstRunPage();
await configureExtension(setup, emulator);
await untilQuiet(emulator);
const settings = await inPage<Record<string, unknown>>(setup, `chrome.storage.local.get(null).then((all) => Object.fromEntries(Object.entries(all).filter(([key]) => !/^(cachedLists|cachedBlockedToday|profilesCache)/.test(key))))`);
await chromium.close();
const site = await startSiteServer();
const session = await launchFirefox({ extensionDir: process.cwd() + '/.output/bench-shipped-firefox-mv3', site, prefs: { 'privacy.reduceTimerPrecision': false } });
try {
  const host = session.optionsPage;
  await inPage(host, `chrome.storage.local.set(${JSON.stringify(settings)})`);
  await inPage(host, "location.assign('popup.html?tabId=-1')");
  await sleep(1500);
  const tab = await session.openSiteTab(SITE_HOST, '/');
  const open = async () => {
    const popup = await openFirefoxPopup({ browser: session.browser, window: session.window, addonId: session.extensionId, host, tab });
    const v = await popup.waitFor<number>(`view.performance.getEntriesByName('verdict')[0]?.startTime`);
    const marks = await popup.run<Record<string, number>>(`return Object.fromEntries(view.performance.getEntriesByType('mark').map((m) => [m.name, Math.round(m.startTime * 10) / 10]))`);
    await popup.close();
    await sleep(300);
    return { v, marks };
  };
  for (let i = 0; i < 4; i++) await open();
  await session.window.evaluate(`(Services.profiler.StartProfiler(1 << 22, 0.5, ['js'], ['GeckoMain']), true)`);
  await sleep(500);
  const runs = [];
  for (let i = 0; i < 8; i++) runs.push(await open());
  console.log(runs.map((r) => r.v.toFixed(1)).join(' '));
  console.log(JSON.stringify(runs[3]!.marks));
  const summary = await session.window.evaluate<string>(`(async () => { const DEPTH = 4;
    const profile = await Services.profiler.getProfileDataAsync();
    Services.profiler.StopProfiler();
    const out = [];
    const all = [profile, ...(profile.processes || [])];
    for (const p of all) for (const t of p.threads) out.push(t.processType + ' ' + t.processName + ' ' + (p.meta && p.meta.remoteType) + ' ' + t.name + ' pid' + t.pid + ' samples ' + t.samples.data.length);
    const ext = all.filter((p) => (p.meta && p.meta.remoteType === 'extension') || p.threads.some((t) => /WebExtensions/i.test(t.processName || ''))).flatMap((p) => p.threads).filter((t) => t.name === 'GeckoMain');
    for (const t of ext) {
      const S = t.samples.schema, ST = t.stackTable.schema, FT = t.frameTable.schema, str = t.stringTable;
      const self = new Map(), byFile = new Map(), cat = new Map();
      let total = 0;
      const interval = 0.5;
      for (const row of t.samples.data) {
        let stack = row[S.stack];
        if (stack === null) continue;
        total++;
        const leafFrame = t.stackTable.data[stack][ST.frame];
        const leafLoc = str[t.frameTable.data[leafFrame][FT.location]];
        self.set(leafLoc, (self.get(leafLoc) || 0) + interval);
        let file = null, labels = [];
        for (let s = stack; s !== null; s = t.stackTable.data[s][ST.prefix]) {
          const loc = str[t.frameTable.data[t.stackTable.data[s][ST.frame]][FT.location]];
          const m = /moz-extension:\\/\\/[^/]+\\/([^:)]+)/.exec(loc);
          if (m && !file) file = m[1];
          labels.push(loc);
        }
        const top = labels.length ? labels[labels.length - 1] : '?';
        const k = (file || '(no ext js)') ;
        byFile.set(k, (byFile.get(k) || 0) + interval);
        const rev = labels.slice().reverse().filter((l) => !/^0x/.test(l)); const root2 = rev.slice(2, 2 + DEPTH).join(' > ').slice(0, 220);
        cat.set(root2, (cat.get(root2) || 0) + interval);
      }
      out.push('--- extension GeckoMain: sampled ms ' + total * interval);
      out.push(...[...byFile].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([k, v]) => v.toFixed(1) + '\\t' + k));
      
      out.push('--- roots');
      out.push(...[...cat].sort((a, b) => b[1] - a[1]).filter(([k]) => !/PollWrapper/.test(k)).slice(0, 70).map(([k, v]) => v.toFixed(1) + '\\t' + k));
    }
    return out.join('\\n');
  })()`);
  console.log(summary);
} catch (e) { console.log('ERR', e); } finally { await session.close(); await site.close(); await emulator.close(); process.exit(0); }
