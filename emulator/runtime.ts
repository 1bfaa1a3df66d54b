/**
 * Everything one running emulator holds: the account, its log days, and the test switches
 * (faults, latency, public IP, dump guard). `EmulatorAdmin` is the face tests and scripts use.
 */
import { type DumpProgress, type LogDaySnapshot, LogDays } from './days.ts';
import { FaultQueue, type FaultSpec, type PendingFault } from './faults.ts';
import type { FormContext } from './forms/common.ts';
import { bigDayDate, type SeedName, seedAccount, seedLogDays } from './seed.ts';
import type { Account, AccountSnapshot, DomainList } from './state.ts';
import { isDate } from './validate.ts';

export const DEFAULT_PUBLIC_IP = '203.0.113.7';

export type ApiForm = 'A' | 'B';

export interface ApiCall {
  form: ApiForm;
  /** '' when the request had none. */
  action: string;
  /** Query parameters, first value of each, without `apikey`. */
  params: Record<string, string>;
  /** Epoch milliseconds when the request arrived. */
  at: number;
}

export interface EmulatorState extends AccountSnapshot {
  /** Newest first, like `logs/list`. */
  logs: LogDaySnapshot[];
  emulator: {
    today: string;
    /** Date of the `bigDayMb` day, or null when there is none. */
    bigDay: string | null;
    dumpGuard: boolean;
    /** Epoch ms of the last dump granted, for the once-per-hour guard. */
    lastDumpAt: number | null;
    latencyMs: number;
    publicIp: string;
    lookups: number;
    pendingFaults: PendingFault[];
  };
}

export interface EmulatorAdmin {
  /** Back to the seeded account and log days; clears faults, latency, calls, lookups, the dump guard and the public IP. */
  reset(): void;
  injectFault(fault: FaultSpec): void;
  clearFaults(): void;
  /** Delay added before every API answer (not lookups, not admin calls). */
  setLatency(ms: number): void;
  calls(): ApiCall[];
  state(): EmulatorState;
  /** What `/ip` and `/ip.json` answer; any string, to test rejection of IPv6 or junk. */
  setPublicIp(ip: string): void;
  /** Requests to `/ip` and `/ip.json` since start or reset. */
  lookups(): number;
  /** false lets `logs/getdump` be called any number of times. */
  setDumpGuard(enabled: boolean): void;
  /**
   * Adds (or replaces) a day with 24 hours × 5,000 distinct domains. Resolves when its
   * statistics are computed, so a benchmark need not time that.
   */
  seedBigStatsDay(date: string): Promise<void>;
  /**
   * Replaces a profile's list with `domains` at once (a benchmark's 100,000 entries would take
   * as many calls); they are taken as given, already normalised.
   */
  replaceDomains(list: DomainList, domains: readonly string[], profile?: string): void;
  /** How much dump text has been generated, to observe streaming and backpressure. */
  dumpProgress(): DumpProgress;
}

export interface RuntimeOptions {
  key: string;
  seed: SeedName;
  today: string;
  bigDayMb: number;
  bigStatsDay?: string;
  dumpGuard: boolean;
}

export class EmulatorRuntime implements EmulatorAdmin {
  readonly key: string;
  readonly faults = new FaultQueue();
  latencyMs = 0;
  publicIp = DEFAULT_PUBLIC_IP;
  lookupCount = 0;
  private account!: Account;
  private days!: LogDays;
  private callLog: ApiCall[] = [];

  constructor(private readonly options: RuntimeOptions) {
    this.key = options.key;
    this.reset();
  }

  get context(): FormContext {
    return { account: this.account, days: this.days };
  }

  recordCall(call: ApiCall): void {
    this.callLog.push(call);
  }

  reset(): void {
    this.account = seedAccount(this.options.seed);
    this.days = new LogDays(seedLogDays(this.options));
    this.days.dumpGuard = this.options.dumpGuard;
    this.faults.clear();
    this.callLog = [];
    this.latencyMs = 0;
    this.publicIp = DEFAULT_PUBLIC_IP;
    this.lookupCount = 0;
  }

  injectFault(fault: FaultSpec): void {
    this.faults.inject(fault);
  }

  clearFaults(): void {
    this.faults.clear();
  }

  setLatency(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('latency must be a non-negative number of ms');
    this.latencyMs = ms;
  }

  calls(): ApiCall[] {
    return this.callLog.map((call) => ({ ...call, params: { ...call.params } }));
  }

  state(): EmulatorState {
    return {
      ...this.account.snapshot(),
      logs: this.days.snapshot(),
      emulator: {
        today: this.options.today,
        bigDay: this.options.bigDayMb > 0 ? bigDayDate(this.options.today) : null,
        dumpGuard: this.days.dumpGuard,
        lastDumpAt: this.days.lastDump,
        latencyMs: this.latencyMs,
        publicIp: this.publicIp,
        lookups: this.lookupCount,
        pendingFaults: this.faults.pending(),
      },
    };
  }

  setPublicIp(ip: string): void {
    this.publicIp = ip;
  }

  lookups(): number {
    return this.lookupCount;
  }

  setDumpGuard(enabled: boolean): void {
    this.days.dumpGuard = enabled;
  }

  async seedBigStatsDay(date: string): Promise<void> {
    if (!isDate(date)) throw new RangeError('date must be yyyy-mm-dd');
    this.days.add({ kind: 'big-stats', date });
    await this.days.stats(date);
  }

  replaceDomains(list: DomainList, domains: readonly string[], profile?: string): void {
    this.account.replaceDomains(list, domains, profile);
  }

  dumpProgress(): DumpProgress {
    return { ...this.days.progress };
  }
}
