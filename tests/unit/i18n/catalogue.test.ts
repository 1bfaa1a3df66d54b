// @vitest-environment node
import type { ParsedMessage } from '@wxt-dev/i18n/build';
import { describe, expect, it } from 'vitest';
import { LOCALES, parsedMessages } from './catalogue';

/**
 * The catalogues are complete and consistent: every English message has a German one with the
 * same placeholders and plural shape, so no text falls back to English or shows a raw `{name}`.
 */
const name = (message: ParsedMessage) => message.key.join('.');
const byName = (locale: (typeof LOCALES)[number]) =>
  new Map(parsedMessages(locale).map((message) => [name(message), message]));
const texts = (message: ParsedMessage): string[] =>
  message.type === 'plural' ? Object.values(message.plurals) : [message.message];
const shape = (message: ParsedMessage) => ({
  type: message.type,
  placeholders: [
    ...new Set(texts(message).flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))),
  ]
    .sort()
    .join(' '),
  forms: message.type === 'plural' ? Object.keys(message.plurals).sort().join(' ') : '',
});

describe('message catalogues', () => {
  const english = byName('en');

  it.each(LOCALES.filter((locale) => locale !== 'en'))('%s has exactly the English messages', (locale) => {
    const other = byName(locale);
    expect([...other.keys()].filter((key) => !english.has(key))).toEqual([]);
    expect([...english.keys()].filter((key) => !other.has(key))).toEqual([]);
  });

  it.each(LOCALES.filter((locale) => locale !== 'en'))(
    '%s keeps every placeholder and plural form',
    (locale) => {
      const other = byName(locale);
      const differing = [...english]
        .filter(([key]) => other.has(key) && key !== 'locale')
        .filter(([key, message]) => JSON.stringify(shape(message)) !== JSON.stringify(shape(other.get(key)!)))
        .map(([key]) => key);
      expect(differing).toEqual([]);
    },
  );

  it.each(LOCALES)('%s uses no "$" (the browser reserves it) and has no empty message', (locale) => {
    for (const message of byName(locale).values()) {
      for (const text of texts(message)) {
        expect([name(message), text.includes('$')]).toEqual([name(message), false]);
        expect([name(message), text.trim().length > 0]).toEqual([name(message), true]);
      }
    }
  });

  it('English keeps every name of the UI contract', () => {
    const all = new Set([...english.values()].flatMap(texts));
    const contract = [
      'API key',
      'Base URL',
      'API form',
      'Save',
      'Test connection',
      'IP lookup URL',
      'Network label',
      'Register now',
      'Profiles',
      'Categories',
      'Top-level domains',
      'Default block',
      'Networks',
      'Dynamic IP',
      'Logs',
      'Day',
      'Load raw log',
      'Cancel',
      'Delete raw log',
      'Delete',
      'Profile',
      'Whitelist',
      'Blocklist',
      'Remove from whitelist',
      'Remove from blocklist',
      'Accounts',
      'Add account',
      'Account name',
      'Account',
      'Unbreak this page',
    ];
    expect(contract.filter((text) => !all.has(text))).toEqual([]);
    expect([...all].some((text) => text.startsWith('Failed hosts'))).toBe(true);
    expect([...all].some((text) => text.startsWith('Needed by this page'))).toBe(true);
  });
});
