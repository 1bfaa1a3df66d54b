/**
 * A local stand-in for the DNS filtering service as docs/service-api.md describes it (both forms,
 * and the product's decisions where the provider is silent), for tests, the demo and benchmarks.
 * See emulator/README.md.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequestListener } from './http.ts';
import { type EmulatorAdmin, EmulatorRuntime } from './runtime.ts';
import type { SeedName } from './seed.ts';
import { isDate, todayUtc } from './validate.ts';

export { FAULT_KINDS, type FaultKind } from './faults.ts';
export type { DayStats } from './logs.ts';
export type { EmulatorAdmin } from './runtime.ts';
export type { SeedName } from './seed.ts';

export const DEFAULT_KEY = 'demo-key-0000';

export interface EmulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 'demo-key-0000'. */
  key?: string;
  /** Default 'demo'. */
  seed?: SeedName;
  /** Size of an extra log day whose dump is generated while it streams; 0 or absent: none. */
  bigDayMb?: number;
  /** yyyy-mm-dd of the newest demo log day; default the real UTC date. */
  today?: string;
  /** false disables the once-per-hour `logs/getdump` guard; default true. */
  dumpGuard?: boolean;
  /** yyyy-mm-dd of a day with 24 hours × 5,000 distinct domains, seeded at start. */
  bigStatsDay?: string;
}

export interface EmulatorHandle {
  /** 'http://127.0.0.1:PORT', no trailing slash. */
  url: string;
  port: number;
  key: string;
  admin: EmulatorAdmin;
  close(): Promise<void>;
}

export async function startEmulator(opts: EmulatorOptions = {}): Promise<EmulatorHandle> {
  const today = opts.today ?? todayUtc();
  if (!isDate(today)) throw new RangeError(`today must be yyyy-mm-dd, got ${today}`);
  if (opts.bigStatsDay !== undefined && !isDate(opts.bigStatsDay)) {
    throw new RangeError(`bigStatsDay must be yyyy-mm-dd, got ${opts.bigStatsDay}`);
  }
  const runtime = new EmulatorRuntime({
    key: opts.key ?? DEFAULT_KEY,
    seed: opts.seed ?? 'demo',
    today,
    bigDayMb: opts.bigDayMb ?? 0,
    bigStatsDay: opts.bigStatsDay,
    dumpGuard: opts.dumpGuard ?? true,
  });
  const host = opts.host ?? '127.0.0.1';
  const server = createServer(createRequestListener(runtime));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    key: runtime.key,
    admin: bindAdmin(runtime),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets and dumps in progress would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}

/** Methods that work when destructured (`const { reset } = emulator.admin`). */
function bindAdmin(runtime: EmulatorRuntime): EmulatorAdmin {
  return {
    reset: () => runtime.reset(),
    injectFault: (fault) => runtime.injectFault(fault),
    clearFaults: () => runtime.clearFaults(),
    setLatency: (ms) => runtime.setLatency(ms),
    calls: () => runtime.calls(),
    state: () => runtime.state(),
    setPublicIp: (ip) => runtime.setPublicIp(ip),
    lookups: () => runtime.lookups(),
    setDumpGuard: (enabled) => runtime.setDumpGuard(enabled),
    seedBigStatsDay: (date) => runtime.seedBigStatsDay(date),
    replaceDomains: (list, domains, profile) => runtime.replaceDomains(list, domains, profile),
    dumpProgress: () => runtime.dumpProgress(),
  };
}
