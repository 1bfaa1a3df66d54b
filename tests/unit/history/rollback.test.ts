import { describe, expect, it } from 'vitest';
import { diffSections } from '@/lib/history/diff';
import { sectionKey } from '@/lib/history/model';
import { planRollback, profilesOf, type RollbackJob, runRollback } from '@/lib/history/rollback';
import { createFakeClient, refused } from '../../fakes/fake-client';

const snapshot = {
  [sectionKey('profiles', '')]: ['default', 'kids'],
  [sectionKey('categories', 'kids')]: ['category_adult'],
  [sectionKey('whitelist', 'kids')]: ['a.com'],
  [sectionKey('defaultBlock', 'kids')]: ['on'],
  [sectionKey('tlds', 'kids')]: ['.zip'],
};
const now = {
  [sectionKey('profiles', '')]: ['default', 'guests', 'kids'],
  [sectionKey('categories', 'kids')]: [],
  [sectionKey('whitelist', 'kids')]: ['b.com'],
  [sectionKey('defaultBlock', 'kids')]: [],
  [sectionKey('tlds', 'kids')]: ['.top', '.zip'],
};

function jobOf(steps: RollbackJob['steps']): RollbackJob {
  return {
    v: 1,
    id: 'j',
    account: 'acc',
    snapshotTakenAt: 0,
    createdAt: 0,
    steps,
    next: 0,
    refused: [],
    attempts: 0,
    nextAttemptAt: 0,
  };
}

describe('rollback plan', () => {
  it('turns each line around, names the TLD block it cannot remove, and deletes profiles last', () => {
    const plan = planRollback(diffSections(snapshot, now));
    expect(plan.impossible).toEqual([{ kind: 'tlds', scope: 'kids', entry: '.top', op: 'remove' }]);
    expect(plan.steps.map((s) => `${s.op} ${s.kind} ${s.entry}`)).toEqual([
      'remove whitelist b.com',
      'add categories category_adult',
      'add defaultBlock on',
      'add whitelist a.com',
      'remove profiles guests',
    ]);
    expect(profilesOf(plan.steps)).toEqual(['guests', 'kids']);
  });

  it('makes the calls that put the snapshot back; a refusal is recorded and the rest goes on', async () => {
    const client = createFakeClient('A', {
      profiles: ['default', 'guests', 'kids'],
      lists: { whitelist: { kids: new Set(['b.com']) }, blocklist: {} },
    });
    let stored = jobOf(planRollback(diffSections(snapshot, now)).steps);
    client.failNext('addDomain', refused('not allowed'));
    const outcome = await runRollback('acc', client, {
      read: async () => stored,
      write: async (job) => {
        stored = job;
      },
      now: () => 0,
      sleep: async () => undefined,
    });
    expect(outcome.state).toBe('done');
    expect(stored.refused).toEqual([{ index: 3, message: expect.stringContaining('not allowed') }]);
    expect(client.state.profiles).toEqual(['default', 'kids']);
    expect([...client.state.blocked.kids!]).toEqual(['category_adult']);
    expect(client.state.defaultBlock.kids).toBe(true);
    expect([...(client.state.lists.whitelist.kids ?? [])]).toEqual([]);
  });

  it('waits the pace between calls and sends nothing for another account', async () => {
    const client = createFakeClient('A');
    let stored = jobOf([
      { kind: 'whitelist', scope: 'default', entry: 'a.com', op: 'add' },
      { kind: 'whitelist', scope: 'default', entry: 'b.com', op: 'add' },
    ]);
    const slept: number[] = [];
    const deps = {
      read: async () => stored,
      write: async (job: RollbackJob) => {
        stored = job;
      },
      now: () => 0,
      sleep: async (ms: number) => {
        slept.push(ms);
      },
    };
    expect((await runRollback('other', client, deps)).state).toBe('none');
    expect(client.calls).toEqual([]);
    await runRollback('acc', client, deps);
    expect(slept).toEqual([250]);
  });
});
