import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api/errors';
import { createDumpGuard, DUMP_INTERVAL_MS, dumpAllowance, formatClock } from '@/lib/logs/dump-guard';

const HOUR = DUMP_INTERVAL_MS;
const T = Date.UTC(2024, 4, 1, 12, 0, 0);

describe('dumpAllowance', () => {
  it.each([
    ['never downloaded', null, T, { allowed: true }],
    ['downloaded a minute ago', T - 60_000, T, { allowed: false, nextAt: T - 60_000 + HOUR }],
    ['downloaded exactly an hour ago', T - HOUR, T, { allowed: true }],
    ['downloaded two hours ago', T - 2 * HOUR, T, { allowed: true }],
    ['the clock was set back a day', T + 24 * HOUR, T, { allowed: false, nextAt: T + HOUR }],
  ])('%s', (_name, lastAt, now, expected) => {
    expect(dumpAllowance(lastAt, now)).toEqual(expected);
  });
});

function memoryStore(initial: number | null = null) {
  let value = initial;
  return {
    readLastAt: async () => value,
    writeLastAt: async (at: number | null) => {
      value = at;
    },
    get value() {
      return value;
    },
  };
}

describe('createDumpGuard', () => {
  it('records the request before downloading and then refuses a second one within the hour', async () => {
    let now = T;
    const store = memoryStore();
    const guard = createDumpGuard({ ...store, now: () => now });
    let recordedDuringDownload: number | null = null;
    await guard.run(async () => {
      recordedDuringDownload = store.value;
    });
    expect(recordedDuringDownload).toBe(T);
    now = T + 30 * 60_000;
    await expect(guard.run(async () => 'second')).rejects.toMatchObject({
      kind: 'invalid-input',
      message: expect.stringMatching(
        /^The raw log can be downloaded once an hour\. Next download allowed at /,
      ),
    });
    expect(await guard.allowance()).toEqual({ allowed: false, nextAt: T + HOUR });
    now = T + HOUR;
    await expect(guard.run(async () => 'third')).resolves.toBe('third');
  });

  it('survives a restart: a new guard over the same storage still refuses', async () => {
    const store = memoryStore();
    await createDumpGuard({ ...store, now: () => T }).run(async () => undefined);
    const afterRestart = createDumpGuard({ ...store, now: () => T + 5 * 60_000 });
    expect((await afterRestart.allowance()).allowed).toBe(false);
  });

  it.each([
    ['no answer (network)', new ApiError('network', 'offline'), null],
    ['refused before sending', new ApiError('invalid-input', 'bad date'), null],
    ['a failure body from the service (no dump served)', new ApiError('service', 'Raw log deleted'), null],
    ['a refused key', new ApiError('bad-key', 'Invalid API key'), null],
    ['an error page or other answer that is not the log', new ApiError('unexpected', 'HTML'), null],
    ['a timeout after sending', new ApiError('timeout', 'slow'), T],
    ['a cancel', new ApiError('aborted', 'cancelled'), T],
    ['an unexpected crash', new Error('bug'), T],
  ])('after %s the stored time is %s', async (_name, error, expected) => {
    const store = memoryStore();
    const guard = createDumpGuard({ ...store, now: () => T });
    await expect(
      guard.run(async () => {
        throw error;
      }),
    ).rejects.toBe(error);
    expect(store.value).toBe(expected);
  });

  it('gives back the earlier time, not nothing, when no dump was served', async () => {
    const store = memoryStore(T - 2 * HOUR);
    const guard = createDumpGuard({ ...store, now: () => T });
    await expect(
      guard.run(async () => {
        throw new ApiError('network', 'offline');
      }),
    ).rejects.toThrow();
    expect(store.value).toBe(T - 2 * HOUR);
  });

  it('lets only one of two simultaneous clicks through when check-and-claim is exclusive', async () => {
    const store = memoryStore();
    let chain: Promise<unknown> = Promise.resolve();
    const exclusive = <R>(task: () => Promise<R>): Promise<R> => {
      const result = chain.then(task);
      chain = result.catch(() => undefined);
      return result;
    };
    const guard = createDumpGuard({ ...store, now: () => T, exclusive });
    const results = await Promise.allSettled([guard.run(async () => 1), guard.run(async () => 2)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
  });
});

describe('formatClock', () => {
  it('shows the time alone today and the date too on another day', () => {
    const at = new Date(2024, 4, 1, 14, 5).getTime();
    expect(formatClock(at, new Date(2024, 4, 1, 13, 30).getTime())).toBe('14:05');
    expect(formatClock(at, new Date(2024, 3, 30, 23, 30).getTime())).toBe('2024-05-01 14:05');
  });
  it('rounds up to the minute so the button is never enabled later than the time shown', () => {
    const at = new Date(2024, 4, 1, 14, 4, 30).getTime();
    expect(formatClock(at, at)).toBe('14:05');
  });
});
