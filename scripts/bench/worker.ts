/**
 * Background worker memory across re-registrations of the dynamic IP: the JS heap of the worker
 * (DevTools protocol attached to its target, after a forced garbage collection) before and after
 * blocks of 24 registrations, each sent as `{ type: 'register-now' }` from an extension page —
 * the path Register now and the alarm share (lib/network). The public IP alternates between two
 * addresses, so every registration adds the new address and deletes the previous one.
 */
import type { CDPSession, Page } from 'puppeteer-core';
import type { EmulatorHandle } from '../../emulator/index.ts';
import type { ChromiumSession } from '../../tests/e2e/harness/chromium.ts';
import { below, type Figure, figure } from './figures.ts';
import { inPage, setStored, sleep, untilQuiet } from './page.ts';

const KB = 1000;
const ADDRESSES = ['198.51.100.10', '198.51.100.11'];
const WARM_UP_REGISTRATIONS = 96;
/** lib/network/ip-lookup.ts: the time limit of one lookup. */
const LOOKUP_TIMEOUT_MS = 8000;

export interface WorkerBenchOptions {
  session: ChromiumSession;
  emulator: EmulatorHandle;
  /** An extension page to send messages from. */
  control: Page;
  blocks: number;
  registrationsPerBlock: number;
  /** Growth per block under this many kB counts as flat (garbage collector noise). */
  noiseKb: number;
  log(line: string): void;
}

async function heapAfterGc(cdp: CDPSession): Promise<number> {
  // Twice: the first pass may leave objects that only a second one frees (weak references).
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  return usedSize;
}

export async function measureWorker(options: WorkerBenchOptions): Promise<Figure[]> {
  const { session, emulator, control, log } = options;
  await setStored(control, {
    dynamicIp: {
      enabled: false,
      intervalMinutes: 15,
      label: 'Bench network',
      profile: 'default',
      lookupUrls: [`${emulator.url}/ip`],
      removePrevious: true,
    },
  });
  await untilQuiet(emulator, 300);

  const target = await session.browser.waitForTarget(
    (t) => t.type() === 'service_worker' && t.url().startsWith(session.extensionUrl('')),
  );
  const cdp = await target.createCDPSession();
  let registrations = 0;
  const failures: string[] = [];
  const register = async () => {
    emulator.admin.setPublicIp(ADDRESSES[registrations % ADDRESSES.length]!);
    registrations++;
    const answer = await inPage<{ ok: boolean; message: string }>(
      control,
      "chrome.runtime.sendMessage({ type: 'register-now' })",
    );
    if (!answer?.ok) failures.push(answer?.message ?? 'no answer');
  };

  // Warm-up, not counted: lazy code and JIT feedback settle, and the worker's resource timing
  // buffer (250 entries, about three per registration, then full) stops growing.
  for (let i = 0; i < WARM_UP_REGISTRATIONS; i++) await register();
  const settledHeap = async () => {
    // Each IP lookup holds an `AbortSignal.timeout` alive until its timer fires; registrations
    // come every few minutes in use, so a reading waits until the last block's timers are over.
    await sleep(LOOKUP_TIMEOUT_MS + 1000);
    return heapAfterGc(cdp);
  };
  const readings = [await settledHeap()];
  const growth: number[] = [];
  for (let block = 0; block < options.blocks; block++) {
    for (let i = 0; i < options.registrationsPerBlock; i++) await register();
    readings.push(await settledHeap());
    growth.push((readings.at(-1)! - readings.at(-2)!) / KB);
  }
  const sameWorker = !target.url() ? false : session.browser.targets().includes(target);
  await cdp.detach();
  log(
    `  worker: ${registrations} registrations, heap ${readings.map((r) => (r / KB).toFixed(0)).join(' → ')} kB`,
  );

  const failed = failures.length > 0 ? `; ${failures.length} registrations failed: ${failures[0]}` : '';
  return [
    figure(
      'worker-heap-kb',
      'Worker JS heap after GC, before the blocks',
      'kB',
      [readings[0]! / KB],
      null,
      `after ${options.blocks} blocks: ${(readings.at(-1)! / KB).toFixed(0)} kB${sameWorker ? '' : ' (the worker restarted during the run)'}`,
    ),
    figure(
      'worker-heap-growth-kb',
      `Worker heap growth per ${options.registrationsPerBlock} re-registrations`,
      'kB',
      growth,
      below(options.noiseKb, `< ${options.noiseKb} kB (flat)`),
      `Runtime.getHeapUsage after HeapProfiler.collectGarbage, 9 s after the block (lookup timers over); ${WARM_UP_REGISTRATIONS} registrations first as warm-up${failed}`,
    ),
  ];
}
