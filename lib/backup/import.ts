/**
 * Settings backup: a JSON file the options page exports and imports.
 *
 * Settings (exported): the service connection, the dynamic IP settings, the right-click menu and
 * page diagnosis switches, the theme, the popup's chosen profile, and the records the service
 * cannot give back (TLDs added and default block set from this browser), and where the list
 * entries added from this browser came from, with their notes (lib/notes, every account's; merged
 * on import), each account's by its identity: origin, form and a fingerprint of its key (never
 * the key). The API key only when the user ticks "Include the API key"; the host of the page each
 * entry was added on only when the user ticks "Include the pages entries were added on" (where
 * the user browsed: PRIVACY.md says what the file holds). `settings` holds the active account's
 * and the browser's; `accounts` (version 2) every other account of this browser (lib/accounts),
 * each with its name, connection, settings, records and (when asked) key.
 *
 * Importing accounts never merges two accounts silently: an account of the file with a key is
 * the same account as one of this browser only when origin, API form and key are all the same
 * (its settings are then updated, its key kept); one without a key only when origin, form and
 * name are the same. Any other becomes a new account (its name made unique), up to
 * MAX_ACCOUNTS; the report says which happened to each. Every new service origin is confirmed
 * with the others before anything is written.
 *
 * Not settings (never exported): the outbox and the changes it settled, leases, caches (lists,
 * profiles, today's statistics), the registration outcome and the addresses this browser
 * registered (a browser importing them would delete this one's address as "its previous one"),
 * the hourly raw log guard and the deleted-days note, page diagnosis records, temporary allows
 * (timed work of this browser), the profile the options page is browsing, and test-only items.
 *
 * Import is a trust boundary: the file is checked with zod and with the validators the forms use,
 * setting by setting, before anything is written. A file that is not a backup changes nothing; a
 * setting that fails its check is refused and its current value stays. A file that would change
 * where the key goes (the service origin) or which services tell the address to register (the IP
 * lookup URLs) is applied only once the user confirmed the old and new values: the worker and the
 * options page call the service as soon as the connection is stored, so nothing is stored before.
 */
import * as z from 'zod/mini';
import {
  type AccountsState,
  accountValue,
  activeConnectionItem,
  activeKeyItem,
  displayName,
  hostOf,
  readAccounts,
  type StoredAccount,
  updateAccounts,
  writeAccountValue,
} from '@/lib/accounts/store';
import { FORMS } from '@/lib/api/forms';
import { DIAGNOSIS_PERMISSIONS, type PermissionSet } from '@/lib/diagnosis/permissions';
import { t, tn } from '@/lib/i18n';
import { accountIdentity } from '@/lib/identity/identity';
import { lookupPermissionOrigins, validateLookupUrl } from '@/lib/network/settings-form';
import { notes } from '@/lib/notes';
import { notesBackupItem, notesBackupSchema } from '@/lib/notes/backup';
import { randomId } from '@/lib/outbox/lease';
import {
  changeSettingsKeepingHostPermissions,
  type HostPermissionsApi,
  hostPermissionFor,
} from '@/lib/permissions/host-permission';
import type { StoredItem } from '@/lib/settings/item';
import { connectionSchema, dynamicIpSettingsSchema, themeSchema } from '@/lib/settings/schemas';
import {
  ACCOUNT_NAME_MAX,
  addedTldsItem,
  apiKeyItem,
  chosenProfileItem,
  connectionItem,
  contextMenuSettingsItem,
  DEFAULT_BASE_URL,
  defaultBlockItem,
  diagnosisSettingsItem,
  dynamicIpSettingsItem,
  MAX_ACCOUNTS,
  themeItem,
} from '@/lib/settings/storage';
import {
  quoteInput,
  type Validation,
  valid,
  validateAccountName,
  validateApiKey,
  validateBaseUrl,
  validateNetworkLabel,
  validateProfileReference,
} from '@/lib/validation';

export const BACKUP_FORMAT = 'dns-filter-companion-settings';
/** Bump when the file's shape changes, and teach `parseBackup` to read the older versions. */
export const BACKUP_VERSION = 2;
/** A backup is a few kilobytes; a file far larger is something else and is not read. */
export const MAX_BACKUP_BYTES = 1_000_000;

