import { t, tn } from '@/lib/i18n';

/**
 * How long a fetched view of the lists counts as current. Five minutes, because:
 * - the resolvers apply a change only 30 to 45 minutes after it is made (docs/service-api.md), so a view
 *   up to five minutes old is never further behind than what the resolvers themselves enforce;
 * - changes made from this browser (popup, menu, shortcut) are applied to the view at once, so
 *   only edits made elsewhere (dashboard, another device) can be missed, and for five minutes at most;
 * - a person browsing opens the popup on site after site: within five minutes those openings cost
 *   no call to the service at all, and the popup answers from storage alone.
 */
export const FRESH_FOR_MS = 5 * 60 * 1000;

/** A timestamp in the future (clock moved back) is treated as stale rather than fresh forever. */
export function isFresh(fetchedAt: number, now: number): boolean {
  const age = now - fetchedAt;
  return age >= 0 && age < FRESH_FOR_MS;
}

/** "just now", "3 minutes ago", "2 hours ago", "on 2024-05-01": for the "checked ..." line. */
export function ageText(fetchedAt: number, now: number): string {
  const minutes = Math.floor((now - fetchedAt) / 60_000);
  if (minutes < 1) return t('freshness.justNow');
  if (minutes < 60) return tn('freshness.minutesAgo', minutes);
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return tn('freshness.hoursAgo', hours);
  return t('freshness.onDate', { date: localDate(new Date(fetchedAt)) });
}

/** `yyyy-mm-dd` of the user's calendar: the day the popup's "today" means. */
export function localDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
