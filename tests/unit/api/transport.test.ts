// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from '@/lib/api';
import type { ApiClientConfig } from '@/lib/api/types';
import { chunkedBody, fakeFetch, json, type Responder, rejectionOf, text } from './fake-fetch';

const KEY = 'k3y-SECRET+/=42';

function client(respond: Responder, extra: Partial<ApiClientConfig> = {}) {
  const fake = fakeFetch(respond);
  const api = createApiClient({
    baseUrl: 'https://dns.example',
    form: 'A',
    key: KEY,
    fetch: fake.fetch,
    ...extra,
  });
  return { api, ...fake };
}

async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('request', () => {
  it('puts the key, the action and the parameters in the query string of a GET to the form base', async () => {
    const { api, requests, mock } = client(() => json({ status: 'success' }));
    await api.addDomain('whitelist', 'example.com', 'kids');
    expect(mock.mock.calls[0]?.[1]?.method).toBe('GET');
    const [request] = requests;
    expect(request?.url.origin).toBe('https://dns.example');
    expect(request?.path).toBe('/api');
    expect(request?.url.searchParams.get('apikey')).toBe(KEY);
    expect(request?.action).toBe('whitelist/add');
    expect(request?.params).toEqual({ domain_name: 'example.com', profile_name: 'kids' });
  });

  it('uses /api/v1/ for Form B', async () => {
    const { api, requests } = client(() => json({ status: 'success' }), { form: 'B' });
    await api.addDomain('whitelist', 'example.com');
    expect(requests[0]?.path).toBe('/api/v1/');
    expect(requests[0]?.params).toEqual({ domain: 'example.com' });
  });
});

describe('service failures', () => {
  it.each([
    ['Form A', 'A', { status: 'failed', reason: 'Domain already listed' }],
    ['Form B', 'B', { status: 'error', message: 'Domain already listed' }],
  ] as const)(
    '%s failure body becomes a service error with the reason verbatim and what was attempted',
    async (_, form, body) => {
      const { api } = client(() => json(body), { form });
      const error = await apiError(api.addDomain('whitelist', 'example.com'));
      expect(error.kind).toBe('service');
      expect(error.message).toBe('Could not add example.com to the whitelist: Domain already listed');
      expect(error.details.reason).toBe('Domain already listed');
      expect(error.details.attempted).toBe('add example.com to the whitelist');
    },
  );

  it.each([
    [200, 'service'],
    [400, 'service'],
    [404, 'service'],
    // 5xx and 429 are decided by the status alone (see 'busy or failing service' below).
    [500, 'server'],
  ])('reads the JSON status whatever the HTTP code below 500 (%i)', async (httpStatus, kind) => {
    const { api } = client(() => json({ status: 'failed', reason: 'Unknown profile' }, httpStatus));
    const error = await apiError(api.listDomains('whitelist', 'nobody'));
    expect(error.kind).toBe(kind);
    expect(error.details.httpStatus).toBe(httpStatus);
  });

  it('accepts a success body even with an odd HTTP code', async () => {
    const { api } = client(() => json({ status: 'success' }, 202));
    await expect(api.deleteLogDay('2024-05-01')).resolves.toBeUndefined();
  });

  it.each([
    ['Invalid API key', 'bad-key'],
    ['invalid api key', 'bad-key'],
    ['API key missing', 'bad-key'],
    ['Unknown apikey', 'bad-key'],
    ['The API-key is not valid', 'bad-key'],
    ['Invalid domain', 'service'],
    ['Profile not found', 'service'],
    ['Invalid key for category', 'service'],
  ])('reason %j gives kind %s', async (reason, kind) => {
    const { api } = client(() => json({ status: 'failed', reason }, 401));
    const error = await apiError(api.listProfiles());
    expect(error.kind).toBe(kind);
    expect(error.message).toBe(`Could not list the profiles: ${reason}`);
  });

  it('says so when a failure body gives no reason', async () => {
    const { api } = client(() => json({ status: 'failed' }));
    const error = await apiError(api.listProfiles());
    expect(error.kind).toBe('service');
    expect(error.message).toMatch(/^Could not list the profiles: .*without giving a reason/);
  });

  it('keeps markup in a reason as text', async () => {
    const reason = '<img src=x onerror=alert(1)> bad';
    const { api } = client(() => json({ status: 'failed', reason }));
    const error = await apiError(api.listProfiles());
    expect(error.details.reason).toBe(reason);
  });
});

