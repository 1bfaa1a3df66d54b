/**
 * What this browser remembers about the account because the service cannot report it: the TLDs
 * blocked from here and the default block last set from here (per scope, `scopeKey`), and the log
 * days whose raw lines were deleted from here. Each is read, changed and written back.
 */
import { addedTldsItem, defaultBlockItem, deletedLogDaysItem } from './storage';

/** Deleted log days kept, the latest last. */
const DELETED_DAYS_KEPT = 200;

export async function rememberBlockedTld(scope: string, tld: string): Promise<void> {
  const all = await addedTldsItem.getValue();
  const mine = new Set(all[scope] ?? []);
  mine.add(tld);
  await addedTldsItem.setValue({ ...all, [scope]: [...mine].sort() });
}

export async function rememberDefaultBlock(scope: string, enabled: boolean, at: number): Promise<void> {
  const all = await defaultBlockItem.getValue();
  await defaultBlockItem.setValue({ ...all, [scope]: { enabled, at } });
}

export async function rememberDeletedLogDay(date: string): Promise<void> {
  const days = (await deletedLogDaysItem.getValue()).filter((day) => day !== date);
  await deletedLogDaysItem.setValue([...days, date].slice(-DELETED_DAYS_KEPT));
}
