/**
 * How blocking a top-level domain is confirmed. The API can block a TLD but never unblock one
 * (docs/service-api.md), so every block is confirmed; for the TLDs whose block would take down a
 * large part of the web for this user, the user types the TLD, so a reflex click on "Block"
 * cannot do it. Pure.
 */
import { validateTld } from '@/lib/validation';

/** The generic TLDs holding most of the web. */
const LARGEST_GENERIC_TLDS: readonly string[] = ['.com', '.net', '.org'];

/** Regions whose country-code TLD is not their ISO 3166 code in lower case. */
const REGION_TLD_EXCEPTIONS: Readonly<Record<string, string>> = { gb: '.uk' };

/** The country-code TLD of a locale's region (`de-DE` → `.de`, `en-GB` → `.uk`), or null without one. */
export function countryTldOfLocale(locale: string): string | null {
  let region: string | undefined;
  try {
    region = new Intl.Locale(locale).region;
  } catch {
    return null;
  }
  if (region === undefined || !/^[A-Z]{2}$/.test(region)) return null;
  const code = region.toLowerCase();
  return REGION_TLD_EXCEPTIONS[code] ?? `.${code}`;
}

/**
 * Whether blocking `tld` (normalised, `.com`) asks the user to type it: the largest generic TLDs
 * and the country code of the browser's locale (`navigator.language`), where most of the sites
 * this user visits are likely to be.
 */
export function needsTypedConfirmation(tld: string, browserLocale: string): boolean {
  return LARGEST_GENERIC_TLDS.includes(tld) || countryTldOfLocale(browserLocale) === tld;
}

/** Whether what the user typed names `tld`: with or without its dot, in any case, as Unicode or punycode. */
export function typedTldMatches(typed: string, tld: string): boolean {
  const checked = validateTld(typed);
  return checked.ok && checked.value === tld;
}
