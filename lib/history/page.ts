/**
 * The History section's services for the account the options page shows (components/options/
 * history/HistorySection.tsx takes them as one object, so its tests pass fakes).
 */
import { browser } from 'wxt/browser';
import type { DnsFilterApi } from '@/lib/api/types';
import type { DiffLine } from './diff';
import { readHistorySettings } from './index';
import type { Snapshot } from './model';
import type { RollbackJob } from './rollback';
import {
  accountNow,
  diffFromNow,
  queueRollback,
  readHistory,
  resumeRollback,
  type SnapshotDiff,
  saveHistorySettings,
  snapshotAccount,
} from './service';

/**
 * How long the account taken when History opens stands for "now" in a comparison: taking it
 * means the whole lists through the service, so it is taken before the click, and taken again
 * when older (docs/history.md, "Diff").
 */
const NOW_KEPT_MS = 60_000;

export function historyServicesFor(account: string, client: DnsFilterApi, clock: () => number = Date.now) {
  let taken: { at: number; snapshot: Promise<Snapshot> } | null = null;
  const takeNow = () => {
    const snapshot = accountNow(client);
    const entry = { at: clock(), snapshot };
    taken = entry;
    // A failed read is not kept: the comparison reads again, and says why if it fails too.
    snapshot.catch(() => {
      if (taken === entry) taken = null;
    });
    return snapshot;
  };
  return {
    account,
    client,
    read: () => readHistory(account, client),
    /** The section opened: the account now is read at once, so a comparison need not wait for it. */
    warm: () => void takeNow().catch(() => undefined),
    take: async () => {
      taken = null;
      return { stored: (await snapshotAccount(account, client, 'manual')).outcome.stored };
    },
    diff: (snapshotId: string) =>
      diffFromNow(
        account,
        client,
        snapshotId,
        taken !== null && clock() - taken.at <= NOW_KEPT_MS ? taken.snapshot : takeNow(),
      ),
    /**
     * Queues the rollback, then sends it from this page while it is open (progress on screen);
     * closed meanwhile, the worker's alarm sends the rest.
     */
    async rollBack(
      diff: SnapshotDiff,
      lines: readonly DiffLine[],
      onProgress: (job: RollbackJob) => void,
    ): Promise<RollbackJob | null> {
      taken = null;
      const queued = await queueRollback(account, client, diff.snapshot, lines, browser.alarms);
      onProgress(queued);
      const outcome = await resumeRollback(account, client, browser.alarms, { force: true, onProgress });
      return outcome.state === 'none' ? null : outcome.job;
    },
    readSettings: readHistorySettings,
    saveSettings: saveHistorySettings,
  };
}
