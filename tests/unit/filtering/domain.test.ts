// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  hostnameFromUrl,
  isPublicSuffix,
  isValidDomain,
  normaliseDomainInput,
  registrableDomain,
  registrableDomainOrNull,
} from '@/lib/filtering/domain';

describe('normaliseDomainInput accepts what a user types or pastes', () => {
  it.each([
    ['example.com', 'example.com'],
    ['  Example.COM  ', 'example.com'],
    ['example.com.', 'example.com'],
    ['www.example.co.uk', 'www.example.co.uk'],
    ['https://www.example.com/path?q=1#top', 'www.example.com'],
    ['http://example.com:8080/', 'example.com'],
    ['example.com/some/page', 'example.com'],
    ['example.com:443', 'example.com'],
    ['ftp://files.example.org/x', 'files.example.org'],
    ['HTTPS://SHOP.Example.com', 'shop.example.com'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['https://münchen.de/stadt', 'xn--mnchen-3ya.de'],
    ['пример.рф', 'xn--e1afmkfd.xn--p1ai'],
    ['xn--bcher-kva.de', 'xn--bcher-kva.de'],
    ['r3---sn-abc.googlevideo.com', 'r3---sn-abc.googlevideo.com'],
    ['_dmarc.example.com', '_dmarc.example.com'],
    [`${'a'.repeat(63)}.com`, `${'a'.repeat(63)}.com`],
  ])('%j gives %j', (input, expected) => {
    expect(normaliseDomainInput(input)).toEqual({ ok: true, value: expected });
  });
});

describe('normaliseDomainInput refuses with a message the user can act on', () => {
  const longest = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
  it.each([
    ['', /enter a domain/i],
    ['   ', /enter a domain/i],
    ['*.example.com', /wildcard.*covers all its subdomains/i],
    ['.example.com', /wildcard/i],
    ['ex*ample.com', /wildcard/i],
    ['exa mple.com', /spaces/i],
    ['localhost', /full domain with a dot/i],
    ['intranet', /full domain with a dot/i],
    ['192.168.1.1', /not an ip address/i],
    ['http://10.0.0.1/admin', /not an ip address/i],
    ['[2001:db8::1]', /not an ip address/i],
    ['1.2.3', /not an ip address/i],
    ['example.123', /not a valid domain|not an ip address/i],
    ['a..b.com', /empty part/i],
    ['example.com..', /empty part/i],
    [`${'a'.repeat(64)}.com`, /at most 63/i],
    [`${longest}.e`, /at most 253/i],
    ['ex!ample.com', /only letters, digits, hyphens/i],
    ['-example.com', /start or end with a hyphen/i],
    ['example-.com', /start or end with a hyphen/i],
    ['https://', /no domain|not a valid domain/i],
    ['http://exa%20mple.com', /not a valid domain|only letters/i],
  ])('%j', (input, message) => {
    const result = normaliseDomainInput(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });

  it('accepts exactly 253 characters', () => {
    const domain = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
    expect(domain).toHaveLength(253);
    expect(normaliseDomainInput(domain)).toEqual({ ok: true, value: domain });
  });

  it('echoes at most a short part of a huge paste', () => {
    const result = normaliseDomainInput(`https://${'x'.repeat(5000)} y`);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message.length).toBeLessThan(200);
  });
});

describe('isValidDomain', () => {
  it.each([
    ['example.com', true],
    ['xn--bcher-kva.de', true],
    ['Example.com', false],
    ['example.com.', false],
    ['bücher.de', false],
    ['*.example.com', false],
    ['1.2.3.4', false],
    ['com', false],
  ])('%j is %j', (value, expected) => {
    expect(isValidDomain(value)).toBe(expected);
  });
});

describe('registrableDomain', () => {
  it.each([
    ['news.bbc.co.uk', 'bbc.co.uk'],
    ['bbc.co.uk', 'bbc.co.uk'],
    ['www.example.com', 'example.com'],
    ['a.b.c.example.com', 'example.com'],
    ['WWW.Example.COM.', 'example.com'],
    ['shop.xn--bcher-kva.de', 'xn--bcher-kva.de'],
    // Private suffixes count: one click must not cover every site of a hosting provider.
    ['alice.github.io', 'alice.github.io'],
    ['www.alice.github.io', 'alice.github.io'],
    // No answer from the list: the hostname itself.
    ['co.uk', 'co.uk'],
  ])('%j gives %j', (host, expected) => {
    expect(registrableDomain(host)).toBe(expected);
  });
});

describe('isPublicSuffix and registrableDomainOrNull', () => {
  it.each([
    // ICANN suffixes, a TLD, private suffixes (hosting providers), one with a wildcard rule.
    ['co.uk', true],
    ['CO.UK.', true],
    ['com', true],
    ['cloudfront.net', true],
    ['blogspot.com', true],
    ['github.io', true],
    ['foo.kawasaki.jp', true],
    // Registrable domains and hosts under a suffix.
    ['bbc.co.uk', false],
    ['d111.cloudfront.net', false],
    ['alice.github.io', false],
    ['city.kawasaki.jp', false],
    // Names the list does not know, and addresses: no suffix shared by many owners.
    ['localhost', false],
    ['printer', false],
    ['192.0.2.1', false],
  ])('%j: %s', (host, suffix) => {
    expect(isPublicSuffix(host)).toBe(suffix);
    expect(registrableDomainOrNull(host)).toBe(suffix ? null : registrableDomain(host));
  });
});

describe('hostnameFromUrl', () => {
  it.each([
    ['https://news.bbc.co.uk/sport', 'news.bbc.co.uk'],
    ['http://Example.COM:8080/x?y#z', 'example.com'],
    ['https://example.com./', 'example.com'],
    ['https://bücher.de/', 'xn--bcher-kva.de'],
    ['https://user:pw@example.org/', 'example.org'],
  ])('%j gives %j', (url, expected) => {
    expect(hostnameFromUrl(url)).toBe(expected);
  });

  it.each([
    'chrome://extensions/',
    'about:blank',
    'about:newtab',
    'file:///home/user/page.html',
    'moz-extension://abc/popup.html',
    'chrome-extension://abc/options.html',
    'view-source:https://example.com/',
    'data:text/html,hi',
    'https://192.168.1.1/admin',
    'http://[::1]:8080/',
    'http://[2001:db8::1]/',
    'http://localhost:3000/',
    'http://app.localhost/',
    'http://intranet/',
    'not a url',
    '',
  ])('%j has nothing to filter', (url) => {
    expect(hostnameFromUrl(url)).toBeNull();
  });
});
