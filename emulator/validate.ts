/**
 * Input rules of the emulated service (docs/service-api.md). Each normaliser returns the canonical
 * value, or null when the input is refused.
 */

const PROFILE_NAME = /^[A-Za-z0-9]{4,64}$/;
const DOMAIN_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// Control characters (C0, DEL, C1) are what makes a label unprintable.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;

export function isProfileName(value: string): boolean {
  return PROFILE_NAME.test(value);
}

/** Lower case, one trailing dot dropped; at least two labels, LDH labels, at most 253 characters. */
export function normaliseDomain(raw: string): string | null {
  let domain = raw.trim().toLowerCase();
  if (domain.endsWith('.')) domain = domain.slice(0, -1);
  if (domain.length === 0 || domain.length > 253) return null;
  const labels = domain.split('.');
  if (labels.length < 2) return null;
  if (!labels.every((label) => DOMAIN_LABEL.test(label))) return null;
  // An all-digit last label would make IPv4 addresses pass as domains.
  if (/^\d+$/.test(labels[labels.length - 1]!)) return null;
  return domain;
}

/** A single top-level label written with its leading dot, e.g. `.xyz`. */
export function normaliseTld(raw: string): string | null {
  const tld = raw.trim().toLowerCase();
  if (!tld.startsWith('.')) return null;
  const label = tld.slice(1);
  if (!DOMAIN_LABEL.test(label) || /^\d+$/.test(label)) return null;
  return tld;
}

/** Dotted quad, each part 0-255 written without leading zeros. */
export function isIPv4(value: string): boolean {
  const parts = value.split('.');
  return (
    parts.length === 4 && parts.every((part) => /^(?:0|[1-9]\d{0,2})$/.test(part) && Number(part) <= 255)
  );
}

export function isDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** Trimmed; 1 to 64 characters, none of them a control character. */
export function normaliseLabel(raw: string): string | null {
  const label = raw.trim();
  if (label.length === 0 || [...label].length > 64 || CONTROL_CHARS.test(label)) return null;
  return label;
}

/** `yyyy-mm-dd` of the day `offset` days after `date`. */
export function addDays(date: string, offset: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + offset)).toISOString().slice(0, 10);
}

export function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}
