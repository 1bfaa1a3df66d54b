/**
 * The storage names the popup's last opening read once its tab was known (./start-keys.ts
 * `laterNames`: the site's cached list head and buckets, the account's notes), remembered in the
 * page's `localStorage`. The next opening's first script asks for them with its start values, so
 * an opening on the same site and account needs one storage round trip instead of two
 * (docs/performance.md, "Against the popup before the start path was simplified").
 *
 * Only names, never values: a stale name costs the read of a value no view uses, and the names
 * the opening does need are asked as before. They are the names storage itself keys those values
 * by; each opening writes its own over the last (PRIVACY.md). A record of the wrong shape counts
 * as none.
 *
 * No zod and no WXT: the first script bundles this file.
 */
import { CACHED_LISTS_BUCKET_PREFIX, CACHED_LISTS_PREFIX } from '@/lib/cache/list-buckets';
import { notesStorageNameOf } from '@/lib/notes/entries';

export const REMEMBERED_NAMES_RECORD = 'popupSiteNames';

/** More than `laterNames` ever gives (a head, two buckets, the notes): not ours. */
const MAX_NAMES = 8;
const PREFIXES = [CACHED_LISTS_PREFIX, CACHED_LISTS_BUCKET_PREFIX, notesStorageNameOf('')];

type Store = Pick<Storage, 'getItem' | 'setItem'>;

/** The names the last opening read after its tab, or none. */
export function rememberedNames(store: Pick<Store, 'getItem'> | undefined): string[] {
  try {
    const parsed: unknown = JSON.parse(store?.getItem(REMEMBERED_NAMES_RECORD) ?? '[]');
    if (!Array.isArray(parsed) || parsed.length > MAX_NAMES) return [];
    return parsed.filter(
      (name): name is string =>
        typeof name === 'string' && PREFIXES.some((prefix) => name.startsWith(prefix)),
    );
  } catch {
    return [];
  }
}

/** Remembers `names` for the next opening (written only when they differ from the last). */
export function rememberNames(store: Store | undefined, names: readonly string[]): void {
  try {
    const record = JSON.stringify(names);
    if (store && store.getItem(REMEMBERED_NAMES_RECORD) !== record)
      store.setItem(REMEMBERED_NAMES_RECORD, record);
  } catch {
    // No localStorage (or it is full): the next opening asks in two round trips, as without it.
  }
}

/**
 * Forgets the remembered names: an account was removed on this page, and the names may be its
 * (they hold its service address and key fingerprint). The next opening asks in two round trips.
 */
export function forgetRememberedNames(store: Pick<Storage, 'removeItem'> | undefined): void {
  try {
    store?.removeItem(REMEMBERED_NAMES_RECORD);
  } catch {
    // No localStorage: nothing was remembered either.
  }
}
