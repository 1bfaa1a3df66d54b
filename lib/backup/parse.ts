/**
 * Reading a settings backup's text (./format.ts) into checked values, before anything is written
 * (./import.ts).
 *
 * Import is a trust boundary: the file is checked with zod and with the validators the forms use,
 * setting by setting, before anything is written. A file that is not a backup changes nothing; a
 * setting that fails its check is refused and its current value stays.
 */
import * as z from 'zod/mini';
import { hostOf } from '@/lib/accounts/store';
import { t } from '@/lib/i18n';
import { isRecord } from '@/lib/settings/shape';
import { ACCOUNT_NAME_MAX } from '@/lib/settings/storage';
import { quoteInput, validateAccountName } from '@/lib/validation';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  type BackupAccount,
  type BackupSettings,
  backupAccountSchema,
  envelopeSchema,
  MAX_BACKUP_BYTES,
  type SettingName,
} from './format';
import { DEFINITIONS, type SettingDefinition } from './settings';

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

/** Why a value of the wrong shape is refused; the key's own text is never shown, whatever is wrong with it. */
function shapeRefusal(error: { issues: readonly z.core.$ZodIssue[] }, onKey: boolean): string {
  return onKey ? t('backup.keyNotText') : t('backup.notExpectedForm', { problem: shapeProblem(error) });
}

function acceptSetting(
  name: SettingName,
  raw: unknown,
): { ok: true; value: unknown } | { ok: false; reason: string } {
  const definition = DEFINITIONS[name] as SettingDefinition<unknown>;
  const shaped = definition.schema.safeParse(raw);
  if (!shaped.success) return { ok: false, reason: shapeRefusal(shaped.error, name === 'apiKey') };
  if (!definition.check) return { ok: true, value: shaped.data };
  const checked = definition.check(shaped.data);
  return checked.ok ? { ok: true, value: checked.value } : { ok: false, reason: checked.message };
}

/** "Account “Office”" (or its service's host), for the report; never the key. */
function accountLabel(raw: unknown): string {
  const shaped = z
    .object({ name: z.optional(z.unknown()), connection: z.optional(z.object({ baseUrl: z.string() })) })
    .safeParse(raw);
  const name = !shaped.success
    ? '?'
    : typeof shaped.data.name === 'string'
      ? shaped.data.name
      : shaped.data.connection
        ? hostOf(shaped.data.connection.baseUrl)
        : '?';
  // Shown as written, cut to a name's length and without control characters.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
  const shown = name.replace(/[\u0000-\u001f\u007f]/g, ' ').slice(0, ACCOUNT_NAME_MAX);
  return t('backup.account', { name: shown });
}

/**
 * One account of the file, checked as Setup and the settings are; its key's text is never shown.
 * Its schedules are checked on their own, as the active account's (./settings.ts): bad ones are
 * left out with their reason (`schedulesRefused`), and the rest of the account is kept.
 */
function acceptAccount(
  raw: unknown,
): { ok: true; value: BackupAccount; schedulesRefused?: string } | { ok: false; reason: string } {
  const rawSchedules = isRecord(raw) ? raw.schedules : undefined;
  const shaped = backupAccountSchema.safeParse(isRecord(raw) ? { ...raw, schedules: undefined } : raw);
  if (!shaped.success) {
    const onKey = shaped.error.issues.some((issue) => issue.path[0] === 'apiKey');
    return { ok: false, reason: shapeRefusal(shaped.error, onKey) };
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
    if (account[name] === undefined) continue;
    // Its shape passed with the account's; this runs the setting's own checks.
    const checked = acceptSetting(name, account[name]);
    if (!checked.ok) return checked;
    Object.assign(account, { [name]: checked.value });
  }
  if (rawSchedules === undefined) return { ok: true, value: account };
  const schedules = acceptSetting('schedules', rawSchedules);
  if (!schedules.ok) return { ok: true, value: account, schedulesRefused: schedules.reason };
  return { ok: true, value: { ...account, schedules: schedules.value as BackupAccount['schedules'] } };
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
    const looksLikeOne = isRecord(json) && json.format === BACKUP_FORMAT;
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
    else refused.push({ name: settingName, label: DEFINITIONS[settingName].label(), detail: result.reason });
  }
  const accounts: BackupAccount[] = [];
  for (const raw of envelope.data.accounts ?? []) {
    const result = acceptAccount(raw);
    if (!result.ok) {
      refused.push({ name: 'accounts', label: accountLabel(raw), detail: result.reason });
      continue;
    }
    accounts.push(result.value);
    if (result.schedulesRefused !== undefined) {
      refused.push({
        name: 'accounts',
        label: accountLabel(raw),
        detail: t('schedules.backupAccountRefused', { reason: result.schedulesRefused }),
      });
    }
  }
  return { ok: true, exportedAt: envelope.data.exportedAt, accepted, refused, ignored, accounts };
}