/**
 * 'A:<profile>' or 'B:account' (scopeKey in storage.ts). Profiles made in the provider's dashboard
 * need not follow this extension's naming rule (validateProfileReference): no control characters.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
const scopeKeySchema = z.string().check(z.regex(/^(?:A:[^\u0000-\u001f\u007f]{1,256}|B:account)$/));
const addedTldsSchema = z.record(
  scopeKeySchema,
  z.array(z.string().check(z.regex(/^\.[a-z0-9-]{1,63}$/))).check(z.maxLength(1000)),
);
const defaultBlockSchema = z.record(
  scopeKeySchema,
  z.object({ enabled: z.boolean(), at: z.number().check(z.gte(0)) }),
);

export const backupSettingsSchema = z.object({
  connection: z.optional(connectionSchema),
  apiKey: z.optional(z.string()),
  dynamicIp: z.optional(dynamicIpSettingsSchema),
  contextMenu: z.optional(z.object({ enabled: z.boolean() })),
  diagnosis: z.optional(z.object({ enabled: z.boolean() })),
  theme: z.optional(themeSchema),
  chosenProfile: z.optional(z.string()),
  addedTlds: z.optional(addedTldsSchema),
  defaultBlock: z.optional(defaultBlockSchema),
  listNotes: z.optional(notesBackupSchema),
});
export type BackupSettings = z.infer<typeof backupSettingsSchema>;
export type SettingName = keyof BackupSettings;

/** Another account of this browser, in the file (version 2). */
export const backupAccountSchema = z.object({
  /** Absent: named after its service's host. */
  name: z.optional(z.string().check(z.minLength(1), z.maxLength(ACCOUNT_NAME_MAX))),
  connection: connectionSchema,
  apiKey: z.optional(z.string()),
  dynamicIp: z.optional(dynamicIpSettingsSchema),
  chosenProfile: z.optional(z.string()),
  addedTlds: z.optional(addedTldsSchema),
  defaultBlock: z.optional(defaultBlockSchema),
});
export type BackupAccount = z.infer<typeof backupAccountSchema>;

/** The file, as exported. Import reads each setting and each account on its own (`parseBackup`). */
export const backupFileSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(BACKUP_VERSION),
  exportedAt: z.string(),
  settings: backupSettingsSchema,
  accounts: z.optional(z.array(backupAccountSchema).check(z.maxLength(MAX_ACCOUNTS - 1))),
});
export type BackupFile = z.infer<typeof backupFileSchema>;

/** What the file must be at least, whatever its version, before its settings are looked at. */
const envelopeSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.int().check(z.gte(1)),
  exportedAt: z.optional(z.string().check(z.maxLength(64))),
  settings: z.record(z.string(), z.unknown()),
  accounts: z.optional(z.array(z.unknown()).check(z.maxLength(100))),
});

interface SettingDefinition<T> {
  /** The setting's name in the import report, in the browser's language. */
  label: () => string;
  schema: z.ZodMiniType<T>;
  /** Where the setting is stored: read to merge, written when imported. */
  item: Pick<StoredItem<T>, 'getValue' | 'setValue'>;
  /** The forms' own checks, beyond the shape; may normalise the value. */
  check?: (value: T) => Validation<T>;
  /** Records merge with what this browser has; settings replace it. */
  merge?: (current: T, incoming: T) => T;
  /** For the import report. Never the API key. */
  describe: (value: T) => string;
}

type Definitions = { [Name in SettingName]-?: SettingDefinition<NonNullable<BackupSettings[Name]>> };

const onOff = (value: { enabled: boolean }) => t(value.enabled ? 'backup.stateOn' : 'backup.stateOff');

