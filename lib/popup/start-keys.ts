/**
 * What the popup's first script asks storage for before the modules load (./first-script.ts):
 * the values every first view reads, and then, once they and the tab are known, the cached lists'
 * buckets of the tab's site and the account's notes. A fixed list, held against the controller's
 * own reads by tests/unit/popup/start-keys.test.ts: a name read before the first view and missing
 * here costs the opening a storage round trip, and one listed here but not read costs a little.
 *
 * No zod and no WXT: the first script bundles this file on its own.
 */
import { scopeKey } from '@/lib/api/forms';
import { bucketKey, bucketsFor, CACHED_LISTS_PREFIX, listsStorageScope } from '@/lib/cache/list-buckets';
import { hostnameFromUrl } from '@/lib/filtering/hostname';
import { identityOf } from '@/lib/identity/identity';
import { notesStorageNameOf } from '@/lib/notes/entries';
import type { StoredValues } from '@/lib/settings/early-answers';

/** Storage names (`storage.local`) of the values every first view reads (lib/settings/storage.ts). */
export const START_NAMES = [
  'connection',
  'apiKeyFingerprint',
  'chosenProfile',
  'registrableDomains',
  'addedTlds',
  'defaultBlock',
  'outbox',
  'outboxSettled',
  'profilesCache',
  'cachedBlockedToday',
] as const;

const asString = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * The names the first view reads that depend on the start values and the tab: the head and
 * buckets of the site's cached lists, and the account's notes. None without a key or a site.
 */
export function laterNames(values: StoredValues, tabUrl: string | undefined): string[] {
  const connection = values.connection as { baseUrl?: unknown; form?: unknown } | undefined;
  const form = connection?.form === 'B' ? 'B' : 'A';
  const baseUrl = asString(connection?.baseUrl);
  const fingerprint = asString(values.apiKeyFingerprint);
  const host = tabUrl === undefined ? null : hostnameFromUrl(tabUrl);
  if (
    baseUrl === undefined ||
    fingerprint === undefined ||
    !/^[0-9a-f]{16}$/.test(fingerprint) ||
    host === null
  )
    return [];
  const account = identityOf({ origin: baseUrl, form, keyFingerprint: fingerprint }).id;
  const scope = listsStorageScope(scopeKey(form, asString(values.chosenProfile)), account);
  return [
    `${CACHED_LISTS_PREFIX}${scope}`,
    ...bucketsFor([host]).map((bucket) => bucketKey(scope, bucket)),
    notesStorageNameOf(account),
  ];
}
