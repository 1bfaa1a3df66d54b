/**
 * Writing a checked settings backup (./parse.ts): each setting on its own, then the file's other
 * accounts, once the user confirmed every new destination.
 *
 * A file that would change where the key goes (the service origin) or which services tell the
 * address to register (the IP lookup URLs) is applied only once the user confirmed the old and new
 * values: the worker and the options page call the service as soon as the connection is stored, so
 * nothing is stored before.
 *
 * Importing accounts never merges two accounts silently: an account of the file with a key is
 * the same account as one of this browser only when origin, API form and key are all the same
 * (its settings are then updated, its key kept); one without a key only when origin, form and
 * name are the same. Any other becomes a new account (its name made unique), up to
 * MAX_ACCOUNTS; the report says which happened to each. Every new service origin is confirmed
 * with the others before anything is written.
 */
import {
  type AccountsState,
  accountValue,
  displayName,
  hostOf,
  readAccounts,
  updateAccounts,
  writeAccountValue,
} from '@/lib/accounts/store';
import { DIAGNOSIS_PERMISSIONS, type PermissionSet } from '@/lib/diagnosis/permissions';
import { t, tn } from '@/lib/i18n';
import { accountIdentity, originOf } from '@/lib/identity/identity';
import { randomId } from '@/lib/outbox/lease';
import {
  changeSettingsKeepingHostPermissions,
  type HostPermissionsApi,
  originsNeeded,
} from '@/lib/permissions/host-permission';
import { importAccountSchedules } from '@/lib/schedules/backup';
import {
  ACCOUNT_NAME_MAX,
  connectionItem,
  DEFAULT_BASE_URL,
  dynamicIpSettingsItem,
  MAX_ACCOUNTS,
} from '@/lib/settings/storage';
import type { BackupAccount, BackupSettings } from './format';
import type { ParsedBackup, ReportLine } from './parse';
import { ACCOUNT_SETTING_ITEMS, DEFINITIONS, SETTING_NAMES, type SettingDefinition } from './settings';

export interface ImportReport {
  imported: ReportLine[];
  /** Refused by the checks, or could not be saved: their current values stay. */
  refused: ReportLine[];
  ignored: string[];
  /** Settings the file does not hold: unchanged. */
  notInFile: ReportLine[];
}

/** A setting of the file that changes where something is sent, with both values for the user. */
export interface DestinationChange {
  /** 'account': the service of another account of the file (lib/accounts), new to this browser. */
  name: 'connection' | 'dynamicIp' | 'account';
  label: string;
  /** What this browser uses now, and what the file would set. */
  before: string;
  after: string;
}

/**
 * The accepted settings that change a destination: the service origin (the key goes there), or
 * IP lookup URLs this browser does not use yet (their answer is the address registered). A new
 * API form on the same origin, or lookup URLs it already uses, change nothing of the kind.
 */
export function destinationChanges(
  accepted: Partial<BackupSettings>,
  current: { connection: { baseUrl: string }; dynamicIp: { lookupUrls: readonly string[] } },
): DestinationChange[] {
  const changes: DestinationChange[] = [];
  if (accepted.connection && originOf(accepted.connection.baseUrl) !== originOf(current.connection.baseUrl)) {
    changes.push({
      name: 'connection',
      label: t('backup.destination.service'),
      before: originOf(current.connection.baseUrl),
      after: originOf(accepted.connection.baseUrl),
    });
  }
  const urls = accepted.dynamicIp?.lookupUrls;
  if (urls?.some((url) => !current.dynamicIp.lookupUrls.includes(url))) {
    changes.push({
      name: 'dynamicIp',
      label: t('backup.destination.lookups'),
      before: current.dynamicIp.lookupUrls.join(', '),
      after: urls.join(', '),
    });
  }
  return changes;
}

export interface ApplyDeps {
  /**
   * Shows the changes of destination and resolves true only when the user confirmed them. Asked
   * before anything is written; false leaves every setting as it is.
   */
  confirmDestinations: (changes: DestinationChange[]) => Promise<boolean>;
  /** To give back the host permissions the replaced settings held; default: none given back. */
  permissions?: HostPermissionsApi;
}

export type ImportOutcome =
  | ({ cancelled: false } & ImportReport)
  /** The user did not confirm the changes of destination: nothing was written. */
  | { cancelled: true; changes: DestinationChange[] };

