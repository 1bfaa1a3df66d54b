import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stripTrailingDot } from '@/lib/logs/parse-line';
import { formatLogLine, type ParsedLogLine, parseLogLine } from './log-line';

const sample =
  '2024-05-01 14:05:09 87 pass-through: blocked: 192.168.1.20: 51234: ads.example.net. (185.228.168.168)';

describe('parseLogLine', () => {
  it('splits a line of the documented format into its fields', () => {
    expect(parseLogLine(sample)).toEqual({
      date: '2024-05-01',
      time: '14:05:09',
      sequence: 87,
      action: 'blocked',
      clientIp: '192.168.1.20',
      clientNumber: 51234,
      domain: 'ads.example.net',
      resolver: '185.228.168.168',
    });
  });

  it.each([
    [
      'no space between client IP and number',
      '2024-05-01 00:00:00 1 pass-through: allowed: 10.0.0.1:53: a.example. (9.9.9.9)',
      { clientIp: '10.0.0.1', clientNumber: 53, domain: 'a.example' },
    ],
    [
      'IPv6 client',
      '2024-05-01 00:00:00 1 pass-through: allowed: 2001:db8::1: 7: a.example. (9.9.9.9)',
      { clientIp: '2001:db8::1', clientNumber: 7 },
    ],
    [
      'IPv6 client without space',
      '2024-05-01 00:00:00 1 pass-through: allowed: 2001:db8::1:7: a.example. (9.9.9.9)',
      { clientIp: '2001:db8::1', clientNumber: 7 },
    ],
    [
      'capitalised action',
      '2024-05-01 00:00:00 1 pass-through: Blocked: 10.0.0.1: 5: a.example. (9.9.9.9)',
      { action: 'blocked' },
    ],
    [
      'domain without trailing dot',
      '2024-05-01 00:00:00 1 pass-through: allowed: 10.0.0.1: 5: a.example (9.9.9.9)',
      { domain: 'a.example' },
    ],
    ['root domain', '2024-05-01 00:00:00 1 pass-through: allowed: 10.0.0.1: 5: . (9.9.9.9)', { domain: '.' }],
    [
      'extra spaces and a CR line end',
      '2024-05-01  23:59:59   1 pass-through:  allowed:  10.0.0.1:  5:  a.example.  (9.9.9.9)\r',
      { time: '23:59:59' },
    ],
    [
      'empty resolver',
      '2024-05-01 00:00:00 1 pass-through: allowed: 10.0.0.1: 5: a.example. ()',
      { resolver: '' },
    ],
    [
      'leap second',
      '2024-05-01 23:59:60 1 pass-through: allowed: 10.0.0.1: 5: a.example. (9.9.9.9)',
      { time: '23:59:60' },
    ],
    [
      '29 February of a leap year',
      '2024-02-29 00:00:00 1 pass-through: allowed: 10.0.0.1: 5: a.example. (9.9.9.9)',
      { date: '2024-02-29' },
    ],
  ])('accepts %s', (_name, line, expected) => {
    expect(parseLogLine(line)).toMatchObject(expected);
  });

  it.each([
    ['empty line', ''],
    ['a JSON failure body', '{"status":"failed","reason":"Raw log deleted"}'],
    ['an HTML page', '<html><body>Bad gateway</body></html>'],
    ['hour 24', '2024-05-01 24:00:00 1 pass-through: allowed: 10.0.0.1: 5: a.example. (9.9.9.9)'],
    ['minute 60', '2024-05-01 10:60:00 1 pass-through: allowed: 10.0.0.1: 5: a.example. (9.9.9.9)'],
    ['month 13', '2024-13-01 10:00:00 1 pass-through: allowed: 10.0.0.1: 5: a.example. (9.9.9.9)'],
    ['31 April', '2024-04-31 10:00:00 1 pass-through: allowed: 10.0.0.1: 5: a.example. (9.9.9.9)'],
    [
      '29 February of a common year',
      '2023-02-29 10:00:00 1 pass-through: allowed: 10.0.0.1: 5: a.example. (9.9.9.9)',
    ],
    [
      'an unknown action',
      '2024-05-01 10:00:00 1 pass-through: redirected: 10.0.0.1: 5: a.example. (9.9.9.9)',
    ],
    ['a missing resolver', '2024-05-01 10:00:00 1 pass-through: allowed: 10.0.0.1: 5: a.example.'],
    ['a cut-off line', '2024-05-01 10:00:00 1 pass-through: allowed: 10.0'],
    [
      'a non-numeric sequence',
      '2024-05-01 10:00:00 x pass-through: allowed: 10.0.0.1: 5: a.example. (9.9.9.9)',
    ],
    [
      'an absurdly long line',
      `2024-05-01 10:00:00 1 pass-through: allowed: 10.0.0.1: 5: ${'a'.repeat(5000)}. (9.9.9.9)`,
    ],
  ])('refuses %s', (_name, line) => {
    expect(parseLogLine(line)).toBeNull();
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const result = parseLogLine(text);
        expect(result === null || typeof result.domain === 'string').toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws on near-miss lines (a valid line with random damage)', () => {
    fc.assert(
      fc.property(
        fc.nat(sample.length),
        fc.nat(sample.length),
        fc.string({ maxLength: 5 }),
        (at, length, insert) => {
          const damaged = sample.slice(0, at) + insert + sample.slice(at + (length % 6));
          const result = parseLogLine(damaged);
          expect(result === null || result.date.length === 10).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?$/);
  const ipv4 = fc.ipV4();
  const validLine: fc.Arbitrary<ParsedLogLine> = fc.record({
    date: fc
      .date({
        min: new Date('1990-01-01T00:00:00Z'),
        max: new Date('2099-12-31T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((d) => d.toISOString().slice(0, 10)),
    time: fc
      .tuple(
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: 0, max: 59 }),
      )
      .map((parts) => parts.map((n) => String(n).padStart(2, '0')).join(':')),
    sequence: fc.nat({ max: 2 ** 40 }),
    action: fc.constantFrom('allowed' as const, 'blocked' as const),
    clientIp: fc.oneof(ipv4, fc.ipV6()),
    clientNumber: fc.nat({ max: 2 ** 40 }),
    domain: fc.array(label, { minLength: 1, maxLength: 5 }).map((labels) => labels.join('.')),
    resolver: fc.oneof(ipv4, fc.constant('')),
  });

  /** The grammar written once more as one regular expression: the fast reader must agree with it. */
  const REFERENCE =
    /^\s*(\d{4}-\d{2}-\d{2})\s+(\d{2}):(\d{2}):(\d{2})\s+(\d{1,15})\s+pass-through:\s+(allowed|blocked|Allowed|Blocked|ALLOWED|BLOCKED):\s+(\S+?):\s*(\d{1,15}):\s+(\S+?)\s+\(([^()]*)\)\s*$/;
  const referenceParse = (line: string) => {
    const m = REFERENCE.exec(line);
    if (!m) return null;
    const [, date, hh, mm, ss, sequence, action, clientIp, clientNumber, domain, resolver] =
      m as unknown as string[];
    if (Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 60) return null;
    if (
      Number.isNaN(Date.parse(`${date}T00:00:00Z`)) ||
      new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date
    )
      return null;
    return {
      date,
      time: `${hh}:${mm}:${ss}`,
      sequence: Number(sequence),
      action: (action as string).toLowerCase(),
      clientIp,
      clientNumber: Number(clientNumber),
      domain: stripTrailingDot(domain as string),
      resolver,
    };
  };

  it('agrees with the plain regular expression on damaged and oddly spaced lines', () => {
    // Mostly the service's own spacing, so the fast reader is exercised as often as the fallback.
    const separator = fc.oneof(
      { arbitrary: fc.constant(' '), weight: 60 },
      { arbitrary: fc.constantFrom('  ', '\t', '\u00a0', '\u2003', ''), weight: 1 },
    );
    const junk = fc.oneof(
      { arbitrary: fc.constant(''), weight: 6 },
      {
        arbitrary: fc.constantFrom(':', '(', ')', ' ', '\t', '\u00a0', '\u2003', 'x', '9', '.', 'é'),
        weight: 1,
      },
    );
    const lines = fc
      .tuple(
        validLine,
        fc.array(separator, { minLength: 9, maxLength: 9 }),
        fc.array(junk, { minLength: 4, maxLength: 4 }),
      )
      .map(([l, seps, bits]) => {
        const domain = l.domain === '.' ? '.' : `${l.domain}${bits[0]}.`;
        return `${l.date}${seps[0]}${l.time}${seps[1]}${l.sequence}${seps[2]}pass-through:${seps[3]}${l.action}:${seps[4]}${l.clientIp}${bits[1]}:${seps[5]}${l.clientNumber}:${seps[6]}${domain}${seps[7]}(${l.resolver}${bits[2]})${bits[3]}${seps[8]}`;
      });
    fc.assert(
      fc.property(lines, (line) => {
        expect(parseLogLine(line)).toEqual(referenceParse(line));
      }),
      { numRuns: 5000 },
    );
  });

  it('reads back every line it writes', () => {
    fc.assert(
      fc.property(validLine, (line) => {
        expect(parseLogLine(formatLogLine(line))).toEqual(line);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('stripTrailingDot', () => {
  it.each([
    ['example.com.', 'example.com'],
    ['example.com', 'example.com'],
    ['.', '.'],
    ['', ''],
  ])('%j becomes %j', (input, expected) => {
    expect(stripTrailingDot(input)).toBe(expected);
  });
});
