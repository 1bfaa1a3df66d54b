/**
 * Summaries of one day's statistics (`logs/getstats`) for the charts and tables of the Logs
 * section. Pure functions, one pass over the hourly maps (a day can hold 120,000 counts per list).
 */
import type { DayStats } from '@/lib/api/types';
import { formatDay, formatNumber, t } from '@/lib/i18n';
import { stripTrailingDot } from './parse-line';

export interface Ranked {
  key: string;
  count: number;
}

export interface DaySummary {
  /** Queries per hour of the day (index 0-23). */
  allowedByHour: number[];
  blockedByHour: number[];
  totals: { allowed: number; blocked: number };
  /** Queries whose hour key could not be read: counted in the totals, not in any hour. */
  unplaced: { allowed: number; blocked: number };
  /** Largest first; ties by name so the order is stable. Unknown identifiers are kept as they are. */
  blocksByCategory: Ranked[];
  requestTypes: Ranked[];
  clientIps: Ranked[];
  /** Keyed without the trailing dot, lower case; `example.com.` and `Example.com` add up. */
  allowedDomains: Ranked[];
  blockedDomains: Ranked[];
}

const HOUR_AT_END = /(?:^|[\sT])(\d{1,2})(?::\d{2}){0,2}\s*$/;

/** The hour (0-23) of a key like `2024-05-01 14:00`, `14:00` or `14`, or -1. */
export function hourOfKey(key: string): number {
  const m = HOUR_AT_END.exec(key);
  if (m === null) return -1;
  const hour = Number(m[1]);
  return hour <= 23 ? hour : -1;
}

/** A count as the service sent it, or 0 for anything that is not a finite non-negative number. */
function countOf(value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(n) && n > 0 ? n : 0;
}

function addAll(into: Map<string, number>, counts: unknown, keyOf: (key: string) => string): number {
  if (counts === null || typeof counts !== 'object') return 0;
  let sum = 0;
  for (const key in counts) {
    const n = countOf((counts as Record<string, unknown>)[key]);
    if (n === 0) continue;
    const k = keyOf(key);
    into.set(k, (into.get(k) ?? 0) + n);
    sum += n;
  }
  return sum;
}

const asIs = (key: string) => key;
const domainKey = (key: string) => stripTrailingDot(key.trim().toLowerCase());

export function rank(counts: Map<string, number>): Ranked[] {
  return Array.from(counts, ([key, count]) => ({ key, count })).sort(
    (a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
}

export function summariseDay(stats: Partial<DayStats>): DaySummary {
  const allowedByHour = new Array<number>(24).fill(0);
  const blockedByHour = new Array<number>(24).fill(0);
  const unplaced = { allowed: 0, blocked: 0 };
  const place = (hourKey: string, allowed: number, blocked: number) => {
    const hour = hourOfKey(hourKey);
    if (hour < 0) {
      unplaced.allowed += allowed;
      unplaced.blocked += blocked;
    } else {
      allowedByHour[hour] = (allowedByHour[hour] ?? 0) + allowed;
      blockedByHour[hour] = (blockedByHour[hour] ?? 0) + blocked;
    }
  };

  const allowedDomains = new Map<string, number>();
  const blockedDomains = new Map<string, number>();
  const domainSums = new Map<string, { allowed: number; blocked: number }>();
  for (const [hourKey, lists] of Object.entries(stats.domains ?? {})) {
    if (lists === null || typeof lists !== 'object') continue;
    domainSums.set(hourKey, {
      allowed: addAll(allowedDomains, lists.Allowed, domainKey),
      blocked: addAll(blockedDomains, lists.Blocked, domainKey),
    });
  }

  // The hourly chart follows `action`; an hour the service left out of it falls back to the sum
  // of that hour's domain counts, so a partial answer still draws every hour it knows.
  const actions = stats.action ?? {};
  for (const [hourKey, counts] of Object.entries(actions)) {
    if (counts === null || typeof counts !== 'object') continue;
    place(hourKey, countOf(counts.Allowed), countOf(counts.Blocked));
  }
  for (const [hourKey, sums] of domainSums) {
    if (!Object.hasOwn(actions, hourKey)) place(hourKey, sums.allowed, sums.blocked);
  }

  const categories = new Map<string, number>();
  for (const counts of Object.values(stats.blocks ?? {})) addAll(categories, counts, asIs);
  const requestTypes = new Map<string, number>();
  for (const counts of Object.values(stats.reqtypes ?? {}))
    addAll(requestTypes, counts, (k) => k.toUpperCase());
  const clientIps = new Map<string, number>();
  for (const counts of Object.values(stats.ips ?? {})) addAll(clientIps, counts, asIs);

  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  return {
    allowedByHour,
    blockedByHour,
    totals: {
      allowed: sum(allowedByHour) + unplaced.allowed,
      blocked: sum(blockedByHour) + unplaced.blocked,
    },
    unplaced,
    blocksByCategory: rank(categories),
    requestTypes: rank(requestTypes),
    clientIps: rank(clientIps),
    allowedDomains: rank(allowedDomains),
    blockedDomains: rank(blockedDomains),
  };
}

/** The first `limit` entries whose key contains `filter` (case-insensitive), and how many match in all. */
export function filterRanked(
  entries: readonly Ranked[],
  filter: string,
  limit: number,
): { shown: Ranked[]; matching: number } {
  const needle = filter.trim().toLowerCase();
  if (needle === '') return { shown: entries.slice(0, limit), matching: entries.length };
  const shown: Ranked[] = [];
  let matching = 0;
  for (const entry of entries) {
    if (!entry.key.toLowerCase().includes(needle)) continue;
    matching++;
    if (shown.length < limit) shown.push(entry);
  }
  return { shown, matching };
}

/** The words for the hourly chart's accessible name: the totals a sighted user reads off the bars. */
export function hourlyChartLabel(date: string, summary: DaySummary): string {
  const { allowed, blocked } = summary.totals;
  const busiest = summary.allowedByHour
    .map((a, hour) => ({ hour, total: a + (summary.blockedByHour[hour] ?? 0) }))
    .reduce((best, h) => (h.total > best.total ? h : best), { hour: -1, total: 0 });
  const peak =
    busiest.hour >= 0
      ? ` ${t('dayStats.busiestHour', { hour: String(busiest.hour).padStart(2, '0'), count: formatNumber(busiest.total) })}`
      : '';
  return `${t('dayStats.hourlyLabel', { date: formatDay(date), allowed: formatNumber(allowed), blocked: formatNumber(blocked) })}${peak}`;
}