describe('unexpected answers name the HTTP code', () => {
  it.each([
    [
      'an HTML error page',
      () => text('<!doctype html><h1>Not found</h1>', 404, 'text/html'),
      404,
      /HTTP 404, a web page/,
    ],
    [
      'malformed JSON',
      () => text('{"status": "succ', 200, 'application/json'),
      200,
      /HTTP 200, not valid JSON/,
    ],
    ['an empty body', () => new Response(null, { status: 204 }), 204, /HTTP 204, an empty answer/],
    [
      'JSON of the wrong shape',
      () => json({ status: 'success', profiles: 42 }),
      200,
      /HTTP 200, an answer of an unknown shape/,
    ],
    [
      'a JSON array where an object is due',
      () => json([1, 2, 3]),
      200,
      /HTTP 200, an answer of an unknown shape/,
    ],
    ['an unknown status', () => json({ status: 'pending' }), 200, /HTTP 200, an answer of an unknown shape/],
  ])('%s', async (_, respond, httpStatus, message) => {
    const { api } = client(respond);
    const error = await apiError(api.listProfiles());
    expect(error.kind).toBe('unexpected');
    expect(error.details.httpStatus).toBe(httpStatus);
    expect(error.message).toMatch(/^Could not list the profiles: unexpected response from the service/);
    expect(error.message).toMatch(message);
  });

  it('refuses a write whose answer has no success status', async () => {
    const { api } = client(() => json({ ok: true }));
    expect((await apiError(api.addProfile('kids1'))).kind).toBe('unexpected');
  });
});

