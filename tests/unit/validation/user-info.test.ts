// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateLookupUrl } from '@/lib/network/settings-form';
import { hasUserInfo, normaliseDomainInput, validateBaseUrl, validateTld } from '@/lib/validation';

describe('an address with user information (an @ before the host) is refused, never read as its host', () => {
  it.each([
    'example.com@evil.com',
    'https://example.com@evil.com/',
    'http://user:pass@evil.com',
    'user:pass@evil.com',
    '@evil.com',
    'https://@evil.com',
    'https://:@evil.com',
    'example.com:443@evil.com',
    'https:\\\\example.com@evil.com',
    'https:example.com@evil.com',
  ])('domain %j', (input) => {
    const result = normaliseDomainInput(input);
    expect(result).toEqual({ ok: false, message: expect.stringContaining('contains “@”') });
    expect(!result.ok && result.message).toContain('Type only the domain');
  });

  it.each([
    'https://@my.cleanbrowsing.org',
    'https://:@my.cleanbrowsing.org',
    'my.cleanbrowsing.org@evil.com',
  ])('base URL %j', (input) => {
    expect(validateBaseUrl(input)).toEqual({
      ok: false,
      message: expect.stringMatching(/user name or password/),
    });
  });

  it.each(['https://@ip.example/', 'https://ip.example@evil.example/'])('IP lookup URL %j', (input) => {
    expect(validateLookupUrl(input)).toEqual({
      ok: false,
      message: expect.stringMatching(/user name or password/),
    });
  });

  it.each(['com@evil', '.com@evil', 'com/evil', 'com:80'])('top-level domain %j', (input) => {
    expect(validateTld(input)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not a top-level domain/),
    });
  });

  it('an @ in a path, query or fragment is no user information', () => {
    expect(normaliseDomainInput('https://example.com/users/@alice')).toEqual({
      ok: true,
      value: 'example.com',
    });
    expect(normaliseDomainInput('example.com/?mail=a@b.example')).toEqual({ ok: true, value: 'example.com' });
    expect(normaliseDomainInput('example.com#@x')).toEqual({ ok: true, value: 'example.com' });
    expect(validateBaseUrl('https://my.cleanbrowsing.org/a@b')).toEqual({
      ok: true,
      value: 'https://my.cleanbrowsing.org',
    });
  });

  it('whatever surrounds it, a domain typed with user information never gives the host after the @', () => {
    const label = fc.stringMatching(/^[a-z0-9]{1,10}$/);
    const host = fc.tuple(label, label).map(([name, tld]) => `${name}.${tld}x`);
    fc.assert(
      fc.property(
        fc.constantFrom('', 'http://', 'https://', 'HTTPS://', 'ftp://', '//'),
        fc.string({ maxLength: 12 }).filter((text) => !/[/\\?#\s]/.test(text)),
        host,
        fc.constantFrom('', '/', '/path', ':8080', '?q=1'),
        (scheme, userInfo, evil, rest) => {
          const typed = `${scheme}${userInfo}@${evil}${rest}`;
          expect(hasUserInfo(typed)).toBe(true);
          expect(normaliseDomainInput(typed).ok).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });
});