/**
 * Writes the accepted settings, each on its own: one that cannot be saved leaves the others. When
 * the file changes a destination, nothing is written until `confirmDestinations` says yes.
 */
export async function applyBackup(
  parsed: Extract<ParsedBackup, { ok: true }>,
  deps: ApplyDeps,
): Promise<ImportOutcome> {
  const [connection, dynamicIp] = await Promise.all([
    connectionItem.getValue(),
    dynamicIpSettingsItem.getValue(),
  ]);
  const changes = [
    ...destinationChanges(parsed.accepted, { connection, dynamicIp }),
    ...accountDestinationChanges(parsed, await readAccounts()),
  ];
  if (changes.length > 0 && !(await deps.confirmDestinations(changes))) {
    return { cancelled: true, changes };
  }
  const write = async () => {
    const report = await writeSettings(parsed);
    for (const account of parsed.accounts) {
      for (const line of await importAccount(account)) {
        (line.refused ? report.refused : report.imported).push(line.line);
      }
    }
    return report;
  };
  const report = deps.permissions
    ? await changeSettingsKeepingHostPermissions({ permissions: deps.permissions }, write)
    : await write();
  return { cancelled: false, ...report };
}

/**
 * The services of the file's other accounts that no account of this browser uses yet, nor the
 * file's own settings: the keys of those accounts would go there. Lookup services new to this
 * browser, for an account that registers, likewise.
 */
function accountDestinationChanges(
  parsed: Extract<ParsedBackup, { ok: true }>,
  state: AccountsState,
): DestinationChange[] {
  const knownOrigins = new Set([
    originOf(DEFAULT_BASE_URL),
    ...state.accounts.map((account) => originOf(account.connection.baseUrl)),
    ...(parsed.accepted.connection ? [originOf(parsed.accepted.connection.baseUrl)] : []),
  ]);
  const knownLookups = new Set([
    ...state.accounts.flatMap((account) => account.dynamicIp.lookupUrls),
    ...(parsed.accepted.dynamicIp?.lookupUrls ?? []),
  ]);
  const changes: DestinationChange[] = [];
  for (const account of parsed.accounts) {
    const name = displayName(account);
    const origin = originOf(account.connection.baseUrl);
    if (!knownOrigins.has(origin)) {
      changes.push({
        name: 'account',
        label: t('backup.destination.account', { name }),
        before: '',
        after: origin,
      });
      knownOrigins.add(origin);
    }
    const urls = account.dynamicIp?.enabled ? account.dynamicIp.lookupUrls : [];
    if (urls.some((url) => !knownLookups.has(url))) {
      changes.push({
        name: 'dynamicIp',
        label: t('backup.destination.accountLookups', { name }),
        before: '',
        after: urls.join(', '),
      });
      for (const url of urls) knownLookups.add(url);
    }
  }
  return changes;
}

/** The settings `account` carries, with the item each is stored in. */
function accountSettings(account: BackupAccount) {
  const names = Object.keys(ACCOUNT_SETTING_ITEMS) as (keyof typeof ACCOUNT_SETTING_ITEMS)[];
  return names.filter((name) => account[name]).map((name) => [name, ACCOUNT_SETTING_ITEMS[name]] as const);
}

interface AccountLine {
  line: ReportLine;
  refused: boolean;
}

/**
 * Imports one of the file's other accounts: updates the account of this browser that is the same
 * (origin, form and key; without a key in the file, origin, form and name), or adds it as a new
 * account, then its schedules (a line of their own: refused alone). Never gives one account
 * another's key.
 */
