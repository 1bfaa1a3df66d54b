import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type EmulatorHandle, type EmulatorOptions, startEmulator } from '../../../emulator/index.ts';

export const TODAY = '2026-11-22';

export interface ApiAnswer {
  httpStatus: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are inspected field by field
  body: any;
}

/** One emulator for the file, reset before each test so tests stay independent. */
export function useEmulator(options: EmulatorOptions = {}) {
  const context = {} as { emulator: EmulatorHandle };
  beforeAll(async () => {
    context.emulator = await startEmulator({ today: TODAY, ...options });
  });
  afterAll(async () => {
    await context.emulator.close();
  });
  beforeEach(() => {
    context.emulator.admin.reset();
  });
  return context;
}

export function apiUrl(emulator: EmulatorHandle, form: 'A' | 'B', params: Record<string, string>): string {
  const base = form === 'A' ? `${emulator.url}/api` : `${emulator.url}/api/v1/`;
  return `${base}?${new URLSearchParams({ apikey: emulator.key, ...params })}`;
}

export async function call(
  emulator: EmulatorHandle,
  form: 'A' | 'B',
  action: string,
  params: Record<string, string> = {},
): Promise<ApiAnswer> {
  const response = await fetch(apiUrl(emulator, form, { action, ...params }));
  const text = await response.text();
  return { httpStatus: response.status, headers: response.headers, body: JSON.parse(text) };
}

/** Parts of a raw dump line, per service-api.md section 2. */
export const RAW_LINE =
  /^(\d{4}-\d{2}-\d{2}) (\d{2}):\d{2}:\d{2} \d+ pass-through: (allowed|blocked): ([\d.]+): \d+: ([a-z0-9.-]+\.) \(([\d.]+)\)$/;
