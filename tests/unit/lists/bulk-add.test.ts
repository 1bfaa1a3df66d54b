import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api/errors';
import { type BulkProgress, runBulkAdd } from '@/lib/lists/bulk-add';

describe('runBulkAdd', () => {
  it('makes one call per domain, in order, and reports progress after each', async () => {
    const calls: string[] = [];
    const progress: BulkProgress[] = [];
    const summary = await runBulkAdd({
      domains: ['a.com', 'b.com', 'c.com'],
      add: async (domain) => {
        calls.push(domain);
      },
      onProgress: (step) => progress.push(step),
    });
    expect(calls).toEqual(['a.com', 'b.com', 'c.com']);
    expect(progress.map((step) => `${step.done} of ${step.total}`)).toEqual(['1 of 3', '2 of 3', '3 of 3']);
    expect(summary).toMatchObject({ added: 3, already: 0, failed: 0, notTried: 0 });
  });

  it('skips domains already on the list without a call', async () => {
    const calls: string[] = [];
    const summary = await runBulkAdd({
      domains: ['a.com', 'b.com'],
      existing: new Set(['a.com']),
      add: async (domain) => {
        calls.push(domain);
      },
    });
    expect(calls).toEqual(['b.com']);
    expect(summary.outcomes.map((outcome) => outcome.state)).toEqual(['already', 'added']);
  });

  it("keeps going after a refused domain and reports the service's reason for it", async () => {
    const summary = await runBulkAdd({
      domains: ['a.com', 'bad.com', 'c.com'],
      add: async (domain) => {
        if (domain === 'bad.com') throw new ApiError('service', 'Could not add bad.com: Domain is reserved');
      },
    });
    expect(summary.outcomes).toEqual([
      { domain: 'a.com', state: 'added', message: 'added' },
      { domain: 'bad.com', state: 'failed', message: 'Could not add bad.com: Domain is reserved' },
      { domain: 'c.com', state: 'added', message: 'added' },
    ]);
  });

  it.each([
    ['bad-key', 'The service refused the API key.'],
    ['network', 'The service could not be reached.'],
    ['server', 'The service is busy (HTTP 429).'],
  ] as const)('stops at a %s failure: the rest is not tried', async (kind, message) => {
    const calls: string[] = [];
    const summary = await runBulkAdd({
      domains: ['a.com', 'b.com', 'c.com'],
      add: async (domain) => {
        calls.push(domain);
        throw new ApiError(kind, message);
      },
    });
    expect(calls).toEqual(['a.com']);
    expect(summary).toMatchObject({ added: 0, failed: 1, notTried: 2, stoppedBecause: message });
  });

  it('stops when the signal is aborted, between calls', async () => {
    const controller = new AbortController();
    const summary = await runBulkAdd({
      domains: ['a.com', 'b.com', 'c.com'],
      signal: controller.signal,
      add: async (domain) => {
        if (domain === 'a.com') controller.abort();
      },
    });
    expect(summary.outcomes.map((outcome) => outcome.state)).toEqual(['added', 'not-tried', 'not-tried']);
    expect(summary.stoppedBecause).toBe('Stopped.');
  });

  it('treats a call cancelled mid-way as not tried', async () => {
    const summary = await runBulkAdd({
      domains: ['a.com', 'b.com'],
      add: async () => {
        throw new ApiError('aborted', 'Cancelled.');
      },
    });
    expect(summary).toMatchObject({ added: 0, failed: 0, notTried: 2 });
  });
});
