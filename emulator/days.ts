/**
 * The account's log days. Raw lines are never stored: a dump is regenerated from the day's
 * spec as it is sent, and statistics are computed once per spec and cached. Deleting a day only
 * marks its raw lines as gone; its statistics keep answering (docs/service-api.md).
 */
import { Readable } from 'node:stream';
import { fail } from './failure.ts';
import { computeStats, type DaySpec, type DayStats, dumpChunks } from './logs.ts';
import { isDate } from './validate.ts';

export const DUMP_INTERVAL_MS = 60 * 60 * 1000;

interface LogDay {
  spec: DaySpec;
  rawDeleted: boolean;
}

export interface LogDaySnapshot {
  date: string;
  kind: DaySpec['kind'];
  rawDeleted: boolean;
}

export interface DumpProgress {
  /** Dump bytes produced by the generator since the emulator started (or was reset). */
  bytesGenerated: number;
  /** Dumps being sent right now. */
  activeDumps: number;
}

function specKey(spec: DaySpec): string {
  return spec.kind === 'big' ? `big|${spec.date}|${spec.targetBytes}` : `${spec.kind}|${spec.date}`;
}

/** Statistics depend only on the spec, so the cache outlives resets. */
const statsCache = new Map<string, Promise<DayStats>>();

export class LogDays {
  private readonly days = new Map<string, LogDay>();
  private lastDumpAt: number | null = null;
  dumpGuard = true;
  readonly progress: DumpProgress = { bytesGenerated: 0, activeDumps: 0 };

  constructor(specs: DaySpec[] = []) {
    for (const spec of specs) this.add(spec);
  }

  /** Adds a day, replacing any day of the same date. */
  add(spec: DaySpec): void {
    this.days.set(spec.date, { spec, rawDeleted: false });
  }

  /** Newest first. */
  dates(): string[] {
    return [...this.days.keys()].sort().reverse();
  }

  snapshot(): LogDaySnapshot[] {
    return this.dates().map((date) => {
      const day = this.days.get(date)!;
      return { date, kind: day.spec.kind, rawDeleted: day.rawDeleted };
    });
  }

  get lastDump(): number | null {
    return this.lastDumpAt;
  }

  clearDumpGuard(): void {
    this.lastDumpAt = null;
  }

  stats(date: string): Promise<DayStats> {
    const { spec } = this.requireDay(date);
    const key = specKey(spec);
    let stats = statsCache.get(key);
    if (!stats) {
      stats = computeStats(spec);
      statsCache.set(key, stats);
    }
    return stats;
  }

  delete(date: string): void {
    this.requireDay(date).rawDeleted = true;
  }

  /**
   * Checks everything that can refuse a dump, records it for the once-per-hour guard, and
   * returns a stream that generates the text only as fast as the reader takes it.
   */
  openDump(date: string, now = Date.now()): Readable {
    const day = this.requireDay(date);
    if (day.rawDeleted) fail(404, `The raw log of ${date} has been deleted`);
    if (this.dumpGuard && this.lastDumpAt !== null && now - this.lastDumpAt < DUMP_INTERVAL_MS) {
      const minutes = Math.ceil((DUMP_INTERVAL_MS - (now - this.lastDumpAt)) / 60_000);
      fail(429, `Log dumps are limited to one per hour; try again in ${minutes} minutes`);
    }
    this.lastDumpAt = now;
    return Readable.from(this.countedChunks(day.spec), { objectMode: false, highWaterMark: 64 * 1024 });
  }

  private *countedChunks(spec: DaySpec): Generator<Buffer> {
    this.progress.activeDumps++;
    try {
      for (const chunk of dumpChunks(spec)) {
        const bytes = Buffer.from(chunk, 'utf8');
        this.progress.bytesGenerated += bytes.length;
        yield bytes;
      }
    } finally {
      this.progress.activeDumps--;
    }
  }

  private requireDay(date: string): LogDay {
    if (!isDate(date)) fail(400, 'Invalid date, expected yyyy-mm-dd');
    const day = this.days.get(date);
    if (!day) fail(404, `No logs for ${date}`);
    return day;
  }
}
