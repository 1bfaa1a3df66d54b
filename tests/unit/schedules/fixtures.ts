import type { OwnedThing, ScheduleRule, Weekday } from '@/lib/schedules/schema';

export const SCHOOL_NIGHTS: Weekday[] = [1, 2, 3, 4, 7];

export const gamesBlocked: OwnedThing = {
  kind: 'category',
  category: 'category_gaming',
  inside: true,
  outside: false,
};

export function rule(overrides: Partial<ScheduleRule> = {}): ScheduleRule {
  return {
    id: 'homework',
    name: 'Homework time',
    days: SCHOOL_NIGHTS,
    windows: [{ start: '18:00', end: '20:00' }],
    owns: [gamesBlocked],
    ...overrides,
  };
}

/**
 * `at` in the test's own zone on the English catalogue's clock, written out by hand ("6:00 PM",
 * "11:29 AM"): the schedules' times follow the language's clock (docs/schedules.md).
 */
export function englishClock(at: number): string {
  const date = new Date(at);
  const hours = date.getHours();
  return `${hours % 12 || 12}:${String(date.getMinutes()).padStart(2, '0')} ${hours < 12 ? 'AM' : 'PM'}`;
}

/** Any time on the English catalogue's clock. */
export const ENGLISH_CLOCK = /\d{1,2}:\d\d\s[AP]M/;

/** ICU separates "PM" with a narrow no-break space in some versions, a plain one in others. */
export const spaced = (text: string | null): string => (text ?? '').replace(/\s/g, ' ');