const DEFINITIONS: Definitions = {
  connection: {
    label: () => t('backup.setting.connection'),
    schema: connectionSchema,
    // Through the accounts (lib/accounts/store.ts): the identity it replaces is remembered.
    item: activeConnectionItem,
    check: (value) => {
      const base = validateBaseUrl(value.baseUrl);
      return base.ok ? valid({ baseUrl: base.value, form: value.form }) : base;
    },
    describe: (value) => `${value.baseUrl}, ${FORMS[value.form].path}`,
  },
  apiKey: {
    label: () => t('backup.setting.apiKey'),
    schema: z.string(),
    item: activeKeyItem,
    check: (value) => validateApiKey(value),
    describe: () => t('backup.keyReplaced'),
  },
  dynamicIp: {
    label: () => t('backup.setting.dynamicIp'),
    schema: dynamicIpSettingsSchema,
    item: dynamicIpSettingsItem,
    check: (value) => {
      const label = validateNetworkLabel(value.label);
      if (!label.ok) return label;
      const profile = validateProfileReference(value.profile);
      if (!profile.ok) return profile;
      const lookupUrls: string[] = [];
      for (const url of value.lookupUrls) {
        const checked = validateLookupUrl(url);
        if (!checked.ok) return checked;
        lookupUrls.push(checked.value);
      }
      return valid({ ...value, label: label.value, profile: profile.value, lookupUrls });
    },
    describe: (value) =>
      value.enabled ? tn('backup.dynamicIpOn', value.intervalMinutes) : t('backup.stateOff'),
  },
  contextMenu: {
    label: () => t('backup.setting.contextMenu'),
    schema: z.object({ enabled: z.boolean() }),
    item: contextMenuSettingsItem,
    describe: onOff,
  },
  diagnosis: {
    label: () => t('backup.setting.diagnosis'),
    schema: z.object({ enabled: z.boolean() }),
    item: diagnosisSettingsItem,
    describe: onOff,
  },
  theme: {
    label: () => t('backup.setting.theme'),
    schema: themeSchema,
    item: themeItem,
    describe: (value) => t(`backup.theme.${value}`),
  },
  chosenProfile: {
    label: () => t('backup.setting.chosenProfile'),
    schema: z.string(),
    item: chosenProfileItem,
    check: (value) => validateProfileReference(value),
    describe: (value) => value,
  },
  addedTlds: {
    label: () => t('backup.setting.addedTlds'),
    schema: addedTldsSchema,
    item: addedTldsItem,
    merge: (current, incoming) => {
      const merged = { ...current };
      for (const [scope, tlds] of Object.entries(incoming)) {
        merged[scope] = [...new Set([...(merged[scope] ?? []), ...tlds])];
      }
      return merged;
    },
    describe: (value) => tn('backup.tldsAdded', Object.values(value).flat().length),
  },
  defaultBlock: {
    label: () => t('backup.setting.defaultBlock'),
    schema: defaultBlockSchema,
    item: defaultBlockItem,
    // Per profile, the more recent record wins.
    merge: (current, incoming) => {
      const merged = { ...current };
      for (const [scope, record] of Object.entries(incoming)) {
        const mine = merged[scope];
        if (!mine || mine.at <= record.at) merged[scope] = record;
      }
      return merged;
    },
    describe: (value) => tn('backup.defaultBlockKept', Object.keys(value).length),
  },
  listNotes: {
    label: () => t('notes.backupLabel'),
    schema: notesBackupSchema,
    // Its writes merge (lib/notes/backup.ts): a record of this browser is not lost to an older one.
    item: notesBackupItem(notes),
    describe: (value) => tn('notes.backupCount', Object.values(value).flat().length),
  },
};

/** In the order the report lists them. */
export const SETTING_NAMES = Object.keys(DEFINITIONS) as SettingName[];

export function settingLabel(name: SettingName): string {
  return DEFINITIONS[name].label();
}

// --- Export ---

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
  const [
    connection,
    apiKey,
    dynamicIp,
    contextMenu,
    diagnosis,
    theme,
    chosenProfile,
    addedTlds,
    defaultBlock,
  ] = await Promise.all([
    connectionItem.getValue(),
    includeKey ? apiKeyItem.getValue() : Promise.resolve(''),
    dynamicIpSettingsItem.getValue(),
    contextMenuSettingsItem.getValue(),
    diagnosisSettingsItem.getValue(),
    themeItem.getValue(),
    chosenProfileItem.getValue(),
    addedTldsItem.getValue(),
    defaultBlockItem.getValue(),
  ]);
  // Where list entries came from, and their notes, for every account (lib/notes); by the account
  // identity (origin, form and the key's fingerprint, never the key), so an import finds the account.
  const records = await notesBackupItem(notes).getValue();
  const listNotes = includePages
    ? records
    : Object.fromEntries(
        Object.entries(records).map(([account, entries]) => [
          account,
          entries.map(({ page: _page, ...rest }) => rest),
        ]),
      );
  const { accounts } = await readAccounts();
  const others = accounts
    .filter((account) => !account.active)
    .map((account) => exportedAccount(account, includeKey));
  return {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    exportedAt: now.toISOString(),
    settings: {
      connection,
      ...(includeKey && apiKey !== '' ? { apiKey } : {}),
      dynamicIp,
      contextMenu,
      diagnosis,
      theme,
      chosenProfile,
      addedTlds,
      defaultBlock,
      listNotes,
    },
    ...(others.length > 0 ? { accounts: others } : {}),
  };
}

