// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  validateApiKey,
  validateBaseUrl,
  validateCategoryId,
  validateDate,
  validateIpv4,
  validateNetworkLabel,
  validateProfileName,
  validateProfileReference,
  validateTld,
} from '@/lib/validation';

type Case = [input: string, expected: string | { error: RegExp }];

function table(name: string, validate: (input: string) => ReturnType<typeof validateDate>, cases: Case[]) {
  describe(name, () => {
    it.each(cases)('%j', (input, expected) => {
      const result = validate(input);
      if (typeof expected === 'string') {
        expect(result).toEqual({ ok: true, value: expected });
      } else {
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.message).toMatch(expected.error);
      }
    });
  });
}

table('validateProfileName', validateProfileName, [
  ['kids', 'kids'],
  ['Kids2024', 'Kids2024'],
  ['  office  ', 'office'],
  ['a'.repeat(64), 'a'.repeat(64)],
  ['', { error: /enter a profile name/i }],
  ['   ', { error: /enter a profile name/i }],
  ['abc', { error: /at least 4/i }],
  ['a'.repeat(65), { error: /at most 64/i }],
  ['my kids', { error: /only letters and digits/i }],
  ['my-kids', { error: /only letters and digits/i }],
  ['Élise1', { error: /only letters and digits/i }],
  ['kids_1', { error: /only letters and digits/i }],
]);

table('validateProfileReference', validateProfileReference, [
  ['default', 'default'],
  ['made-in-dashboard', 'made-in-dashboard'],
  [' kids ', 'kids'],
  ['', { error: /choose a profile/i }],
  ['kids\nadult', { error: /not a profile name/i }],
]);

table('validateCategoryId', validateCategoryId, [
  ['category_adult', 'category_adult'],
  ['adult', 'adult'],
  ['category_new_from_provider', 'category_new_from_provider'],
  ['', { error: /choose a category/i }],
  ['two words', { error: /not a category/i }],
]);

table('validateTld', validateTld, [
  ['.xyz', '.xyz'],
  ['xyz', '.xyz'],
  ['.XYZ', '.xyz'],
  [' .top ', '.top'],
  ['.рф', '.xn--p1ai'],
  ['xn--p1ai', '.xn--p1ai'],
  ['.xyz.', '.xyz'],
  ['', { error: /enter a top-level domain/i }],
  ['.', { error: /not a top-level domain/i }],
  ['example.com', { error: /one top-level domain/i }],
  ['.co.uk', { error: /one top-level domain/i }],
  ['*.xyz', { error: /wildcard/i }],
  ['.x', { error: /not a top-level domain/i }],
  ['.123', { error: /not a top-level domain/i }],
  ['.x_y', { error: /not a top-level domain/i }],
]);

table('validateIpv4', validateIpv4, [
  ['203.0.113.50', '203.0.113.50'],
  ['0.0.0.0', '0.0.0.0'],
  ['255.255.255.255', '255.255.255.255'],
  [' 10.0.0.1 ', '10.0.0.1'],
  ['', { error: /enter an ipv4 address/i }],
  ['256.1.1.1', { error: /not an ipv4 address/i }],
  ['1.2.3', { error: /not an ipv4 address/i }],
  ['1.2.3.4.5', { error: /not an ipv4 address/i }],
  ['01.2.3.4', { error: /leading zeros/i }],
  ['1.2.3.04', { error: /not an ipv4 address/i }],
  ['1.2.3.4/24', { error: /not an ipv4 address/i }],
  ['example.com', { error: /not an ipv4 address/i }],
  ['2001:db8::1', { error: /only ipv4/i }],
  ['::ffff:1.2.3.4', { error: /only ipv4/i }],
]);

table('validateDate', validateDate, [
  ['2024-05-31', '2024-05-31'],
  ['2024-02-29', '2024-02-29'],
  [' 2024-01-01 ', '2024-01-01'],
  ['2023-02-29', { error: /not a real date/i }],
  ['2024-13-01', { error: /not a real date/i }],
  ['2024-04-31', { error: /not a real date/i }],
  ['2024-00-10', { error: /not a real date/i }],
  ['2024-5-31', { error: /yyyy-mm-dd/i }],
  ['31/05/2024', { error: /yyyy-mm-dd/i }],
  ['2024-05-31T00:00', { error: /yyyy-mm-dd/i }],
  ['', { error: /yyyy-mm-dd/i }],
]);

table('validateNetworkLabel', validateNetworkLabel, [
  ['Home Network', 'Home Network'],
  ['  Office  ', 'Office'],
  ['Café ☕', 'Café ☕'],
  ['x'.repeat(64), 'x'.repeat(64)],
  // 64 characters, each two UTF-16 code units: the limit counts characters.
  ['😀'.repeat(64), '😀'.repeat(64)],
  ['', { error: /enter a label/i }],
  ['   ', { error: /enter a label/i }],
  ['x'.repeat(65), { error: /at most 64/i }],
  ['Home\nNetwork', { error: /control characters/i }],
  ['Home\tNetwork', { error: /control characters/i }],
  ['Home\u0000', { error: /control characters/i }],
  ['Home\u2028Office', { error: /control characters/i }],
]);

table('validateApiKey', validateApiKey, [
  ['abc123DEF', 'abc123DEF'],
  ['  abc123\n', 'abc123'],
  ['', { error: /enter the api key/i }],
  ['abc 123', { error: /spaces/i }],
  ['a'.repeat(513), { error: /too long/i }],
]);

table('validateBaseUrl', validateBaseUrl, [
  ['https://my.cleanbrowsing.org', 'https://my.cleanbrowsing.org'],
  ['https://my.cleanbrowsing.org/', 'https://my.cleanbrowsing.org'],
  ['https://my.cleanbrowsing.org/api/v1/?apikey=x&action=y', 'https://my.cleanbrowsing.org'],
  ['HTTPS://My.CleanBrowsing.org:8443/api', 'https://my.cleanbrowsing.org:8443'],
  ['my.cleanbrowsing.org', 'https://my.cleanbrowsing.org'],
  ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
  ['http://127.10.20.30:9', 'http://127.10.20.30:9'],
  ['http://localhost:3000/api', 'http://localhost:3000'],
  ['http://[::1]:8080/', 'http://[::1]:8080'],
  ['', { error: /enter the base url/i }],
  ['http://my.cleanbrowsing.org', { error: /https:\/\/.*only for this computer/i }],
  ['http://192.168.1.10', { error: /only for this computer/i }],
  ['http://localhost.example.com', { error: /only for this computer/i }],
  ['ftp://my.cleanbrowsing.org', { error: /must start with https/i }],
  ['javascript:alert(1)', { error: /must start with https|not a url/i }],
  ['https://user:pass@my.cleanbrowsing.org', { error: /user name or password/i }],
  ['https://', { error: /not a url/i }],
  ['https://exa mple.com', { error: /not a url/i }],
]);
