/** Starts the emulator for a contract test file and builds real clients against it over HTTP. */
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { type EmulatorHandle, startEmulator } from '@/emulator/index.ts';
import { ApiError, createApiClient } from '@/lib/api';
import type { ApiClientConfig, ApiForm, DnsFilterApi } from '@/lib/api/types';

/** The newest demo log day; fixed so the seeded logs are the same on every run. */
export const TODAY = '2026-11-22';
export const YESTERDAY = '2026-11-21';

export interface ContractContext {
  emulator: EmulatorHandle;
  client(form: ApiForm, extra?: Partial<ApiClientConfig>): DnsFilterApi;
}

/**
 * One emulator per test file (dump guard off, so dumps can be tested repeatedly), reset to the
 * demo account before each test.
 */
export function useEmulator(): ContractContext {
  const context = {} as ContractContext;
  beforeAll(async () => {
    context.emulator = await startEmulator({ today: TODAY, seed: 'demo', dumpGuard: false });
    context.client = (form, extra = {}) =>
      createApiClient({
        baseUrl: context.emulator.url,
        form,
        key: context.emulator.key,
        timeoutMs: 5000,
        ...extra,
      });
  });
  beforeEach(() => context.emulator.admin.reset());
  afterAll(() => context.emulator?.close());
  return context;
}

/** The ApiError `promise` rejects with. */
export async function apiErrorOf(promise: Promise<unknown>): Promise<ApiError> {
  let caught: unknown;
  try {
    const value = await promise;
    // A dump that opens fine must still be read to the end to surface a mid-stream failure.
    if (value && typeof value === 'object' && Symbol.asyncIterator in value) {
      for await (const _ of value as AsyncIterable<unknown>) {
        // drain
      }
    }
  } catch (error) {
    caught = error;
  }
  expect(caught, 'expected the call to fail').toBeInstanceOf(ApiError);
  return caught as ApiError;
}

/** Every line of a dump. */
export async function dumpLines(dump: AsyncIterable<{ lines: string[] }>): Promise<string[]> {
  const lines: string[] = [];
  for await (const chunk of dump) lines.push(...chunk.lines);
  return lines;
}