/** An account that is not the active one, as the file holds it. The key only when asked for and set. */
function exportedAccount(account: StoredAccount, includeKey: boolean): BackupAccount {
  return {
    ...(account.name === undefined ? {} : { name: account.name }),
    connection: account.connection,
    ...(includeKey && account.key !== '' ? { apiKey: account.key } : {}),
    dynamicIp: account.dynamicIp,
    chosenProfile: accountValue(account, chosenProfileItem),
    addedTlds: accountValue(account, addedTldsItem),
    defaultBlock: accountValue(account, defaultBlockItem),
  };
}

export function backupText(backup: BackupFile): string {
  return `${JSON.stringify(backup, null, 2)}\n`;
}

/** `dns-filter-companion-settings-2025-01-31.json`, the local date of the export. */
export function backupFileName(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `dns-filter-companion-settings-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.json`;
}

// --- Import ---

export interface ReportLine {
  /** The setting, or 'accounts' for a line about one account of the file. */
  name: SettingName | 'accounts';
  label: string;
  /** What was imported, or why it was refused. Never contains the API key. */
  detail: string;
}

export type ParsedBackup =
  | { ok: false; message: string }
  | {
      ok: true;
      exportedAt: string | undefined;
      /** Checked values, ready to write. */
      accepted: Partial<BackupSettings>;
      refused: ReportLine[];
      /** Names in the file this version does not know, quoted for display. */
      ignored: string[];
      /** The file's other accounts that passed the checks, in the file's order. */
      accounts: BackupAccount[];
    };

/** zod's names of the types a backup's settings are made of; others are shown as zod names them. */
const TYPE_NAMES = ['int', 'number', 'string', 'boolean', 'object', 'array'] as const;

function typeName(expected: string): string {
  const known = TYPE_NAMES.find((name) => name === expected);
  return known === undefined ? expected : t(`backup.shape.type.${known}`);
}

/** What is wrong, without where: one issue of zod's. */
function issueProblem(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return t('backup.shape.expected', { type: typeName(issue.expected) });
    case 'too_small':
      if (issue.origin === 'array') return t('backup.shape.tooFewEntries');
      if (issue.origin === 'string') return t('backup.shape.tooShort');
      return t('backup.shape.lessThan', { minimum: String(issue.minimum) });
    case 'too_big':
      if (issue.origin === 'array') return t('backup.shape.tooManyEntries');
      if (issue.origin === 'string') return t('backup.shape.tooLong');
      return t('backup.shape.moreThan', { maximum: String(issue.maximum) });
    case 'invalid_value':
      return t('backup.shape.oneOf', {
        values: issue.values.map((value) => JSON.stringify(value)).join(', '),
      });
    case 'invalid_key':
      return t('backup.shape.notProfile');
    default:
      return t('backup.shape.other');
  }
}

/**
 * The first problem zod found, with where it is. Written here rather than taken from zod/mini,
 * which carries no texts for users; never repeats the value itself.
 */
function shapeProblem(error: { issues: readonly z.core.$ZodIssue[] }): string {
  const issue = error.issues[0];
  if (!issue) return t('backup.shape.unknown');
  const problem = issueProblem(issue);
  return issue.path.length > 0
    ? t('backup.shape.at', { path: issue.path.map(String).join('.'), problem })
    : problem;
}

function acceptSetting(
  name: SettingName,
  raw: unknown,
): { ok: true; value: unknown } | { ok: false; reason: string } {
  const definition = DEFINITIONS[name] as SettingDefinition<unknown>;
  const shaped = definition.schema.safeParse(raw);
  if (!shaped.success) {
    // The key's own text is never shown, whatever is wrong with it.
    return {
      ok: false,
      reason:
        name === 'apiKey'
          ? t('backup.keyNotText')
          : t('backup.notExpectedForm', { problem: shapeProblem(shaped.error) }),
    };
  }
  if (!definition.check) return { ok: true, value: shaped.data };
  const checked = definition.check(shaped.data);
  return checked.ok ? { ok: true, value: checked.value } : { ok: false, reason: checked.message };
}

