// @vitest-environment node
/**
 * Hostile and random input at every boundary where text or JSON enters: each response schema
 * (directly, beside tests/unit/api/fuzz.test.ts which goes through the whole client), each input
 * validator, the log line reader and the IP lookup answer. Each must give a typed result (a
 * parsed value or a refusal with a message) and never throw, whatever it is fed.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  categoriesResponseSchema,
  createApiClient,
  DEFAULT_MAX_JSON_BYTES,
  domainListResponseSchema,
  failureBodySchema,
  failureReason,
  logDaysResponseSchema,
  networksResponseSchema,
  profilesResponseSchema,
  statsResponseSchema,
  successBodySchema,
} from '@/lib/api';
import { parseDomainLines } from '@/lib/lists/domain-lines';
import { createScannedLine, scanLogLine } from '@/lib/logs/parse-line';
import { summariseDay } from '@/lib/logs/stats';
import { parseLookupAnswer } from '@/lib/network/ip-lookup';
import { checkDynamicIpDraft, validateLookupUrl } from '@/lib/network/settings-form';
import {
  isValidDomain,
  normaliseDomainInput,
  type Validation,
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
import { parseLogLine } from '../logs/log-line';

// Thousands of runs per property: on a busy two-core machine one can take several seconds.
vi.setConfig({ testTimeout: 60_000 });

// ---------------------------------------------------------------------------------------------
// Generators

/** Strings a hostile server or a careless paste produces. */
const NASTY = [
  '<img src=x onerror=alert(1)>',
  '<script>alert(document.domain)</script>',
  '"><svg onload=alert(1)>',
  'javascript:alert(1)',
  '\u202eevil.com\u202c',
  '\u200f\u200e\u2066\u2069',
  '\u0000\u0001\u0007\u001b[31m\u007f',
  '\r\n\u2028\u2029',
  '\ud800',
  'ﬁ\u0301\ufeff',
  '__proto__',
  'constructor',
  '%00%0d%0a',
  'x'.repeat(10_000),
];

const nastyText = fc.oneof(
  fc.constantFrom(...NASTY),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 80 }),
  fc.string({
    unit: fc.constantFrom(...'<>"\'&/\\:.-_ \t\n\r\u0000\u202e\u200faZ09é'.split('')),
    maxLength: 60,
  }),
  fc.tuple(fc.constantFrom(...NASTY), fc.string({ maxLength: 20 })).map(([a, b]) => a + b),
);

const KEYS = [
  'status',
  'reason',
  'message',
  'error',
  'profiles',
  'categories',
  'blocked',
  'domains',
  'whitelist',
  'blocklist',
  'networks',
  'logs',
  'dates',
  'ips',
  'reqtypes',
  'action',
  'blocks',
  'name',
  'domain',
  'category',
  'id',
  'ip',
  'ip_address',
  'label',
  'profile',
  'date',
  'day',
  'Allowed',
  'Blocked',
  '__proto__',
  'constructor',
  'toString',
];

/** JSON close to real answers (known keys, status words, hostile strings), nested. */
const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom('success', 'SUCCESS', 'failed', 'error', 'blocked', 'true', 1, 0, true, null, -1, 1e308),
    nastyText,
    fc.jsonValue({ maxDepth: 1 }),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), nastyText), tie('value'), { maxKeys: 6 }),
  ),
})).value;

const anyJson = fc.oneof(hostileJson, fc.jsonValue());

// ---------------------------------------------------------------------------------------------
// Response schemas

const isStringArray = (value: unknown) => Array.isArray(value) && value.every((v) => typeof v === 'string');

