/**
 * The settings of the backup (./format.ts), a row each: its name in the import report, its shape,
 * the forms' checks, where it is stored, whether it merges with this browser's or replaces it,
 * and how the report describes it. Reading a file (./parse.ts) and writing it (./import.ts) go
 * through this table.
 */
import * as z from 'zod/mini';
import { activeConnectionItem, activeKeyItem } from '@/lib/accounts/store';
import { FORMS } from '@/lib/api/forms';
import { t, tn } from '@/lib/i18n';
import { validateLookupUrl } from '@/lib/network/settings-form';
import { notes } from '@/lib/notes';
import { notesBackupItem, notesBackupSchema } from '@/lib/notes/backup';
import { mergeGroups, profileGroupsItem } from '@/lib/profile-groups/groups';
import { profileGroupsSchema } from '@/lib/profile-groups/schema';
import {
  activeSchedulesBackupItem,
  checkSchedulesBackup,
  mergeSchedules,
  schedulesBackupSchema,
} from '@/lib/schedules/backup';
import type { StoredItem } from '@/lib/settings/item';
import { connectionSchema, dynamicIpSettingsSchema, themeSchema } from '@/lib/settings/schemas';
import {
  addedTldsItem,
  chosenProfileItem,
  contextMenuSettingsItem,
  defaultBlockItem,
  diagnosisSettingsItem,
  dynamicIpSettingsItem,
  themeItem,
} from '@/lib/settings/storage';
import {
  type Validation,
  valid,
  validateApiKey,
  validateBaseUrl,
  validateNetworkLabel,
  validateProfileReference,
} from '@/lib/validation';
import { addedTldsSchema, type BackupSettings, defaultBlockSchema, type SettingName } from './format';

export interface SettingDefinition<T> {
  /** The setting's name in the import report, in the browser's language. */
  label: () => string;
  schema: z.ZodMiniType<T>;
  /** Where the setting is stored: read to merge, written when imported. */
  item: Pick<StoredItem<T>, 'getValue' | 'setValue'>;
  /** The forms' own checks, beyond the shape; may normalise the value. */
  check?: (value: T) => Validation<T>;
  /** Records merge with what this browser has; settings replace it. */
  merge?: (current: T, incoming: T) => T;
  /** Checks what the merge made, with what this browser had: refused, nothing is written. */
  checkMerged?: (merged: T) => Validation<T>;
  /** For the import report. Never the API key. */
  describe: (value: T) => string;
}

type Definitions = { [Name in SettingName]-?: SettingDefinition<NonNullable<BackupSettings[Name]>> };

const onOff = (value: { enabled: boolean }) => t(value.enabled ? 'backup.stateOn' : 'backup.stateOff');

export const DEFINITIONS: Definitions = {
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
  profileGroups: {
    label: () => t('profileGroups.backupLabel'),
    schema: profileGroupsSchema,
    item: profileGroupsItem,
    merge: mergeGroups,
    describe: (value) => tn('profileGroups.backupCount', value.length),
  },
  schedules: {
    label: () => t('schedules.backupLabel'),
    schema: schedulesBackupSchema,
    item: activeSchedulesBackupItem,
    check: checkSchedulesBackup,
    // A rule of the same id is replaced by the file's; the others here stay, and the file's must
    // not collide with them.
    merge: mergeSchedules,
    checkMerged: checkSchedulesBackup,
    describe: (value) => tn('schedules.backupCount', value.rules.length),
  },
};

/**
 * Where each setting an account of the file carries besides its connection, key and schedules is
 * stored, in the file's order.
 */
export const ACCOUNT_SETTING_ITEMS = {
  dynamicIp: dynamicIpSettingsItem,
  chosenProfile: chosenProfileItem,
  addedTlds: addedTldsItem,
  defaultBlock: defaultBlockItem,
  profileGroups: profileGroupsItem,
};

/** In the order the report lists them. */
export const SETTING_NAMES = Object.keys(DEFINITIONS) as SettingName[];
