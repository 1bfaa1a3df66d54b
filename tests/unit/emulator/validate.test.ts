// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  addDays,
  isDate,
  isIPv4,
  isProfileName,
  normaliseDomain,
  normaliseLabel,
  normaliseTld,
} from '../../../emulator/validate.ts';

describe('normaliseDomain', () => {
  it.each([
    ['example.com', 'example.com'],
    ['  WWW.Example.COM.  ', 'www.example.com'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['a-b.c-d.co.uk', 'a-b.c-d.co.uk'],
    [`${'a'.repeat(63)}.com`, `${'a'.repeat(63)}.com`],
    ['com', null],
    ['', null],
    ['example..com', null],
    ['-example.com', null],
    ['example-.com', null],
    ['*.example.com', null],
    ['http://example.com', null],
    ['example.com/path', null],
    ['under_score.example', null],
    ['bücher.example', null],
    ['10.0.0.1', null],
    [`${'a'.repeat(64)}.com`, null],
    [`${'abcdefghi.'.repeat(26)}com`, null],
  ])('%j -> %j', (input, expected) => {
    expect(normaliseDomain(input)).toBe(expected);
  });
});

describe('normaliseTld', () => {
  it.each([
    ['.xyz', '.xyz'],
    ['.XYZ', '.xyz'],
    ['.xn--p1ai', '.xn--p1ai'],
    ['xyz', null],
    ['.', null],
    ['.co.uk', null],
    ['.123', null],
  ])('%j -> %j', (input, expected) => {
    expect(normaliseTld(input)).toBe(expected);
  });
});

describe('isIPv4', () => {
  it.each([
    ['203.0.113.7', true],
    ['0.0.0.0', true],
    ['255.255.255.255', true],
    ['256.0.0.1', false],
    ['1.2.3', false],
    ['1.2.3.4.5', false],
    ['01.2.3.4', false],
    ['1.2.3.4 ', false],
    ['2001:db8::1', false],
    ['', false],
  ])('%j -> %j', (input, expected) => {
    expect(isIPv4(input)).toBe(expected);
  });
});

describe('isProfileName', () => {
  it.each([
    ['kids1', true],
    ['ABCD', true],
    ['a'.repeat(64), true],
    ['abc', false],
    ['a'.repeat(65), false],
    ['kids 1', false],
    ['kids_1', false],
    ['küche', false],
  ])('%j -> %j', (input, expected) => {
    expect(isProfileName(input)).toBe(expected);
  });
});

describe('isDate', () => {
  it.each([
    ['2026-11-22', true],
    ['2024-02-29', true],
    ['2026-02-29', false],
    ['2026-13-01', false],
    ['2026-1-01', false],
    ['22-11-2026', false],
  ])('%j -> %j', (input, expected) => {
    expect(isDate(input)).toBe(expected);
  });
});

describe('normaliseLabel', () => {
  it.each([
    ['  Home Network ', 'Home Network'],
    ['Café ☕', 'Café ☕'],
    ['x'.repeat(64), 'x'.repeat(64)],
    ['x'.repeat(65), null],
    ['   ', null],
    ['line\nbreak', null],
    ['nul\u0000', null],
    ['c1\u0085', null],
  ])('%j -> %j', (input, expected) => {
    expect(normaliseLabel(input)).toBe(expected);
  });
});

describe('addDays', () => {
  it.each([
    ['2026-11-22', -6, '2026-11-16'],
    ['2026-03-01', -1, '2026-02-28'],
    ['2026-12-31', 1, '2027-01-01'],
  ])('%s %i -> %s', (date, offset, expected) => {
    expect(addDays(date, offset)).toBe(expected);
  });
});
