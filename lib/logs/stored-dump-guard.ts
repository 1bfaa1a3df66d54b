import { lastLogDumpItem } from '@/lib/settings/storage';
import { createDumpGuard } from './dump-guard';

/** The guard over the stored time; Web Locks make check-and-claim atomic across extension pages. */
export function createStoredDumpGuard() {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return createDumpGuard({
    readLastAt: async () => (await lastLogDumpItem.getValue())?.at ?? null,
    writeLastAt: (at) => lastLogDumpItem.setValue(at === null ? null : { at }),
    exclusive: locks
      ? <T>(task: () => Promise<T>) =>
          locks.request('dns-filter-logs-dump-guard', task) as unknown as Promise<T>
      : undefined,
  });
}
