/**
 * Page diagnosis's storage writes in Node: what the worker writes when a page has many failed
 * requests while other tabs hold records of their own (lib/diagnosis/events.ts, the path a
 * `webRequest.onErrorOccurred` event takes). The product's modules are loaded through Vite's
 * module runner, as the unit tests load them, over WXT's fake browser; its storage is wrapped to
 * count each `set` and the size of what it writes (JSON characters).
 */

import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createServer, createServerModuleRunner } from 'vite';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { type Figure, figure } from './figures.ts';

const ROOT = resolve(import.meta.dirname, '../..');

export interface DiagnosisWritesOptions {
  /** Tabs open beside the page, each with a full record of failed hosts. */
  otherTabs?: number;
  /** Failed requests of the page. */
  failures?: number;
  /** Distinct hosts those requests go to, in turn (more than a record keeps: some are dropped). */
  hosts?: number;
  runs?: number;
}

interface Counted {
  writes: number;
  bytes: number;
}

/** Counts the writes of every storage area of the fake browser. */
function countWrites(): Counted {
  const counted = { writes: 0, bytes: 0 };
  for (const area of [fakeBrowser.storage.local, fakeBrowser.storage.session]) {
    const set = area.set.bind(area);
    area.set = (items: Record<string, unknown>) => {
      counted.writes++;
      counted.bytes += JSON.stringify(items).length;
      return set(items);
    };
  }
  return counted;
}

export async function measureDiagnosisWrites({
  otherTabs = 50,
  failures = 1_000,
  hosts = 200,
  runs = 3,
}: DiagnosisWritesOptions = {}): Promise<Figure[]> {
  // The extension APIs the product's modules find at load (as vitest's WXT setup does).
  Object.assign(globalThis, { chrome: fakeBrowser, browser: fakeBrowser });
  const server = await createServer({
    root: ROOT,
    configFile: false,
    logLevel: 'silent',
    appType: 'custom',
    resolve: { alias: [{ find: /^@\//, replacement: `${ROOT}/` }] },
    server: { middlewareMode: true, hmr: false, ws: false },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  const runner = createServerModuleRunner(server.environments.ssr, { hmr: false });
  try {
    const events: typeof import('../../lib/diagnosis/events.ts') =
      await runner.import('/lib/diagnosis/events.ts');
    const { MAX_FAILED_HOSTS_PER_TAB }: typeof import('../../lib/settings/limits.ts') =
      await runner.import('/lib/settings/limits.ts');
    const deps = { isEnabled: async () => true, onHostsChanged: async () => undefined, now: () => 1_000_000 };
    const fail = (tabId: number, host: string) =>
      events.onRequestError(deps, {
        tabId,
        url: `https://${host}/x.js`,
        type: 'script',
        error: 'net::ERR_NAME_NOT_RESOLVED',
      });

    const counted = countWrites();
    const writes: number[] = [];
    const megabytes: number[] = [];
    const milliseconds: number[] = [];
    for (let run = 0; run < runs; run++) {
      await fakeBrowser.storage.local.clear();
      await fakeBrowser.storage.session.clear();
      for (let tab = 1; tab <= otherTabs; tab++) {
        await events.onCommitted(deps, { tabId: tab, frameId: 0, url: `https://site${tab}.example/` });
        for (let i = 0; i < MAX_FAILED_HOSTS_PER_TAB; i++) await fail(tab, `t${i}.tracker${tab}.example`);
      }
      const page = otherTabs + 1;
      await events.onCommitted(deps, { tabId: page, frameId: 0, url: 'https://news.example/' });
      Object.assign(counted, { writes: 0, bytes: 0 });
      const started = performance.now();
      for (let i = 0; i < failures; i++) await fail(page, `t${i % hosts}.ads.example`);
      milliseconds.push(performance.now() - started);
      writes.push(counted.writes);
      megabytes.push(counted.bytes / 1e6);
    }
    const what = `a page with ${failures.toLocaleString('en')} failed requests to ${hosts} hosts, ${otherTabs} other tabs with ${MAX_FAILED_HOSTS_PER_TAB} failed hosts each`;
    return [
      figure('diagnosis-writes', `Diagnosis: storage writes, ${what}`, 'writes', writes),
      figure('diagnosis-written-mb', `Diagnosis: bytes written, ${what}`, 'MB', megabytes),
      figure(
        'diagnosis-ms',
        `Diagnosis: time in Node with a fake storage, ${what}`,
        'ms',
        milliseconds,
        null,
        "storage in memory (WXT's fake browser): a browser's storage also sends each change to every open page of the extension that follows it",
      ),
    ];
  } finally {
    await runner.close();
    await server.close();
  }
}
