/**
 * Making the settings backup (./format.ts says what it holds and what it leaves out) from this
 * browser's settings and accounts: the API key only when the user ticks "Include the API key", the
 * pages list entries were added on only when the user ticks "Include the pages entries were added
 * on".
 */
import { accountValue, readAccounts, type StoredAccount } from '@/lib/accounts/store';
import { localDate } from '@/lib/cache/freshness';
import type { NotesByAccount } from '@/lib/notes/store';
import { policyAccountsItem } from '@/lib/policy/stored';
import { schedulesBackupOf } from '@/lib/schedules/backup';
import type { AccountSchedules } from '@/lib/schedules/schema';
import { schedulesItem } from '@/lib/schedules/store';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  type BackupAccount,
  type BackupFile,
  type BackupSettings,
} from './format';
import { ACCOUNT_SETTING_ITEMS, DEFINITIONS, SETTING_NAMES } from './settings';

export interface CollectOptions {
  /** Put the API key in the file: whoever has the file can then run the account. */
  includeKey: boolean;
  /**
   * Put in the file the host of the page each list entry was added on (lib/notes): where the user
   * browsed. Left out by default; the records keep when, from where and their notes.
   */
  includePages?: boolean;
  now?: Date;
}

/**
 * Today's settings of this browser, as a backup. The key only when asked for and set; the pages
 * list entries were added on only when asked for.
 */
export async function collectBackup({
  includeKey,
  includePages = false,
  now = new Date(),
}: CollectOptions): Promise<BackupFile> {
  const [{ accounts, activeId }, managed, everySchedules] = await Promise.all([
    readAccounts(),
    policyAccountsItem.getValue(),
    schedulesItem.getValue(),
  ]);
  // The key of an account the administrator's policy set up is the organization's: it never goes
  // into a file (docs/managed-deployment.md).
  const keyOf = (id: string) => includeKey && managed[id] === undefined;
  const settings: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) {
    if (name === 'apiKey' && !keyOf(activeId)) continue;
    settings[name] = await DEFINITIONS[name].item.getValue();
  }
  if (settings.apiKey === '') delete settings.apiKey;
  // Where list entries came from, and their notes, for every account (lib/notes); by the account
  // identity (origin, form and the key's fingerprint, never the key), so an import finds the account.
  if (!includePages) {
    settings.listNotes = Object.fromEntries(
      Object.entries(settings.listNotes as NotesByAccount).map(([account, entries]) => [
        account,
        entries.map(({ page: _page, ...rest }) => rest),
      ]),
    );
  }
  const others = accounts
    .filter((account) => !account.active)
    .map((account) => exportedAccount(account, keyOf(account.id), everySchedules[account.id]));
  return {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    exportedAt: now.toISOString(),
    settings: settings as BackupSettings,
    ...(others.length > 0 ? { accounts: others } : {}),
  };
}

/**
 * An account that is not the active one, as the file holds it. The key only when asked for and
 * set; its schedules when it has any stored (docs/schedules.md, "Storage").
 */
function exportedAccount(
  account: StoredAccount,
  includeKey: boolean,
  schedules: AccountSchedules | undefined,
): BackupAccount {
  return {
    ...(account.name === undefined ? {} : { name: account.name }),
    connection: account.connection,
    ...(includeKey && account.key !== '' ? { apiKey: account.key } : {}),
    ...Object.fromEntries(
      Object.entries(ACCOUNT_SETTING_ITEMS).map(([name, item]) => [name, accountValue(account, item)]),
    ),
    ...(schedules === undefined ? {} : { schedules: schedulesBackupOf(schedules) }),
  } as BackupAccount;
}

export function backupText(backup: BackupFile): string {
  return `${JSON.stringify(backup, null, 2)}\n`;
}

/** `dns-filter-companion-settings-2025-01-31.json`, the local date of the export. */
export function backupFileName(now: Date = new Date()): string {
  return `dns-filter-companion-settings-${localDate(now)}.json`;
}
