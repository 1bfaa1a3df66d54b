/**
 * The bounds of stored values, apart from the items (./storage.ts, which re-exports them) so the
 * schemas (./schemas.ts) can use them without importing the items.
 */

/**
 * How many accounts one browser keeps: enough for a technician looking after several clients,
 * few enough that the popup's "Account" combobox and the menu title stay short, that every
 * account's parked settings fit one small item, and that the caches and waiting changes of all of
 * them stay within the storage budget (lib/cache/storage-room.ts; the outbox's OUTBOX_LIMIT is
 * shared by all accounts).
 */
export const MAX_ACCOUNTS = 10;

export const ACCOUNT_NAME_MAX = 64;

/**
 * Identities an account had before its current one (an earlier key, address or form), newest
 * kept: removing the account forgets what was recorded under them too (lib/accounts/forget.ts).
 */
export const MAX_EARLIER_IDENTITIES = 20;

export const DYNAMIC_IP_INTERVAL = { min: 5, max: 1440, fallback: 15 } as const;

/** Addresses kept for later deletion, of all accounts together (a few per account). */
export const MAX_REGISTERED_KEPT = 3 * MAX_ACCOUNTS;

/** More waiting changes than a person makes by hand: a cap on storage, refused with a message. */
export const OUTBOX_LIMIT = 500;

/** At most this many hosts per tab: a page full of blocked trackers must not fill storage. */
export const MAX_FAILED_HOSTS_PER_TAB = 100;

/** Hosts whose registrable domain is remembered (lib/cache/registrable-domains.ts), newest last. */
export const MAX_REMEMBERED_HOSTS = 200;

/** At most this many unbreaks are remembered (running or waiting for their review), newest kept. */
export const MAX_UNBREAK_SESSIONS = 20;
