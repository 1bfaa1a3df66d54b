// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { ApiForm } from '@/lib/api/types';
import { diffSections } from '@/lib/history/diff';
import { planRollback, type RollbackJob, runRollback } from '@/lib/history/rollback';
import { takeSnapshot } from '@/lib/history/take';
import { useEmulator } from './helpers';

const ctx = useEmulator();
const NOTHING_KNOWN = { tlds: {}, defaultBlock: {} };

function jobStorage() {
  let stored: RollbackJob | null = null;
  const writes: number[] = [];
  return {
    writes,
    get: () => stored,
    deps: {
      read: async () => stored,
      write: async (job: RollbackJob) => {
        stored = structuredClone(job);
        writes.push(job.next);
      },
      sleep: async () => undefined,
    },
  };
}

describe.each(['A', 'B'] as ApiForm[])('rollback against the emulator, Form %s', (form) => {
  it('takes the account back to the snapshot; a failure in the middle holds the rest, which resumes', async () => {
    const api = ctx.client(form);
    const profile = form === 'A' ? 'kids1' : undefined;
    const before = await takeSnapshot(api, NOTHING_KNOWN, 'manual');

    // Changed elsewhere (the dashboard, another browser).
    for (const domain of ['one.example', 'two.example', 'three.example'])
      await api.addDomain('whitelist', domain, profile);
    await api.addDomain('blocklist', 'four.example', profile);
    await api.addNetwork({ ip: '198.51.100.77', label: 'Cabin', ...(profile ? { profile } : {}) });
    const now = await takeSnapshot(api, NOTHING_KNOWN, 'before-rollback');

    const plan = planRollback(diffSections(before.sections, now.sections));
    expect(plan.steps).toHaveLength(5);
    expect(plan.steps.every((step) => step.op === 'remove')).toBe(true);

    let clock = 1_000;
    const storage = jobStorage();
    await storage.deps.write({
      v: 1,
      id: 'job',
      account: 'acc',
      snapshotTakenAt: before.takenAt,
      createdAt: clock,
      steps: plan.steps,
      next: 0,
      refused: [],
      attempts: 0,
      nextAttemptAt: clock,
    });
    // Removals go in section order (blocklist, networks, whitelist): the third call, the first
    // whitelist removal, fails as a busy service does, and everything after it must wait.
    expect(plan.steps.map((step) => step.kind)).toEqual([
      'blocklist',
      'networks',
      'whitelist',
      'whitelist',
      'whitelist',
    ]);
    ctx.emulator.admin.injectFault({ kind: 'http-500', action: 'whitelist/delete', count: 1 });
    const progress: number[] = [];
    const deps = {
      ...storage.deps,
      now: () => clock,
      onProgress: (job: RollbackJob) => progress.push(job.next),
      saveEvery: 1,
    };
    const first = await runRollback('acc', api, deps);
    expect(first.state).toBe('waiting');
    if (first.state !== 'waiting') return;
    const stoppedAt = first.job.next;
    expect(stoppedAt).toBe(2);
    expect(first.job.lastError).toBeTruthy();
    // Nothing after the failed step was sent.
    const middle = await takeSnapshot(api, NOTHING_KNOWN, 'manual');
    const left = planRollback(diffSections(before.sections, middle.sections)).steps;
    expect(left).toHaveLength(plan.steps.length - stoppedAt);

    // Not before its backoff; then it resumes where it stopped.
    expect((await runRollback('acc', api, deps)).state).toBe('not-yet');
    clock = first.job.nextAttemptAt;
    const second = await runRollback('acc', api, deps);
    expect(second.state).toBe('done');
    expect(progress.at(-1)).toBe(plan.steps.length);

    const after = await takeSnapshot(api, NOTHING_KNOWN, 'manual');
    expect(after.sections).toEqual(before.sections);
  });
});