/** "Account “Office”" (or its service's host), for the report; never the key. */
function accountLabel(raw: unknown): string {
  const shaped = z.object({ name: z.string(), connection: z.object({ baseUrl: z.string() }) }).safeParse(raw);
  const name =
    raw !== null && typeof raw === 'object' && typeof (raw as { name?: unknown }).name === 'string'
      ? (raw as { name: string }).name
      : shaped.success
        ? hostOf(shaped.data.connection.baseUrl)
        : '?';
  // Shown as written, cut to a name's length and without control characters.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
  const shown = name.replace(/[\u0000-\u001f\u007f]/g, ' ').slice(0, ACCOUNT_NAME_MAX);
  return t('backup.account', { name: shown });
}

/** One account of the file, checked as Setup and the settings are; its key's text is never shown. */
function acceptAccount(raw: unknown): { ok: true; value: BackupAccount } | { ok: false; reason: string } {
  const shaped = backupAccountSchema.safeParse(raw);
  if (!shaped.success) {
    const onKey = shaped.error.issues.some((issue) => issue.path[0] === 'apiKey');
    return {
      ok: false,
      reason: onKey
        ? t('backup.keyNotText')
        : t('backup.notExpectedForm', { problem: shapeProblem(shaped.error) }),
    };
  }
  const account: BackupAccount = { ...shaped.data };
  // Checked as a typed name is (the Accounts section): what a file names an account is shown as
  // the user's own text, in the pages, the popup's combobox and the menu.
  if (account.name !== undefined) {
    const name = validateAccountName(account.name);
    if (!name.ok) return { ok: false, reason: name.message };
    account.name = name.value;
  }
  for (const name of ['connection', 'apiKey', 'dynamicIp', 'chosenProfile'] as const) {
    const value = account[name];
    if (value === undefined) continue;
    const definition = DEFINITIONS[name] as SettingDefinition<unknown>;
    const checked = definition.check ? definition.check(value) : { ok: true as const, value };
    if (!checked.ok) return { ok: false, reason: checked.message };
    Object.assign(account, { [name]: checked.value });
  }
  return { ok: true, value: account };
}

/** Reads and checks a backup file's text. Pure: writes nothing. */
export function parseBackup(text: string): ParsedBackup {
  if (text.length > MAX_BACKUP_BYTES) {
    return { ok: false, message: t('backup.tooLarge') };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, message: t('backup.notJson') };
  }
  const envelope = envelopeSchema.safeParse(json);
  if (!envelope.success) {
    const looksLikeOne =
      typeof json === 'object' && json !== null && (json as { format?: unknown }).format === BACKUP_FORMAT;
    return {
      ok: false,
      message: looksLikeOne
        ? t('backup.damaged', { problem: shapeProblem(envelope.error) })
        : t('backup.notBackup'),
    };
  }
  if (envelope.data.version > BACKUP_VERSION) {
    return {
      ok: false,
      message: t('backup.newerVersion', { version: envelope.data.version }),
    };
  }
  const accepted: Partial<BackupSettings> = {};
  const refused: ReportLine[] = [];
  const ignored: string[] = [];
  for (const [name, raw] of Object.entries(envelope.data.settings)) {
    if (!Object.hasOwn(DEFINITIONS, name)) {
      if (ignored.length < 20) ignored.push(quoteInput(name, 40));
      continue;
    }
    const settingName = name as SettingName;
    const result = acceptSetting(settingName, raw);
    if (result.ok) Object.assign(accepted, { [settingName]: result.value });
    else refused.push({ name: settingName, label: settingLabel(settingName), detail: result.reason });
  }
  const accounts: BackupAccount[] = [];
  for (const raw of envelope.data.accounts ?? []) {
    const result = acceptAccount(raw);
    if (result.ok) accounts.push(result.value);
    else refused.push({ name: 'accounts', label: accountLabel(raw), detail: result.reason });
  }
  return { ok: true, exportedAt: envelope.data.exportedAt, accepted, refused, ignored, accounts };
}

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

function originOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return baseUrl;
  }
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
      const line = await importAccount(account);
      (line.refused ? report.refused : report.imported).push(line.line);
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
    const name = account.name ?? hostOf(account.connection.baseUrl);
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

/**
 * Imports one of the file's other accounts: updates the account of this browser that is the same
 * (origin, form and key; without a key in the file, origin, form and name), or adds it as a new
 * account. Never gives one account another's key.
 */
