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
