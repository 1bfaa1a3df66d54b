/**
 * The History section's services for the account the options page shows (components/options/
 * history/HistorySection.tsx takes them as one object, so its tests pass fakes).
 */
import { browser } from 'wxt/browser';
import type { DnsFilterApi } from '@/lib/api/types';
import type { DiffLine } from './diff';
import { readHistorySettings } from './index';
import type { RollbackJob } from './rollback';
import {
  diffFromNow,
  queueRollback,
  readHistory,
  resumeRollback,
  type SnapshotDiff,
  saveHistorySettings,
  snapshotAccount,
} from './service';

export function historyServicesFor(account: string, client: DnsFilterApi) {
  return {
    account,
    client,
    read: () => readHistory(account, client),
    take: async () => ({ stored: (await snapshotAccount(account, client, 'manual')).outcome.stored }),
    diff: (snapshotId: string) => diffFromNow(account, client, snapshotId),
    /**
     * Queues the rollback, then sends it from this page while it is open (progress on screen);
     * closed meanwhile, the worker's alarm sends the rest.
     */
    async rollBack(
      diff: SnapshotDiff,
      lines: readonly DiffLine[],
      onProgress: (job: RollbackJob) => void,
    ): Promise<RollbackJob | null> {
      const queued = await queueRollback(account, client, diff.snapshot, lines, browser.alarms);
      onProgress(queued);
      const outcome = await resumeRollback(account, client, browser.alarms, { force: true, onProgress });
      return outcome.state === 'none' ? null : outcome.job;
    },
    readSettings: readHistorySettings,
    saveSettings: saveHistorySettings,
  };
}
