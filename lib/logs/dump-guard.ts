/**
 * The service allows one raw log download per hour per account (service-api.md section 8,
 * docs/service-api.md). The client enforces it itself, across restarts, from a stored time of the last
 * request, so a user never burns the allowance by accident and the service never has to refuse.
 */
import { ApiError, isApiError } from '@/lib/api/errors';
import { t } from '@/lib/i18n';

export const DUMP_INTERVAL_MS = 60 * 60 * 1000;

export type DumpAllowance = { allowed: true } | { allowed: false; nextAt: number };

/**
 * Whether a download may start at `now`, given the time of the last one. A stored time in the
 * future means the clock was set back: the elapsed time is unknown, so wait at most a full interval
 * from now rather than until the future time plus an hour.
 */
export function dumpAllowance(lastAt: number | null, now: number): DumpAllowance {
  if (lastAt === null) return { allowed: true };
  const nextAt = Math.min(lastAt, now) + DUMP_INTERVAL_MS;
  return now >= nextAt ? { allowed: true } : { allowed: false, nextAt };
}

/** Error kinds (lib/api/errors.ts) that mean no dump was served. */
const SERVED_NOTHING = new Set(['invalid-input', 'network', 'service', 'bad-key', 'server', 'unexpected']);

/**
 * Whether a failed request leaves the hour unused: no dump was served. A failure body (a deleted
 * day, a bad key) or a 5xx or 429 answer (the service's own rate limit among them) means the
 * service declined before sending any log; invalid input was refused before sending; a network
 * failure got no answer at all; an unexpected answer (an error status, a web page, JSON that is not a failure body) is refused
 * before the first line, so it was not the log. A timeout, a cancel or an unknown crash may have
 * followed a served dump.
 */
export function failureKeepsAllowance(error: unknown): boolean {
  return isApiError(error) && SERVED_NOTHING.has(error.kind);
}

export interface DumpGuardDeps {
  readLastAt(): Promise<number | null>;
  writeLastAt(at: number | null): Promise<void>;
  now?: () => number;
  /** Serialises check-and-claim across pages of the extension (Web Locks where available). */
  exclusive?: <T>(task: () => Promise<T>) => Promise<T>;
}

export function createDumpGuard(deps: DumpGuardDeps) {
  const now = deps.now ?? Date.now;
  const exclusive = deps.exclusive ?? (<T>(task: () => Promise<T>) => task());

  async function allowance(): Promise<DumpAllowance> {
    return dumpAllowance(await deps.readLastAt(), now());
  }

  /**
   * Runs `download` if the hour allows it, recording the request first (a crash mid-download must
   * not reopen the allowance). Throws an ApiError naming the next allowed time otherwise.
   * The record is taken back only when no dump was served (see failureKeepsAllowance).
   */
  async function run<T>(download: () => Promise<T>): Promise<T> {
    const previous = await exclusive(async () => {
      const lastAt = await deps.readLastAt();
      const verdict = dumpAllowance(lastAt, now());
      if (!verdict.allowed) {
        throw new ApiError(
          'invalid-input',
          t('logsSection.dumpOnceAnHour', { time: formatClock(verdict.nextAt) }),
        );
      }
      await deps.writeLastAt(now());
      return lastAt;
    });
    try {
      return await download();
    } catch (error) {
      if (failureKeepsAllowance(error)) await deps.writeLastAt(previous);
      throw error;
    }
  }

  return { allowance, run };
}

/**
 * `14:05` in the user's time zone; the day too when it is not today. Rounded up to the minute:
 * at the time shown the download is allowed.
 */
export function formatClock(at: number, now: number = Date.now()): string {
  const when = new Date(Math.ceil(at / 60_000) * 60_000);
  const time = `${String(when.getHours()).padStart(2, '0')}:${String(when.getMinutes()).padStart(2, '0')}`;
  return new Date(now).toDateString() === when.toDateString()
    ? time
    : `${when.getFullYear()}-${String(when.getMonth() + 1).padStart(2, '0')}-${String(when.getDate()).padStart(2, '0')} ${time}`;
}
