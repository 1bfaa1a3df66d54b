/**
 * History (docs/history.md) in Node: the diff of two snapshots of 2 × 100,000 entries as the
 * options page computes it, the stored size of 90 daily snapshots of such an account with 1 %
 * daily churn, and the pace of a rollback of 1,000 changes.
 */
import { performance } from 'node:perf_hooks';
import { diffSections } from '../../lib/history/diff.ts';
import { canonicalEntries, type Sections, sectionKey } from '../../lib/history/model.ts';
import {
  ROLLBACK_CALLS_PER_SECOND,
  ROLLBACK_PACE_MS,
  type RollbackJob,
  runRollback,
} from '../../lib/history/rollback.ts';
import { createHistoryStore, HISTORY_BUDGET } from '../../lib/history/store.ts';
import { createFakeClient } from '../../tests/fakes/fake-client.ts';
import { below, type Figure, figure } from './figures.ts';
import { syntheticList } from './verdict-lookup.ts';

const DAY_MS = 24 * 60 * 60_000;
const WHITE = sectionKey('whitelist', 'default');
const BLOCK = sectionKey('blocklist', 'default');

/** A deterministic pseudo-random sequence (xorshift), so every run churns the same entries. */
export function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

/** `entries` with `share` of them replaced by new ones. */
export function churn(
  entries: readonly string[],
  share: number,
  next: () => number,
  day: number,
  prefix: string,
): string[] {
  const replaced = Math.round(entries.length * share);
  const result = [...entries];
  for (let i = 0; i < replaced; i++) {
    const at = Math.floor(next() * result.length);
    result[at] = `${prefix}${day}x${i}${Math.floor(next() * 36 ** 6).toString(36)}.com`;
  }
  return canonicalEntries(result);
}

function memoryStorage() {
  const values = new Map<string, unknown>();
  return {
    values,
    storage: {
      get: async (keys: readonly string[]) => Object.fromEntries(keys.map((key) => [key, values.get(key)])),
      set: async (written: Record<string, unknown>) => {
        for (const [key, value] of Object.entries(written)) values.set(key, value);
      },
      remove: async (keys: readonly string[]) => {
        for (const key of keys) values.delete(key);
      },
    },
  };
}

export async function measureHistory({ runs = 7, days = 90 } = {}): Promise<Figure[]> {
  const whitelist = canonicalEntries(syntheticList(100_000, 11, 'w').map((d) => d.toLowerCase()));
  const blocklist = canonicalEntries(syntheticList(100_000, 12, 'b').map((d) => d.toLowerCase()));
  const next = random(7);
  const older: Sections = { [WHITE]: whitelist, [BLOCK]: blocklist };
  const newer: Sections = {
    [WHITE]: churn(whitelist, 0.01, next, 1, 'w'),
    [BLOCK]: churn(blocklist, 0.01, next, 1, 'b'),
  };
  diffSections(older, newer);
  const diffMs: number[] = [];
  let lines = 0;
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    lines = diffSections(older, newer).length;
    diffMs.push(performance.now() - start);
  }

  // 90 days through the store itself (deltas, deflated, as written to storage.local).
  const { values, storage } = memoryStorage();
  let day = 0;
  let id = 0;
  const store = createHistoryStore({
    storage,
    exclusively: (_name, fn) => fn(),
    withRoom: (write) => write(),
    isQuotaError: () => false,
    newId: () => `s${++id}`,
    now: () => day * DAY_MS,
    budget: Number.POSITIVE_INFINITY,
  });
  let sections: Sections = older;
  const writeMs: number[] = [];
  for (day = 1; day <= days; day++) {
    if (day > 1)
      sections = {
        [WHITE]: churn(sections[WHITE]!, 0.01, next, day, 'w'),
        [BLOCK]: churn(sections[BLOCK]!, 0.01, next, day, 'b'),
      };
    const start = performance.now();
    await store.add('bench', { takenAt: day * DAY_MS, reason: 'daily', sections }, days + 1);
    writeMs.push(performance.now() - start);
  }
  const storedChars = [...values.values()].reduce<number>(
    (sum, value) => sum + JSON.stringify(value).length,
    0,
  );
  const kept = (await store.list('bench')).length;
  const mb = storedChars / (1024 * 1024);
  const plainMb = (JSON.stringify(older).length + (days - 1) * 2 * 2 * 1_000 * 22) / (1024 * 1024);

  // A rollback of 1,000 changes, paced as the product paces it, on a virtual clock: the figure is
  // the time the pace spreads them over and the calls made in any one second, not a wait here.
  const client = createFakeClient('A');
  let job: RollbackJob = {
    v: 1,
    id: 'bench',
    account: 'bench',
    snapshotTakenAt: 0,
    createdAt: 0,
    steps: Array.from({ length: 1_000 }, (_, i) => ({
      kind: 'whitelist' as const,
      scope: 'default',
      entry: `r${i}.example`,
      op: 'add' as const,
    })),
    next: 0,
    refused: [],
    attempts: 0,
    nextAttemptAt: 0,
  };
  let clock = 0;
  const progressSeen: number[] = [];
  const realStart = performance.now();
  await runRollback('bench', client, {
    read: async () => job,
    write: async (next) => {
      job = next;
    },
    now: () => clock,
    sleep: async (ms) => {
      clock += ms;
    },
    onProgress: (next) => progressSeen.push(next.next),
  });
  const realMs = performance.now() - realStart;
  const spreadMinutes = clock / 60_000;
  const perSecond = new Map<number, number>();
  for (let i = 0; i < 1_000; i++) {
    const second = Math.floor((i * ROLLBACK_PACE_MS) / 1000);
    perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
  }
  const busiest = Math.max(...perSecond.values());

  return [
    figure(
      'history-rollback-1000-min',
      'Rollback of 1,000 changes, paced',
      'min',
      [spreadMinutes],
      below(10, '< 10 min'),
      `${ROLLBACK_CALLS_PER_SECOND} calls a second (one every ${ROLLBACK_PACE_MS} ms), at most ${busiest} in any second; ${progressSeen.length} progress updates; ${client.calls.length} calls made; the rollback's own work besides the waits: ${Math.round(realMs)} ms in Node`,
    ),
    figure(
      'history-diff-ms',
      'History diff, 2 × 100k entries',
      'ms',
      diffMs,
      below(200, '< 200 ms'),
      `1 % changed: ${lines.toLocaleString('en')} lines; sorted merge (lib/history/diff.ts), in Node`,
    ),
    figure(
      'history-90-days-mb',
      `History, ${days} daily snapshots, 2 × 100k, 1 % churn`,
      'MB',
      [mb],
      below(10, '< 10 MB'),
      `${kept} snapshots kept, ${storedChars.toLocaleString('en')} characters stored (deflated deltas; about ${plainMb.toFixed(1)} MB as plain JSON); the per-account budget is ${(HISTORY_BUDGET / 1024 / 1024).toFixed(0)} MB; a daily snapshot's store takes ${Math.round(writeMs.slice(1).reduce((a, b) => a + b, 0) / (days - 1))} ms`,
    ),
  ];
}
