/**
 * The worker brings stored values to the current shape when the extension is installed or
 * updated (docs/architecture.md, "Storage"), so pages read without migrating. A value is
 * migrated from the version its record names (`{ v }` beside it; none: version 1) through each
 * later migration, checked with the item's schema, and written back with the new version in one
 * write. One that does not come out valid is left as it was: it reads as missing, and nothing is
 * deleted that a later version could still read.
 */
import { keyFingerprint, NO_KEY } from '@/lib/identity/identity';
import { readRaw, type StoredItem, versionName, writeRaw } from './item';
import { isRecord } from './shape';
import { activeKeyEntries, apiKeyFingerprintItem, apiKeyItem, ITEMS_WITH_MIGRATIONS } from './storage';

export async function migrateItem(item: StoredItem<unknown>): Promise<'migrated' | 'current' | 'invalid'> {
  const versionKey = versionName(item.name);
  const stored = await readRaw(item.area, [item.name, versionKey]);
  const value = stored[item.name];
  if (value === undefined || value === null) return 'current';
  const record = stored[versionKey];
  const from = isRecord(record) && typeof record.v === 'number' ? record.v : 1;
  // A newer version's value (after a downgrade) is left alone: reads treat it as missing.
  if (from >= item.version) return 'current';
  let migrated = value;
  for (let version = from + 1; version <= item.version; version++) {
    migrated = (await item.migrations?.[version]?.(migrated)) ?? migrated;
  }
  const checked = (await item.schema()).safeParse(migrated);
  if (!checked.success) return 'invalid';
  await writeRaw(item.area, { [item.name]: checked.data, [versionKey]: { v: item.version } });
  return 'migrated';
}

/**
 * Every item's migrations, then the active key's fingerprint where it is missing or not the
 * key's (keys stored before it was kept beside them). Each item on its own: one that fails does
 * not stop the rest.
 */
export async function migrateStoredValues(): Promise<void> {
  const outcomes = await Promise.allSettled(ITEMS_WITH_MIGRATIONS.map((item) => migrateItem(item)));
  for (const outcome of outcomes)
    if (outcome.status === 'rejected') console.warn('Migration failed', outcome.reason);
  const [key, fingerprint] = await Promise.all([apiKeyItem.getValue(), apiKeyFingerprintItem.getValue()]);
  if ((await keyFingerprint(key)) !== (fingerprint || NO_KEY))
    await writeRaw('local', await activeKeyEntries(key));
}
