import fs from 'node:fs';
import { startEmulator } from '../emulator/index.ts';
import { launchChromium } from '../tests/e2e/harness/chromium.ts';
import { addAccounts, configureExtension, inPage, sleep, untilQuiet } from './bench/page.ts';
import { SITE_HOST } from './bench/popup.ts';
const emulator = await startEmulator({ seed: 'demo', dumpGuard: false });
const chromium = await launchChromium({ extensionDir: process.cwd() + '/.output/bench-shipped-chrome-mv3' });
const out: string[] = [];
try {
  const setup = await chromium.firstRunPage();
  await configureExtension(setup, emulator);
  await untilQuiet(emulator);
  const site = await chromium.openSiteTab(SITE_HOST, '/');
  const popup = await chromium.openPopup(site);
  await sleep(2500);
  const tabId = await inPage<number>(popup, 'chrome.tabs.query({ active: true, currentWindow: true }).then(([tab]) => tab.id)');
  await popup.close();
  const url = chromium.extensionUrl(`popup.html?tabId=${tabId}`);
  for (let i = 0; i < 3; i++) { await setup.goto(url); await sleep(1500); }
  const self = new Map<string, number>();
  const spans: number[] = [];
  for (let i = 0; i < 12; i++) {
    const page = await chromium.browser.newPage();
    const cdp = await page.createCDPSession();
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
    await cdp.send('Profiler.start');
    await page.goto(url);
    await page.waitForFunction(`performance.getEntriesByName('verdict').length > 0`);
    const marks = await page.evaluate(`Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime]))`) as Record<string, number>;
    const { profile } = await cdp.send('Profiler.stop');
    spans.push(marks.verdict! - marks['popup:lists']!);
    // self time by function, only samples between the lists mark and the verdict mark (profile timestamps are µs, monotonic)
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const t0 = profile.startTime;
    let t = t0;
    const nav = await page.evaluate(`performance.timeOrigin`) as number;
    for (let s = 0; s < profile.samples!.length; s++) {
      t += profile.timeDeltas![s]!;
      const n = byId.get(profile.samples![s]!)!;
      const key = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/.*\//, '')}:${n.callFrame.lineNumber}:${n.callFrame.columnNumber}`;
      self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas![s + 1] ?? 50) / 1000);
    }
    await page.close();
    await sleep(300);
  }
  out.push('lists→verdict ms: ' + spans.map((s) => s.toFixed(1)).join(' '));
  out.push(...[...self].sort((a, b) => b[1] - a[1]).filter(([k]) => !/^\((idle|program|garbage)/.test(k) || true).slice(0, 60).map(([k, v]) => (v / 12).toFixed(2) + '\t' + k));
} catch (e) { out.push(String((e as Error)?.stack ?? e)); } finally { fs.writeFileSync('/tmp/cpuprof.txt', out.join('\n')); await chromium.close(); await emulator.close(); process.exit(0); }
