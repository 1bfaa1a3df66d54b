/**
 * The theme setting's values: light or dark pages, or whatever the system uses. How a page
 * applies and follows the choice is lib/theme/theme.ts.
 */
export const THEME_CHOICES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEME_CHOICES)[number];

export const isThemeChoice = (value: unknown): value is Theme =>
  (THEME_CHOICES as readonly unknown[]).includes(value);
