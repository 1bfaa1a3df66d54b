/**
 * Wall time in a time zone, with nothing but Intl.DateTimeFormat (no Temporal, no library): the
 * offset of a zone at an instant, and the instant of a local date and time. A window starts when the
 * clock first shows its start and ends when it last shows its end: the hour skipped in spring
 * starts and ends at the jump, the hour repeated in autumn is inside as long as the clock shows it
 * (docs/schedules.md, "Daylight saving").
 */

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const BLOCK_MS = 6 * 60 * MINUTE_MS;

/** A calendar date, counted in days since 1970-01-01: plain arithmetic, no time zone in it. */
export type DayNumber = number;

/** The user's time zone, as the browser has it. */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

export interface Zone {
  readonly timeZone: string;
  /** The local date and minute (after local midnight) at `instant`. */
  localAt(instant: number): { day: DayNumber; minute: number };
  /**
   * The instant at which the local clock shows `minute` of `day`: of a time shown twice (the
   * repeated hour), the first (`earliest`) or the second (`latest`) time; of a time never shown
   * (the skipped hour), the instant the clock jumps over it.
   */
  instantOf(day: DayNumber, minute: number, which: 'earliest' | 'latest'): number;
}

/** ISO weekday (1 Monday … 7 Sunday) of a day number. */
export function weekdayOf(day: DayNumber): number {
  // 1970-01-01 was a Thursday (4).
  return ((((day + 3) % 7) + 7) % 7) + 1;
}

/** The first instant of a new offset, searched to the minute between two instants around it. */
function firstOfNewOffset(
  lowInstant: number,
  highInstant: number,
  offset: (instant: number) => number,
): number {
  let low = Math.floor(Math.min(lowInstant, highInstant) / MINUTE_MS);
  let high = Math.ceil(Math.max(lowInstant, highInstant) / MINUTE_MS);
  const first = offset(low * MINUTE_MS);
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (offset(middle * MINUTE_MS) === first) low = middle;
    else high = middle;
  }
  return high * MINUTE_MS;
}

/**
 * A zone for one evaluation: it remembers what it worked out, so a thousand rules with the same
 * window edges cost one conversion each. Throws a RangeError for a zone the browser does not know.
 */
export function createZone(timeZone: string): Zone {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  });
  const blocks = new Map<number, { first: number; last: number; jump: number }>();
  const instants = new Map<number, number>();

  /** Wall-clock milliseconds (as if UTC) at `instant`, to the minute. */
  function wallAt(instant: number): number {
    const parts: Record<string, number> = {};
    for (const part of format.formatToParts(instant)) {
      if (part.type !== 'literal') parts[part.type] = Number(part.value);
    }
    return Date.UTC(
      parts.year ?? 1970,
      (parts.month ?? 1) - 1,
      parts.day ?? 1,
      parts.hour ?? 0,
      parts.minute ?? 0,
    );
  }

  /** Offset in minutes (local minus UTC) at `instant`, asked of Intl. */
  function offsetAsked(instant: number): number {
    const minute = Math.floor(instant / MINUTE_MS) * MINUTE_MS;
    return Math.round((wallAt(minute) - minute) / MINUTE_MS);
  }

  /**
   * The offset through a block of six hours: its offset at the start and at the end, and where it
   * changes between (to the minute). Zones change offset at most once in far more than six hours,
   * so a few Intl calls a day answer every instant (an evaluation asks about thousands).
   */
  function blockAt(instant: number): { first: number; last: number; jump: number } {
    const index = Math.floor(instant / BLOCK_MS);
    const known = blocks.get(index);
    if (known) return known;
    const start = index * BLOCK_MS;
    const first = offsetAsked(start);
    const last = offsetAsked(start + BLOCK_MS);
    const jump =
      first === last ? Number.POSITIVE_INFINITY : firstOfNewOffset(start, start + BLOCK_MS, offsetAsked);
    const block = { first, last, jump };
    blocks.set(index, block);
    return block;
  }

  /** Offset in minutes (local minus UTC) at `instant`; zones change offset on whole minutes. */
  function offsetAt(instant: number): number {
    const block = blockAt(instant);
    return instant < block.jump ? block.first : block.last;
  }

  return {
    timeZone,
    localAt(instant) {
      const wall = instant + offsetAt(instant) * MINUTE_MS;
      const day = Math.floor(wall / DAY_MS);
      return { day, minute: Math.floor((wall - day * DAY_MS) / MINUTE_MS) };
    },
    instantOf(day, minute, which) {
      const wall = day * DAY_MS + minute * MINUTE_MS;
      const memo = which === 'earliest' ? wall : -wall - 1;
      const known = instants.get(memo);
      if (known !== undefined) return known;
      // The offsets a day either side: every zone's transitions are further apart than that.
      const before = offsetAt(wall - DAY_MS);
      const after = offsetAt(wall + DAY_MS);
      const candidates = [...new Set([before, after])]
        .map((offset) => wall - offset * MINUTE_MS)
        .filter((instant) => instant + offsetAt(instant) * MINUTE_MS === wall)
        .sort((a, b) => a - b);
      const instant =
        (which === 'earliest' ? candidates[0] : candidates[candidates.length - 1]) ??
        firstOfNewOffset(wall - after * MINUTE_MS, wall - before * MINUTE_MS, offsetAt);
      instants.set(memo, instant);
      return instant;
    },
  };
}