async function importAccount(account: BackupAccount): Promise<AccountLine[]> {
  const wanted = displayName(account);
  const label = t('backup.account', { name: wanted });
  const line = (detail: string, refused = false): AccountLine => ({
    line: { name: 'accounts' as const, label, detail },
    refused,
  });
  const withSchedules = async (accountId: string, accountLine: AccountLine): Promise<AccountLine[]> => {
    if (account.schedules === undefined) return [accountLine];
    try {
      const written = await importAccountSchedules(accountId, account.schedules);
      return [
        accountLine,
        written.ok
          ? line(
              t('schedules.backupAccount', {
                count: tn('schedules.backupCount', account.schedules.rules.length),
              }),
            )
          : line(t('schedules.backupAccountRefused', { reason: written.message }), true),
      ];
    } catch {
      return [accountLine, line(t('schedules.backupAccountRefused', { reason: t('backup.notSaved') }), true)];
    }
  };
  const state = await readAccounts();
  const identities = await Promise.all(state.accounts.map((stored) => accountIdentity(stored)));
  const fileIdentity =
    account.apiKey === undefined
      ? null
      : (await accountIdentity({ key: account.apiKey, connection: account.connection })).id;
  const same = state.accounts.find((stored, index) =>
    fileIdentity !== null
      ? identities[index]!.id === fileIdentity
      : originOf(stored.connection.baseUrl) === originOf(account.connection.baseUrl) &&
        stored.connection.form === account.connection.form &&
        displayName(stored) === wanted,
  );
  try {
    if (same) {
      for (const [name, item] of accountSettings(account)) {
        const merge = (DEFINITIONS[name] as SettingDefinition<unknown>).merge;
        const value = merge ? merge(accountValue(same, item), account[name]) : account[name];
        // The name ties the value's type to the item's, which TypeScript does not follow.
        await writeAccountValue(same.id, item, value as never);
      }
      return await withSchedules(same.id, line(t('backup.accountUpdated', { name: displayName(same) })));
    }
    const taken = new Set(state.accounts.map((stored) => displayName(stored).toLocaleLowerCase()));
    let name = wanted;
    for (let n = 2; taken.has(name.toLocaleLowerCase()); n++)
      name = `${wanted} (${n})`.slice(-ACCOUNT_NAME_MAX);
    const id = randomId();
    const added = await updateAccounts((now, draft) => {
      if (now.accounts.length >= MAX_ACCOUNTS) return null;
      const parked: Record<string, unknown> = { [connectionItem.key]: account.connection };
      for (const [name, item] of accountSettings(account)) parked[item.key] = account[name];
      draft.entries.push({
        id,
        ...(name === hostOf(account.connection.baseUrl) && account.name === undefined ? {} : { name }),
        createdAt: Date.now(),
        parked,
      });
      if (account.apiKey) draft.keys[id] = account.apiKey;
      return { draft, result: true };
    });
    if (!added) return [line(t('accounts.tooMany', { max: MAX_ACCOUNTS }), true)];
    return await withSchedules(
      id,
      line(t(account.apiKey ? 'backup.accountAdded' : 'backup.accountAddedNoKey', { name })),
    );
  } catch {
    return [line(t('backup.notSaved'), true)];
  }
}

async function writeSettings(parsed: Extract<ParsedBackup, { ok: true }>): Promise<ImportReport> {
  const imported: ReportLine[] = [];
  const refused = [...parsed.refused];
  const notInFile: ReportLine[] = [];
  for (const name of SETTING_NAMES) {
    const definition = DEFINITIONS[name] as SettingDefinition<unknown>;
    const line = (detail: string): ReportLine => ({ name, label: definition.label(), detail });
    const value = parsed.accepted[name];
    if (value === undefined) {
      if (!refused.some((refusal) => refusal.name === name)) {
        notInFile.push(line(t(name === 'apiKey' ? 'backup.notInFileKey' : 'backup.notInFile')));
      }
      continue;
    }
    try {
      const next = definition.merge ? definition.merge(await definition.item.getValue(), value) : value;
      const merged = definition.checkMerged?.(next);
      if (merged && !merged.ok) {
        refused.push(line(merged.message));
        continue;
      }
      await definition.item.setValue(next);
      imported.push(line(definition.describe(value)));
    } catch {
      refused.push(line(t('backup.notSaved')));
    }
  }
  return { imported, refused, ignored: parsed.ignored, notInFile };
}

/**
 * What the imported settings need the browser to grant: the service's origin, the IP lookup
 * services' origins while dynamic IP is on, page diagnosis's permissions while it is on. Browsers
 * grant them only during a click, so the options page asks with a button after the import.
 */
export function permissionsNeeded(
  settings: Partial<BackupSettings>,
  accounts: readonly BackupAccount[] = [],
): Required<PermissionSet> {
  const origins = new Set(originsNeeded([settings, ...accounts]));
  const permissions = new Set<string>();
  if (settings.diagnosis?.enabled) {
    for (const name of DIAGNOSIS_PERMISSIONS.permissions) permissions.add(name);
    for (const origin of DIAGNOSIS_PERMISSIONS.origins) origins.add(origin);
  }
  return { origins: [...origins], permissions: [...permissions] };
}