const RESPONSE_SCHEMAS: [
  string,
  { safeParse(input: unknown): { success: boolean; data?: unknown } },
  (out: unknown) => boolean,
][] = [
  ['failure body', failureBodySchema, (out) => typeof (out as { status: unknown }).status === 'string'],
  ['success body', successBodySchema, (out) => typeof (out as { status: unknown }).status === 'string'],
  ['profiles/list', profilesResponseSchema, isStringArray],
  [
    'categories/list',
    categoriesResponseSchema,
    (out) =>
      Array.isArray(out) && out.every((c) => typeof c.id === 'string' && typeof c.blocked === 'boolean'),
  ],
  [
    'whitelist/list',
    domainListResponseSchema('whitelist'),
    (out) => {
      const listing = out as { kind: string; domains?: unknown; byProfile?: Record<string, unknown> };
      return listing.kind === 'flat'
        ? isStringArray(listing.domains)
        : Object.values(listing.byProfile ?? {}).every(isStringArray);
    },
  ],
  [
    'blocklist/list',
    domainListResponseSchema('blocklist'),
    (out) => ['flat', 'by-profile'].includes((out as { kind: string }).kind),
  ],
  [
    'network/list',
    networksResponseSchema,
    (out) =>
      Array.isArray(out) &&
      out.every(
        (n) =>
          typeof n.ip === 'string' &&
          (n.label === undefined || typeof n.label === 'string') &&
          (n.profile === undefined || typeof n.profile === 'string'),
      ),
  ],
  [
    'logs/list',
    logDaysResponseSchema,
    (out) => isStringArray(out) && (out as string[]).every((d) => /^\d{4}-\d{2}-\d{2}$/.test(d)),
  ],
  [
    'logs/getstats',
    statsResponseSchema,
    (out) =>
      ['ips', 'reqtypes', 'action', 'blocks', 'domains'].every(
        (key) => typeof (out as Record<string, unknown>)[key] === 'object',
      ),
  ],
];

