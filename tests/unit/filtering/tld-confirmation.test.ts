// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  countryTldOfLocale,
  needsTypedConfirmation,
  typedTldMatches,
} from '@/lib/filtering/tld-confirmation';

describe('which TLD blocks are confirmed by typing the TLD', () => {
  it.each([
    ['.com', 'en', true],
    ['.net', 'en-US', true],
    ['.org', 'de-DE', true],
    ['.de', 'de-DE', true],
    ['.de', 'de', false],
    ['.de', 'en-US', false],
    ['.us', 'en-US', true],
    ['.uk', 'en-GB', true],
    ['.xyz', 'en-US', false],
    ['.at', 'de-AT', true],
    ['.es', 'es-419', false],
    ['.com', '', true],
    ['.de', 'not a locale!', false],
  ])('%s with the browser in %j: typed = %s', (tld, locale, typed) => {
    expect(needsTypedConfirmation(tld, locale)).toBe(typed);
  });

  it.each([
    ['pt-BR', '.br'],
    ['en-GB', '.uk'],
    ['zh-Hant-TW', '.tw'],
    ['fr', null],
    ['es-419', null],
  ])('the country TLD of %s is %s', (locale, tld) => {
    expect(countryTldOfLocale(locale)).toBe(tld);
  });

  it.each([
    ['.com', '.com', true],
    ['com', '.com', true],
    [' .COM ', '.com', true],
    ['.рф', '.xn--p1ai', true],
    ['.co', '.com', false],
    ['.com.', '.com', true],
    ['', '.com', false],
    ['example.com', '.com', false],
  ])('typing %j confirms %s: %s', (typed, tld, matches) => {
    expect(typedTldMatches(typed, tld)).toBe(matches);
  });
});
