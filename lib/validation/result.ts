import { t } from '@/lib/i18n';

/** Outcome of checking user input: the normalised value, or a message the user can act on. */
export type Validation<T = string> = { ok: true; value: T } | { ok: false; message: string };

export const valid = <T>(value: T): Validation<T> => ({ ok: true, value });
export const invalid = (message: string): { ok: false; message: string } => ({ ok: false, message });

/** Echoes user input inside a message without letting a huge paste flood the UI. */
export function quoteInput(input: string, max = 60): string {
  const shown = input.length > max ? `${input.slice(0, max - 1)}…` : input;
  return t('validation.quoted', { text: shown });
}
