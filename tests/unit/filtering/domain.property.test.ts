// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidDomain, normaliseDomainInput } from '@/lib/filtering/domain';

// An `xn--` label must be valid punycode; random ones are not, and are tested separately.
const label = fc
  .stringMatching(/^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,20}[a-zA-Z0-9])?$/)
  .filter((text) => !/^xn--/i.test(text));
const plausibleDomain = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 4 }), fc.stringMatching(/^[a-zA-Z]{2,6}$/))
  .map(([labels, tld]) => [...labels, tld].join('.'));
const pasted = fc
  .tuple(
    fc.constantFrom('', 'http://', 'https://', 'HTTPS://', 'ftp://', '  '),
    plausibleDomain,
    fc.constantFrom('', '.', '/', '/path?q=1', ':8080', '#x', '  '),
  )
  .map((parts) => parts.join(''));

// Everything a user might type: mostly domain-like text, some arbitrary Unicode.
const anyInput = fc.oneof(
  pasted,
  fc.string({ unit: 'grapheme', maxLength: 80 }),
  fc.string({ unit: fc.constantFrom(...'abc.-_*:/[]%@ éü1'.split('')), maxLength: 40 }),
  fc.webUrl(),
  fc.domain(),
);

describe('normaliseDomainInput properties', () => {
  it('never throws, and either gives a valid domain or a message', () => {
    fc.assert(
      fc.property(anyInput, (input) => {
        const result = normaliseDomainInput(input);
        if (result.ok) expect(isValidDomain(result.value)).toBe(true);
        else expect(result.message.length).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('is idempotent: a normalised domain normalises to itself', () => {
    fc.assert(
      fc.property(anyInput, (input) => {
        const first = normaliseDomainInput(input);
        if (first.ok) expect(normaliseDomainInput(first.value)).toEqual(first);
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts every plausible pasted domain or URL, in lower case', () => {
    fc.assert(
      fc.property(pasted, (input) => {
        const result = normaliseDomainInput(input);
        expect(result.ok).toBe(true);
        if (result.ok) expect(result.value).toBe(result.value.toLowerCase());
      }),
      { numRuns: 1000 },
    );
  });
});
