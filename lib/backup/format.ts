/**
 * Settings backup: a JSON file the options page exports (./export.ts) and imports (./parse.ts
 * reads and checks it, ./import.ts writes it). This file is its format; each setting's checks,
 * store and report line are in ./settings.ts.
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
 * each with its name, connection, settings, records, schedules and (when asked) key.
 *
 * Not settings (never exported): the outbox and the changes it settled, leases, caches (lists,
 * profiles, today's statistics), the registration outcome and the addresses this browser
 * registered (a browser importing them would delete this one's address as "its previous one"),
 * the hourly raw log guard and the deleted-days note, page diagnosis records, temporary allows
 * (timed work of this browser), the profile the options page is browsing, and test-only items.
 */

import * as z from 'zod/mini';
import { notesBackupSchema } from '@/lib/notes/backup';
import { profileGroupsSchema } from '@/lib/profile-groups/schema';
import { schedulesBackupSchema } from '@/lib/schedules/backup';
import { connectionSchema, dynamicIpSettingsSchema, themeSchema } from '@/lib/settings/schemas';
import { ACCOUNT_NAME_MAX, MAX_ACCOUNTS } from '@/lib/settings/storage';

export const BACKUP_FORMAT = 'dns-filter-companion-settings';
/** Bump when the file's shape changes, and teach `parseBackup` (./parse.ts) to read the older versions. */
export const BACKUP_VERSION = 2;
/** A backup is a few kilobytes; a file far larger is something else and is not read. */
export const MAX_BACKUP_BYTES = 1_000_000;

/**
 * 'A:<profile>' or 'B:account' (scopeKey in lib/settings/storage.ts). Profiles made in the
 * provider's dashboard need not follow this extension's naming rule (validateProfileReference): no
 * control characters.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
const scopeKeySchema = z.string().check(z.regex(/^(?:A:[^\u0000-\u001f\u007f]{1,256}|B:account)$/));
export const addedTldsSchema = z.record(
  scopeKeySchema,
  z.array(z.string().check(z.regex(/^\.[a-z0-9-]{1,63}$/))).check(z.maxLength(1000)),
);
export const defaultBlockSchema = z.record(
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
  profileGroups: z.optional(profileGroupsSchema),
  /** The active account's schedules (lib/schedules/backup.ts). */
  schedules: z.optional(schedulesBackupSchema),
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
  profileGroups: z.optional(profileGroupsSchema),
  /**
   * Its schedules (lib/schedules/backup.ts), as the active account's. Absent in files made before
   * they were: such a file still imports. Checked on its own: a bad one is refused alone.
   */
  schedules: z.optional(schedulesBackupSchema),
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
export const envelopeSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.int().check(z.gte(1)),
  exportedAt: z.optional(z.string().check(z.maxLength(64))),
  settings: z.record(z.string(), z.unknown()),
  accounts: z.optional(z.array(z.unknown()).check(z.maxLength(100))),
});