describe('response schemas against random and hostile JSON', () => {
  it.each(RESPONSE_SCHEMAS)('%s: a typed value or a refusal, never an exception', (_name, schema, typed) => {
    fc.assert(
      fc.property(anyJson, (body) => {
        let result: { success: boolean; data?: unknown } | undefined;
        expect(() => {
          result = schema.safeParse(body);
        }).not.toThrow();
        if (result?.success) expect(typed(result.data)).toBe(true);
      }),
      { numRuns: 1500 },
    );
  });

  it('a failure reason is always text or nothing, whatever the failure body holds', () => {
    fc.assert(
      fc.property(
        fc.record(
          { status: fc.constantFrom('failed', 'error'), reason: anyJson, message: anyJson, error: anyJson },
          {
            requiredKeys: ['status'],
          },
        ),
        (body) => {
          const parsed = failureBodySchema.safeParse(body);
          expect(parsed.success).toBe(true);
          if (!parsed.success) return;
          const reason = failureReason(parsed.data);
          expect(reason === null || typeof reason === 'string').toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('statistics with hostile domain and hour keys summarise without throwing', () => {
    const hourMap = fc.dictionary(nastyText, fc.dictionary(nastyText, fc.integer(), { maxKeys: 3 }), {
      maxKeys: 4,
    });
    fc.assert(
      fc.property(hourMap, hourMap, (ips, blocks) => {
        const parsed = statsResponseSchema.safeParse({ status: 'success', ips, blocks, reqtypes: ips });
        if (!parsed.success) return;
        expect(() => summariseDay(parsed.data)).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });
});

describe('an answer larger than the cap', () => {
  it(`is refused at the default ${DEFAULT_MAX_JSON_BYTES / 1024 / 1024} MB with a clear error, without reading it all`, async () => {
    const chunk = new TextEncoder().encode(`"${'a'.repeat(64 * 1024 - 3)}",`);
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"status":"success","profiles":['));
      },
      pull(controller) {
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const api = createApiClient({
      baseUrl: 'https://dns.example',
      form: 'A',
      key: 'secret-key-1',
      fetch: async () => new Response(endless, { headers: { 'content-type': 'application/json' } }),
    });
    const error = await api.listProfiles().then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('too-large');
    expect((error as ApiError).message).toBe(
      "Could not list the profiles: the service's answer is larger than the 10 MB this extension accepts.",
    );
    // Reading stopped just past the cap: an endless answer cannot fill the page's memory.
    expect(sent).toBeLessThan(DEFAULT_MAX_JSON_BYTES + 256 * 1024);
  });
});

// ---------------------------------------------------------------------------------------------
// Input validators

const VALIDATORS: [string, (input: string) => Validation<unknown>][] = [
  ['profile name', validateProfileName],
  ['profile reference', validateProfileReference],
  ['category id', validateCategoryId],
  ['top-level domain', validateTld],
  ['IPv4 address', validateIpv4],
  ['date', validateDate],
  ['network label', validateNetworkLabel],
  ['API key', validateApiKey],
  ['base URL', validateBaseUrl],
  ['domain', normaliseDomainInput],
  ['IP lookup URL', validateLookupUrl],
];

/** Hostile text, plain random text and plausible values with damage. */
const userText = fc.oneof(
  nastyText,
  fc.string({ maxLength: 300 }),
  fc.webUrl(),
  fc.domain(),
  fc.ipV4(),
  fc.ipV6(),
  fc.tuple(fc.domain(), fc.constantFrom(...NASTY)).map(([domain, nasty]) => `${domain}${nasty}`),
);

describe('input validators against random and hostile text', () => {
  it.each(VALIDATORS)('%s: a value or a short message, never an exception', (_name, validate) => {
    fc.assert(
      fc.property(userText, (input) => {
        let result: Validation<unknown> | undefined;
        expect(() => {
          result = validate(input);
        }).not.toThrow();
        if (!result) throw new Error('no result');
        if (result.ok) {
          expect(typeof result.value).toBe('string');
        } else {
          expect(result.message.length).toBeGreaterThan(0);
          // Echoed input is shortened: a 10,000-character paste never floods the status line.
          expect(result.message.length).toBeLessThan(400);
        }
      }),
      { numRuns: 800 },
    );
  });

  const isControlCharacter = (char: string) => {
    const code = char.codePointAt(0) ?? 0;
    return code < 0x20 || code === 0x7f;
  };

  it.each(VALIDATORS)('%s: what is accepted has no control characters', (_name, validate) => {
    fc.assert(
      fc.property(userText, (input) => {
        const result = validate(input);
        if (result.ok) expect([...String(result.value)].filter(isControlCharacter)).toEqual([]);
      }),
      { numRuns: 800 },
    );
  });

  // What the user types and the extension stores or sends as the user's own words.
  it.each([
    ['network label', validateNetworkLabel],
    ['API key', validateApiKey],
  ] as const)(
    '%s: text-direction overrides are refused (they make shown text differ from stored)',
    (_name, validate) => {
      fc.assert(
        fc.property(userText, (input) => {
          const result = validate(input);
          if (result.ok) expect(result.value).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
        }),
        { numRuns: 800 },
      );
      expect(validate('Home\u202eemoH').ok).toBe(false);
    },
  );

  // Addresses and names that end up in URLs or lists: nothing that could only be markup.
  it.each([
    ['base URL', validateBaseUrl],
    ['IP lookup URL', validateLookupUrl],
    ['domain', normaliseDomainInput],
    ['top-level domain', validateTld],
    ['profile name', validateProfileName],
    ['IPv4 address', validateIpv4],
    ['date', validateDate],
  ] as const)('%s: what is accepted holds no markup characters', (_name, validate) => {
    fc.assert(
      fc.property(userText, (input) => {
        const result = validate(input);
        if (result.ok) expect(result.value).not.toMatch(/[<>"`{}]/);
      }),
      { numRuns: 800 },
    );
  });

  it('a pasted block of hostile lines: each is a domain or refused with its reason', () => {
    fc.assert(
      fc.property(fc.array(userText, { maxLength: 20 }), (lines) => {
        const parsed = parseDomainLines(lines.join('\n'));
        for (const domain of parsed.domains) expect(isValidDomain(domain)).toBe(true);
        for (const refused of parsed.refused) expect(refused.message.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });

  it('the Dynamic IP form: settings that pass the storage schema, or a message', () => {
    const draft = fc.record({
      enabled: fc.boolean(),
      interval: fc.oneof(fc.nat({ max: 3000 }).map(String), nastyText),
      label: fc.oneof(fc.constant('Home'), nastyText),
      profile: fc.oneof(fc.constant('default'), nastyText),
      firstLookupUrl: fc.oneof(fc.webUrl(), nastyText),
      moreLookupUrls: fc.oneof(
        fc.constant(''),
        nastyText,
        fc.array(fc.webUrl()).map((u) => u.join('\n')),
      ),
      removePrevious: fc.boolean(),
    });
    fc.assert(
      fc.property(draft, fc.constantFrom('A' as const, 'B' as const), (input, form) => {
        const checked = checkDynamicIpDraft(input, form);
        if (!checked.ok) expect(checked.message.length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Log lines and IP lookup answers

const VALID_LINE =
  '2024-05-01 14:05:09 1187 pass-through: blocked: 192.0.2.10: 3: ads.example.com. (203.0.113.53)';

describe('the raw log line reader', () => {
  it('gives a line with typed fields or null for any text, including 10,000-character lines', () => {
    const line = fc.oneof(
      nastyText,
      fc.string({ unit: 'binary', maxLength: 12_000 }),
      fc
        .tuple(fc.nat(VALID_LINE.length), fc.constantFrom(...NASTY))
        .map(([at, nasty]) => VALID_LINE.slice(0, at) + nasty + VALID_LINE.slice(at)),
      fc.constantFrom(...NASTY).map((nasty) => VALID_LINE.replace('ads.example.com', nasty)),
    );
    const scanned = createScannedLine();
    fc.assert(
      fc.property(line, (text) => {
        let parsed: ReturnType<typeof parseLogLine> | undefined;
        expect(() => {
          parsed = parseLogLine(text);
          scanLogLine(text, scanned);
        }).not.toThrow();
        if (parsed) {
          expect(parsed.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
          expect(parsed.time).toMatch(/^\d{2}:\d{2}:\d{2}$/);
          expect(['allowed', 'blocked']).toContain(parsed.action);
          expect(Number.isFinite(parsed.sequence)).toBe(true);
          expect(typeof parsed.domain).toBe('string');
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('a markup domain inside an otherwise valid line is read as plain text, not dropped silently or changed', () => {
    const parsed = parseLogLine(VALID_LINE.replace('ads.example.com', '<b>x</b>.example'));
    // Either refused (counted as "not recognised") or kept verbatim: never rewritten into markup.
    if (parsed) expect(parsed.domain).toBe('<b>x</b>.example');
  });
});

describe('IP lookup answers', () => {
  it('an IPv4 address or a refusal with its problem, for any answer', () => {
    const body = fc.oneof(
      userText,
      anyJson.map((value) => JSON.stringify(value) ?? ''),
      fc.record({ ip: userText }).map((value) => JSON.stringify(value)),
    );
    fc.assert(
      fc.property(body, (text) => {
        const answer = parseLookupAnswer(text);
        if (answer.ok) expect(validateIpv4(answer.ip)).toEqual({ ok: true, value: answer.ip });
        else expect(answer.problem.length).toBeLessThan(300);
      }),
      { numRuns: 1500 },
    );
  });
});

describe('addresses the URL parser accepts but no server has', () => {
  it.each([
    ['base URL', 'https://"', validateBaseUrl],
    ['base URL', "https://a{b}'", validateBaseUrl],
    ['IP lookup URL', 'https://a`b/ip', validateLookupUrl],
  ] as const)('%s %s is refused with a message naming it', (_field, input, validate) => {
    const result = validate(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain('does not name a server');
  });

  it.each([
    ['https://my.cleanbrowsing.org', 'https://my.cleanbrowsing.org'],
    ['https://xn--bcher-kva.example:8443/', 'https://xn--bcher-kva.example:8443'],
    ['https://bücher.example', 'https://xn--bcher-kva.example'],
    ['http://[::1]:8080', 'http://[::1]:8080'],
    ['https://dns_1.example', 'https://dns_1.example'],
  ])('real servers are still accepted: %s', (input, origin) => {
    expect(validateBaseUrl(input)).toEqual({ ok: true, value: origin });
  });
});
