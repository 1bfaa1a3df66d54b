/**
 * The theme setting's values: light or dark pages, or whatever the system uses. How a page
 * applies and follows the choice is lib/theme/theme.ts.
 */
import * as z from 'zod/mini';

export const THEME_CHOICES = ['system', 'light', 'dark'] as const;
export const themeSchema = z.enum(THEME_CHOICES);
export type Theme = z.infer<typeof themeSchema>;
