// @vitest-environment node
/**
 * What the HTTP status decides before the body is read: a redirect is refused, never followed
 * (it would carry the key elsewhere); a 5xx or 429 is the service busy or failing for now,
 * whatever its body says. And how much of a failure text is kept.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from '@/lib/api';
import { capText, MAX_REASON_CHARS, MAX_RETRY_AFTER_MS, parseRetryAfter } from '@/lib/api/transport';
import { failureKeepsAllowance } from '@/lib/logs/dump-guard';
import { isTransient } from '@/lib/network/registration';
import { isRetryable } from '@/lib/outbox/policy';
import { chunkedBody, fakeFetch, json, type Responder, rejectionOf, text } from './fake-fetch';

const KEY = 'k3y-SECRET+/=42';

function client(respond: Responder) {
  const fake = fakeFetch(respond);
  const api = createApiClient({ baseUrl: 'https://dns.example', form: 'A', key: KEY, fetch: fake.fetch });
  return { api, ...fake };
}

async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

/** What a browser gives for `redirect: 'manual'`: no code, no target, no body. */
function opaqueRedirect(): Response {
  return Object.defineProperties(new Response(null), {
    type: { value: 'opaqueredirect' },
    status: { value: 0 },
  });
}

const redirectTo = (status: number, location: string) =>
  new Response(null, { status, headers: { location } });

