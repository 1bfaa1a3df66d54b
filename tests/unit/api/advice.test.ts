import { describe, expect, it } from 'vitest';
import { adviceFor, failureKindOf } from '@/lib/api/advice';
import { ApiError } from '@/lib/api/errors';

/** One message per failure, with advice that fits what the person can do about it. */
describe('advice per kind of failure', () => {
  it('a refused key points at the key, not at the connection', () => {
    const advice = adviceFor(new ApiError('bad-key', 'Could not list the profiles: Invalid API key'));
    expect(advice).toMatch(/API key/);
    expect(advice).not.toMatch(/connection/i);
  });

  it('a service out of reach points at the connection and the address, not at the key', () => {
    const error = new ApiError('network', 'Could not list the profiles: the service could not be reached.');
    expect(failureKindOf(error)).toBe('unreachable');
    const advice = adviceFor(error);
    expect(advice).toMatch(/internet connection/);
    expect(advice).toMatch(/Base URL/);
    expect(advice).not.toMatch(/key|API form/i);
  });

  it('a slow service, an odd answer and a failing service each get their own advice', () => {
    const timeout = adviceFor(new ApiError('timeout', 'x'));
    const unexpected = adviceFor(new ApiError('unexpected', 'x', { httpStatus: 200 }));
    const server = adviceFor(new ApiError('server', 'x', { httpStatus: 503 }));
    expect(timeout).toMatch(/slow/);
    expect(unexpected).toMatch(/Base URL or the API form/);
    // 5xx and 429: nothing in the settings is wrong, so nothing there is suggested.
    expect(server).toMatch(/service's side/);
    expect(new Set([timeout, unexpected, server]).size).toBe(3);
  });

  it("a refusal with the service's reason is its own answer", () => {
    expect(
      adviceFor(new ApiError('service', 'Could not add x: Domain exists', { reason: 'Domain exists' })),
    ).toMatch(/service's own answer/);
    // Passed on in words by the worker: its kind is not known, so no advice is guessed.
    expect(adviceFor(new ApiError('service', 'Not registered: the IP lookup failed'))).toBeUndefined();
  });

  it('a missing host permission says how to give it', () => {
    const error = new ApiError('invalid-input', 'Not saved: …', {
      field: 'baseUrl',
      permission: 'https://filter.example.org/*',
    });
    expect(failureKindOf(error)).toBe('permission');
    expect(adviceFor(error)).toMatch(/Allow/);
  });

  it('adds nothing where the message already says what to do, or nothing is to be done', () => {
    expect(
      adviceFor(new ApiError('invalid-input', 'Enter your API key first.', { field: 'key' })),
    ).toBeUndefined();
    expect(adviceFor(new ApiError('aborted', 'cancelled.'))).toBeUndefined();
    expect(failureKindOf(new Error('boom'))).toBe('internal');
    expect(adviceFor(new Error('boom'))).toBeUndefined();
  });
});