async function importAccount(account: BackupAccount): Promise<{ line: ReportLine; refused: boolean }> {
  const label = t('backup.account', { name: account.name ?? hostOf(account.connection.baseUrl) });
  const line = (detail: string, refused = false) => ({
    line: { name: 'accounts' as const, label, detail },
    refused,
  });
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
        displayName(stored) === (account.name ?? hostOf(account.connection.baseUrl)),
  );
  try {
    if (same) {
      if (account.dynamicIp) await writeAccountValue(same.id, dynamicIpSettingsItem, account.dynamicIp);
      if (account.chosenProfile) await writeAccountValue(same.id, chosenProfileItem, account.chosenProfile);
      if (account.addedTlds) {
        const merge = DEFINITIONS.addedTlds.merge!;
        await writeAccountValue(
          same.id,
          addedTldsItem,
          merge(accountValue(same, addedTldsItem), account.addedTlds),
        );
      }
      if (account.defaultBlock) {
        const merge = DEFINITIONS.defaultBlock.merge!;
        await writeAccountValue(
          same.id,
          defaultBlockItem,
          merge(accountValue(same, defaultBlockItem), account.defaultBlock),
        );
      }
      return line(t('backup.accountUpdated', { name: displayName(same) }));
    }
    const taken = new Set(state.accounts.map((stored) => displayName(stored).toLocaleLowerCase()));
    const wanted = account.name ?? hostOf(account.connection.baseUrl);
    let name = wanted;
    for (let n = 2; taken.has(name.toLocaleLowerCase()); n++)
      name = `${wanted} (${n})`.slice(-ACCOUNT_NAME_MAX);
    const id = randomId();
    const added = await updateAccounts((now, draft) => {
      if (now.accounts.length >= MAX_ACCOUNTS) return null;
      const parked: Record<string, unknown> = { [connectionItem.key]: account.connection };
      if (account.dynamicIp) parked[dynamicIpSettingsItem.key] = account.dynamicIp;
      if (account.chosenProfile) parked[chosenProfileItem.key] = account.chosenProfile;
      if (account.addedTlds) parked[addedTldsItem.key] = account.addedTlds;
      if (account.defaultBlock) parked[defaultBlockItem.key] = account.defaultBlock;
      draft.entries.push({
        id,
        ...(name === hostOf(account.connection.baseUrl) && account.name === undefined ? {} : { name }),
        createdAt: Date.now(),
        parked,
      });
      if (account.apiKey) draft.keys[id] = account.apiKey;
      return { draft, result: true };
    });
    if (!added) return line(t('accounts.tooMany', { max: MAX_ACCOUNTS }), true);
    return line(t(account.apiKey ? 'backup.accountAdded' : 'backup.accountAddedNoKey', { name }));
  } catch {
    return line(t('backup.notSaved'), true);
  }
}

async function writeSettings(parsed: Extract<ParsedBackup, { ok: true }>): Promise<ImportReport> {
  const imported: ReportLine[] = [];
  const refused = [...parsed.refused];
  const notInFile: ReportLine[] = [];
  for (const name of SETTING_NAMES) {
    const definition = DEFINITIONS[name] as SettingDefinition<unknown>;
    const value = parsed.accepted[name];
    if (value === undefined) {
      if (!refused.some((line) => line.name === name)) {
        notInFile.push({
          name,
          label: definition.label(),
          detail: t(name === 'apiKey' ? 'backup.notInFileKey' : 'backup.notInFile'),
        });
      }
      continue;
    }
    try {
      const next = definition.merge ? definition.merge(await definition.item.getValue(), value) : value;
      await definition.item.setValue(next);
      imported.push({ name, label: definition.label(), detail: definition.describe(value) });
    } catch {
      refused.push({ name, label: definition.label(), detail: t('backup.notSaved') });
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
  const origins = new Set<string>();
  const permissions = new Set<string>();
  for (const one of [settings, ...accounts]) {
    if (one.connection) {
      try {
        const origin = hostPermissionFor(one.connection.baseUrl);
        if (origin) origins.add(origin);
      } catch {
        // Checked by validateBaseUrl on import; nothing to ask for an address that is not one.
      }
    }
    if (one.dynamicIp?.enabled) {
      for (const origin of lookupPermissionOrigins(one.dynamicIp.lookupUrls)) origins.add(origin);
    }
  }
  if (settings.diagnosis?.enabled) {
    for (const name of DIAGNOSIS_PERMISSIONS.permissions) permissions.add(name);
    for (const origin of DIAGNOSIS_PERMISSIONS.origins) origins.add(origin);
  }
  return { origins: [...origins], permissions: [...permissions] };
}