describe('redirects are refused', () => {
  it('asks fetch not to follow redirects', async () => {
    const { api, mock } = client(() => json({ status: 'success', profiles: ['default'] }));
    await api.listProfiles();
    expect(mock.mock.calls[0]?.[1]?.redirect).toBe('manual');
  });

  it.each([301, 302, 303, 307, 308])('a %i is an unexpected response naming the code', async (status) => {
    const { api, requests } = client(() => redirectTo(status, `http://evil.example/steal`));
    const error = await apiError(api.addDomain('whitelist', 'example.com'));
    expect(error.kind).toBe('unexpected');
    expect(error.details.httpStatus).toBe(status);
    expect(error.message).toMatch(
      new RegExp(
        `^Could not add example.com to the whitelist: unexpected response from the service \\(HTTP ${status}, a redirect`,
      ),
    );
    // One request, to the configured origin only.
    expect(requests.map((request) => request.url.origin)).toEqual(['https://dns.example']);
  });

  it("a browser's opaque redirect (status 0) is named as a redirect, not as HTTP 0", async () => {
    const { api } = client(() => opaqueRedirect());
    const error = await apiError(api.listProfiles());
    expect(error.kind).toBe('unexpected');
    expect(error.message).toMatch(/unexpected response from the service \(a redirect to another address/);
    expect(error.message).not.toContain('HTTP 0');
    expect(error.details.httpStatus).toBeUndefined();
  });

  it.each([
    ['a 302', () => redirectTo(302, 'https://elsewhere.example/')],
    ['an opaque redirect', opaqueRedirect],
  ])('the raw log download refuses %s too', async (_, respond) => {
    const { api } = client(respond);
    const error = await apiError(api.getDump('2024-05-01'));
    expect(error.kind).toBe('unexpected');
    expect(error.message).toContain('a redirect to another address');
  });
});

describe('5xx and 429: the service is busy or failing, whatever the body', () => {
  it.each([
    ['500 with a failure body', () => json({ status: 'failed', reason: 'Database unavailable' }, 500), 500],
    ['503 with a Form B failure body', () => json({ status: 'error', message: 'Maintenance' }, 503), 503],
    ['502 with an HTML page', () => text('<!doctype html><h1>Bad gateway</h1>', 502, 'text/html'), 502],
    ['504 with nothing', () => new Response(null, { status: 504 }), 504],
    ['500 with a success body', () => json({ status: 'success', profiles: ['default'] }, 500), 500],
    ['500 whose reason names the key', () => json({ status: 'failed', reason: 'Invalid API key' }, 500), 500],
    ['429 with a failure body', () => json({ status: 'failed', reason: 'Too many requests' }, 429), 429],
  ])('%s is kind server', async (_, respond, status) => {
    const { api } = client(respond);
    const error = await apiError(api.addDomain('whitelist', 'example.com'));
    expect(error.kind).toBe('server');
    expect(error.details.httpStatus).toBe(status);
    expect(error.message).toMatch(
      new RegExp(
        `^Could not add example.com to the whitelist: the service is busy or failing right now \\(HTTP ${status}\\)`,
      ),
    );
  });

  it("keeps the service's failure text in the message and the details", async () => {
    const { api } = client(() => json({ status: 'failed', reason: 'Database unavailable' }, 500));
    const error = await apiError(api.listProfiles());
    expect(error.details.reason).toBe('Database unavailable');
    expect(error.message).toMatch(/try again later\. Database unavailable$/);
  });

  it('429 with Retry-After in seconds: the wait is kept and shown', async () => {
    const { api } = client(() =>
      json({ status: 'failed', reason: 'Slow down' }, 429, { 'retry-after': '120' }),
    );
    const error = await apiError(api.listProfiles());
    expect(error.kind).toBe('server');
    expect(error.details.retryAfterMs).toBe(120_000);
    expect(error.message).toContain('(HTTP 429); it asks to wait 120 seconds. Slow down');
  });

  it('503 with Retry-After as a date far away: the wait is capped', async () => {
    const { api } = client(
      () =>
        new Response('busy', { status: 503, headers: { 'retry-after': 'Fri, 31 Dec 2100 23:59:59 GMT' } }),
    );
    const error = await apiError(api.listProfiles());
    expect(error.details.retryAfterMs).toBe(MAX_RETRY_AFTER_MS);
  });

  it('a 500 log download is kind server too, and its body is not read as the log', async () => {
    const { stream, state } = chunkedBody(['Internal ', 'Server ', 'Error']);
    const { api } = client(
      () => new Response(stream, { status: 500, headers: { 'content-type': 'text/plain' } }),
    );
    const error = await apiError(api.getDump('2024-05-01'));
    expect(error.kind).toBe('server');
    expect(state.pulled).toBe(0);
  });

  it('is retried by the outbox and the registration, and leaves the hourly log allowance unused', () => {
    const error = new ApiError('server', 'busy', { httpStatus: 503 });
    expect(isRetryable(error)).toBe(true);
    expect(isTransient(error)).toBe(true);
    expect(failureKeepsAllowance(error)).toBe(true);
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it.each([
    [null, undefined],
    ['', undefined],
    ['soon', undefined],
    ['0', 0],
    ['30', 30_000],
    [' 90 ', 90_000],
    ['99999999', MAX_RETRY_AFTER_MS],
    ['Thu, 01 Jan 2026 00:02:00 GMT', 120_000],
    ['Wed, 31 Dec 2025 23:00:00 GMT', 0],
    ['-5', undefined],
  ])('%j is %j ms', (header, expected) => {
    expect(parseRetryAfter(header, now)).toBe(expected);
  });
});

describe('failure texts are capped', () => {
  it(`a 5 MB reason is kept as at most ${MAX_REASON_CHARS} characters, marked as shortened`, async () => {
    const reason = `Refused: ${'x'.repeat(5 * 1024 * 1024)}`;
    const { api } = client(() => json({ status: 'failed', reason }, 400));
    const error = await apiError(api.addDomain('whitelist', 'example.com'));
    expect(error.kind).toBe('service');
    expect(error.details.reason?.length).toBeLessThanOrEqual(MAX_REASON_CHARS);
    expect(error.details.reason?.length).toBeGreaterThan(MAX_REASON_CHARS - 20);
    expect(error.details.reason?.endsWith('xxx… (shortened)')).toBe(true);
    expect(error.details.reason?.startsWith('Refused: xxx')).toBe(true);
    expect(error.message.length).toBeLessThan(MAX_REASON_CHARS + 100);
  });

  it('the key is scrubbed before the cut, so no part of it survives at the edge', async () => {
    const reason = `${'y'.repeat(MAX_REASON_CHARS - 6)}${KEY} and more`;
    const { api } = client(() => json({ status: 'failed', reason }, 400));
    const error = await apiError(api.listProfiles());
    expect(error.details.reason).not.toContain(KEY.slice(0, 4));
    expect(error.message).not.toContain(KEY.slice(0, 4));
  });

  it('a cut never splits a character made of two UTF-16 units', () => {
    const room = MAX_REASON_CHARS - '… (shortened)'.length;
    const capped = capText(`${'a'.repeat(room - 1)}${'😀'.repeat(20)}`);
    expect(capped).toBe(`${'a'.repeat(room - 1)}… (shortened)`);
    expect(capText('short')).toBe('short');
  });
});
