/**
 * The messages of a locale as the browser would serve them, read straight from locales/<locale>.yml
 * through @wxt-dev/i18n's own build step (the one that writes _locales/<locale>/messages.json).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateChromeMessages, type ParsedMessage, parseMessagesText } from '@wxt-dev/i18n/build';
import type { MessageLookup } from '@/lib/i18n';

export const LOCALES = ['en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];

const LOCALES_DIR = join(__dirname, '..', '..', '..', 'locales');

export function parsedMessages(locale: Locale): ParsedMessage[] {
  return parseMessagesText(readFileSync(join(LOCALES_DIR, `${locale}.yml`), 'utf8'), 'YAML');
}

/** A lookup like `browser.i18n.getMessage` for `locale`, falling back to English as the browser does. */
export function catalogueLookup(locale: Locale): MessageLookup {
  const own = generateChromeMessages(parsedMessages(locale));
  const fallback = locale === 'en' ? own : generateChromeMessages(parsedMessages('en'));
  return (name) => own[name]?.message ?? fallback[name]?.message ?? '';
}