describe('network, time limit and cancellation', () => {
  it('a rejected fetch is a network error', async () => {
    const { api } = client(() => Promise.reject(new TypeError('fetch failed')));
    const error = await apiError(api.listProfiles());
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/^Could not list the profiles: the service could not be reached/);
  });

  it('a fetch that throws synchronously is a network error too', async () => {
    const api = createApiClient({
      baseUrl: 'https://dns.example',
      form: 'A',
      key: KEY,
      fetch: (() => {
        throw new TypeError('boom');
      }) as unknown as typeof fetch,
    });
    expect((await apiError(api.listProfiles())).kind).toBe('network');
  });

  it('no headers within timeoutMs is a timeout, even when fetch ignores its signal', async () => {
    const { api } = client(() => new Promise<Response>(() => {}), { timeoutMs: 40 });
    const started = Date.now();
    const error = await apiError(api.listProfiles());
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe('Could not list the profiles: the service did not answer within 40 ms.');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('aborts the fetch itself when the time is up', async () => {
    let signal: AbortSignal | undefined;
    const { api } = client(
      (request) => {
        signal = request.signal;
        return new Promise<Response>(() => {});
      },
      { timeoutMs: 30 },
    );
    await apiError(api.listProfiles());
    expect(signal?.aborted).toBe(true);
  });

  it('a body that stops flowing is a timeout', async () => {
    const { stream } = chunkedBody(['{"status":"success",'], 0, 1);
    const { api } = client(() => new Response(stream, { headers: { 'content-type': 'application/json' } }), {
      timeoutMs: 40,
    });
    expect((await apiError(api.listProfiles())).kind).toBe('timeout');
  });

  it('a JSON answer trickling in slower than timeoutMs overall is a timeout, though each chunk is quick', async () => {
    const chunks = ['{"status":"success",', '"profiles":', '["default",', '"kids"', ']', '}'];
    const { stream } = chunkedBody(chunks, 30);
    const { api } = client(() => new Response(stream, { headers: { 'content-type': 'application/json' } }), {
      timeoutMs: 100,
    });
    expect((await apiError(api.listProfiles())).kind).toBe('timeout');
  });

  it('the same answer within timeoutMs is read', async () => {
    const chunks = ['{"status":"success",', '"profiles":', '["default",', '"kids"', ']', '}'];
    const { stream } = chunkedBody(chunks, 5);
    const { api } = client(() => new Response(stream, { headers: { 'content-type': 'application/json' } }), {
      timeoutMs: 1000,
    });
    expect(await api.listProfiles()).toEqual(['default', 'kids']);
  });

  it('the default time limit is 15 s', async () => {
    const { vi } = await import('vitest');
    vi.useFakeTimers();
    try {
      const { api } = client(() => new Promise<Response>(() => {}));
      const pending = apiError(api.listProfiles());
      await vi.advanceTimersByTimeAsync(14_900);
      let settled = false;
      void pending.then(() => {
        settled = true;
      });
      await Promise.resolve();
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(200);
      const error = await pending;
      expect(error.kind).toBe('timeout');
      expect(error.message).toMatch(/within 15 seconds/);
    } finally {
      vi.useRealTimers();
    }
  });

  it("the caller's signal cancels a call in flight", async () => {
    const controller = new AbortController();
    const { api } = client(() => new Promise<Response>(() => {}));
    const pending = apiError(api.listProfiles({ signal: controller.signal }));
    setTimeout(() => controller.abort(), 10);
    const error = await pending;
    expect(error.kind).toBe('aborted');
    expect(error.message).toBe('Could not list the profiles: cancelled.');
  });

  it('an already aborted signal makes no request', async () => {
    const { api, mock } = client(() => json({ status: 'success', profiles: [] }));
    const error = await apiError(api.listProfiles({ signal: AbortSignal.abort() }));
    expect(error.kind).toBe('aborted');
    expect(mock).not.toHaveBeenCalled();
  });
});

describe('size cap', () => {
  it('stops reading a JSON answer once over the cap', async () => {
    const chunks = Array.from({ length: 100 }, () => 'x'.repeat(1000));
    const { stream, state } = chunkedBody(['{"status":"success","profiles":["', ...chunks, '"]}']);
    const { api } = client(() => new Response(stream, { headers: { 'content-type': 'application/json' } }), {
      maxJsonBytes: 10_000,
    });
    const error = await apiError(api.listProfiles());
    expect(error.kind).toBe('too-large');
    expect(error.message).toMatch(/^Could not list the profiles: the service's answer is larger than/);
    expect(state.pulled).toBeLessThan(20);
    expect(state.cancelled).toBe(true);
  });

  it('refuses at once when Content-Length announces too much', async () => {
    const { stream, state } = chunkedBody(['{"status":"success","profiles":[]}']);
    const { api } = client(
      () =>
        new Response(stream, {
          headers: { 'content-type': 'application/json', 'content-length': '20000000' },
        }),
    );
    expect((await apiError(api.listProfiles())).kind).toBe('too-large');
    expect(state.pulled).toBe(0);
  });

  it('accepts 10 MB by default and refuses more', async () => {
    const names = (bytes: number) => {
      const head = '{"status":"success","profiles":["';
      const tail = '"]}';
      return head + 'p'.repeat(bytes - head.length - tail.length) + tail;
    };
    const ok = client(() => text(names(10 * 1024 * 1024), 200, 'application/json'));
    expect(await ok.api.listProfiles()).toHaveLength(1);
    const big = client(() => text(names(10 * 1024 * 1024 + 1), 200, 'application/json'));
    const error = await apiError(big.api.listProfiles());
    expect(error.kind).toBe('too-large');
    expect(error.message).toMatch(/10 MB/);
  });
});

describe('the key never appears in an error', () => {
  const encoded = encodeURIComponent(KEY);
  it.each([
    ['a reason that echoes the key', () => json({ status: 'failed', reason: `Invalid API key ${KEY}` })],
    [
      'a reason that echoes the URL-encoded key',
      () => json({ status: 'error', message: `bad apikey=${encoded}` }),
    ],
    ['a reason made only of the key', () => json({ status: 'failed', reason: KEY })],
  ])('%s', async (_, respond) => {
    const { api } = client(respond);
    const error = await apiError(api.addDomain('whitelist', 'example.com'));
    expect(error.message).toContain('[key]');
    for (const leak of [KEY, encoded]) {
      expect(error.message).not.toContain(leak);
      expect(JSON.stringify(error.details)).not.toContain(leak);
      expect(String(error.stack)).not.toContain(leak);
    }
  });

  it.each([
    ['network', () => Promise.reject(new TypeError(`fetch to https://dns.example/api?apikey=${KEY} failed`))],
    ['unexpected', () => text(`<html>apikey=${KEY}</html>`, 404, 'text/html')],
    ['server', () => json({ status: 'failed', reason: `overloaded for apikey=${KEY}` }, 503)],
    ['too-large', () => json({ status: 'success', profiles: [KEY.repeat(100)] })],
  ])('%s errors', async (kind, respond) => {
    const { api } = client(respond as Responder, { maxJsonBytes: 500 });
    const error = await apiError(api.listProfiles());
    expect(error.kind).toBe(kind);
    expect(error.message).not.toContain(KEY);
    expect(JSON.stringify(error.details)).not.toContain(KEY);
  });

  describe('whichever way the answer spells the key', () => {
    /**
     * How one character of the key may be written back: as is, percent-encoded in either case
     * (a form's '+' for a space), or as a form decoder reads a '+' sent as is (a space).
     */
    type Spelling = 'raw' | 'upper' | 'lower' | 'form' | 'form-decoded' | 'every-byte';
    const percent = (char: string, hex: (byte: number) => string, all: boolean) =>
      all || encodeURIComponent(char) !== char
        ? [...new TextEncoder().encode(char)].map((byte) => `%${hex(byte)}`).join('')
        : char;
    const upperHex = (byte: number) => byte.toString(16).toUpperCase().padStart(2, '0');
    const lowerHex = (byte: number) => byte.toString(16).padStart(2, '0');
    const spell = (char: string, spelling: Spelling): string => {
      if (spelling === 'raw') return char;
      if (spelling === 'upper') return percent(char, upperHex, false);
      if (spelling === 'lower') return percent(char, lowerHex, false);
      if (spelling === 'form') return char === ' ' ? '+' : percent(char, lowerHex, false);
      if (spelling === 'form-decoded') return char === '+' ? ' ' : char;
      return percent(char, upperHex, true);
    };
    const spellings = fc.constantFrom<Spelling>(
      'raw',
      'upper',
      'lower',
      'form',
      'form-decoded',
      'every-byte',
    );
    // Characters a key could hold (no blanks: the client refuses them), '[' and ']' left out so
    // '[key]' can never be part of one.
    const keyChar = fc.constantFrom(...Array.from('aZ09-_.~+/=%&?#:;,@!$*()\'"<>éß€😀'));
    const keyAndEcho = fc
      .array(fc.tuple(keyChar, spellings), { minLength: 6, maxLength: 40 })
      .chain((chars) =>
        fc.oneof(
          // The same spelling for every character, as one encoder writes it...
          spellings.map((spelling) => chars.map(([char]) => [char, spelling] as const)),
          // ...or a mixture, as a hand-written or twice-processed echo could be.
          fc.constant(chars),
        ),
      )
      .map((chars) => ({
        key: chars.map(([char]) => char).join(''),
        echo: chars.map(([char, spelling]) => spell(char, spelling)).join(''),
      }));
    /** The text with every escape decoded, where it decodes. */
    const decoded = (text: string) =>
      text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
        try {
          return decodeURIComponent(run);
        } catch {
          return run;
        }
      });

    it('never keeps the key in the message or the details of a refusal', async () => {
      await fc.assert(
        fc.asyncProperty(keyAndEcho, async ({ key, echo }) => {
          const { api } = client(
            () => json({ status: 'failed', reason: `Invalid API key «${echo}» (apikey=${echo})` }),
            {
              key,
            },
          );
          const error = await apiError(api.addDomain('whitelist', 'example.com'));
          expect(error.details.reason).toBe('Invalid API key «[key]» (apikey=[key])');
          for (const kept of [error.message, JSON.stringify(error.details)]) {
            expect(kept).not.toContain(echo);
            expect(decoded(kept)).not.toContain(key);
            expect(decoded(kept).replaceAll(' ', '+')).not.toContain(key);
          }
        }),
        { numRuns: 300 },
      );
    });
  });

  it('an input that contains the key is scrubbed from the refusal too', async () => {
    const { api } = client(() => json({ status: 'success' }));
    const error = await apiError(api.addDomain('whitelist', `https://x/?apikey=${KEY} oops`));
    expect(error.kind).toBe('invalid-input');
    expect(error.message).not.toContain(KEY);
  });
});
