/**
 * A rollback's calls are "a rollback from this browser" in What changed (docs/history.md, "Who
 * made it"), each as soon as it is made: a rollback still waiting to send the rest included.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { journal } from '@/lib/history';
import {
  diffFromNow,
  queueRollback,
  readHistory,
  resumeRollback,
  snapshotAccount,
} from '@/lib/history/service';
import { createFakeClient, offline } from '../../fakes/fake-client';
import { testAccount } from '../account-ids';

const ACCOUNT = testAccount('A').id;

beforeEach(() => {
  fakeBrowser.reset();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.UTC(2026, 10, 1, 9, 0, 0));
});
afterEach(() => vi.useRealTimers());

const later = () => vi.setSystemTime(Date.now() + 60_000);

describe('a rollback in what changed', () => {
  it("the calls it made are this browser's (rollback) while the rest waits for a retry", async () => {
    const service = createFakeClient('A');
    service.state.lists.whitelist.default = new Set(['school.example']);
    const first = await snapshotAccount(ACCOUNT, service, 'manual');
    later();
    // Elsewhere: the dashboard takes school.example off and puts games.example on.
    await service.deleteDomain('whitelist', 'school.example', 'default');
    await service.addDomain('whitelist', 'games.example', 'default');
    await snapshotAccount(ACCOUNT, service, 'manual');
    later();

    const diff = (await diffFromNow(ACCOUNT, service, first.outcome.stored ? first.outcome.id : ''))!;
    await queueRollback(ACCOUNT, service, diff.snapshot, diff.lines, fakeBrowser.alarms);
    // Removals go first: games.example comes off, then putting school.example back fails for now.
    service.failNext('addDomain', offline());
    const outcome = await resumeRollback(ACCOUNT, service, fakeBrowser.alarms, { force: true });
    expect(outcome.state).toBe('waiting');
    later();
    await snapshotAccount(ACCOUNT, service, 'manual');

    const { rows } = await readHistory(ACCOUNT, service);
    const newest = rows.filter((row) => row.snapshotId === rows[0]!.snapshotId);
    expect(newest).toMatchObject([
      { entry: 'games.example', change: 'removed', madeHere: { surface: 'rollback' } },
    ]);
    expect(rows.filter((row) => row.snapshotId !== rows[0]!.snapshotId).map((row) => row.madeHere)).toEqual([
      undefined,
      undefined,
    ]);
    expect(await journal.read(ACCOUNT)).toMatchObject([
      { kind: 'whitelist', scope: 'default', entry: 'games.example', op: 'remove', surface: 'rollback' },
    ]);
  });

  it('the snapshot a finished rollback takes is marked as taken after it, not on demand', async () => {
    const service = createFakeClient('A');
    const first = await snapshotAccount(ACCOUNT, service, 'manual');
    later();
    await service.addDomain('whitelist', 'games.example', 'default');
    await snapshotAccount(ACCOUNT, service, 'manual');
    later();

    const diff = (await diffFromNow(ACCOUNT, service, first.outcome.stored ? first.outcome.id : ''))!;
    await queueRollback(ACCOUNT, service, diff.snapshot, diff.lines, fakeBrowser.alarms);
    expect((await resumeRollback(ACCOUNT, service, fakeBrowser.alarms, { force: true })).state).toBe('done');

    const { snapshots } = await readHistory(ACCOUNT, service);
    // (The one before it is not stored: nothing differed from the last.)
    expect(snapshots.map((snapshot) => snapshot.reason)).toEqual(['after-rollback', 'manual', 'manual']);
  });
});
