/**
 * Every storage item of the extension, in one place. Keys carry their area prefix; each item has
 * a zod schema, a fallback and a version from the first release, so later releases can migrate.
 *
 * The API key lives in `storage.local` only, never in `storage.sync` (docs/service-api.md,
 * "API key storage").
 *
 * Schemas are built on first use (items take a function, named schemas are `z.lazy`): a page
 * loads all of this module and uses a few items, and the popup's first paint waits on loading it.
 */
import { browser } from '@wxt-dev/browser';
import * as z from 'zod/mini';
import {
  type AccountIdentity,
  accountIdentity,
  accountIdSchema,
  identityForLegacyTag,
} from '@/lib/account/identity';
import { API_FORMS, scopeOf } from '@/lib/api/forms';
import {
  bucketKey,
  CACHED_LISTS_BUCKET_PREFIX,
  joinBuckets,
  type PackedLists,
  SINGLE_LABEL_BUCKET,
  splitIntoBuckets,
} from '@/lib/cache/list-buckets';
import { listChangeSchema, MAX_UNBREAK_DOMAINS } from '@/lib/messaging/protocol';
import { readStoredValue, readStoredValues } from './stored-reads';
import { THEME_CHOICES } from './theme-choice';
import { defineValidatedItem } from './validated-item';

// Extension pages forbid `new Function` (Content Security Policy): zod would try it once per page,
// at the first parse (the popup's first storage read), be refused, and have the refusal reported.
z.config({ jitless: true });

export const DEFAULT_BASE_URL = 'https://my.cleanbrowsing.org';

export const apiFormSchema = z.enum(API_FORMS);

export const connectionSchema = z.lazy(() =>
  z.object({
    baseUrl: z.string().check(z.minLength(1)),
    form: apiFormSchema,
  }),
);
export type ConnectionSettings = z.infer<typeof connectionSchema>;

/**
 * The active account's key (lib/accounts: the other accounts' keys are in `accountKeysItem`).
 * Separate from the rest so nothing that exports settings picks it up by accident.
 */
export const apiKeyItem = defineValidatedItem('local:apiKey', () => z.string(), { fallback: '', version: 1 });

/** Where the active account's service is and which form of its API to speak. */
export const connectionItem = defineValidatedItem('local:connection', () => connectionSchema, {
  fallback: { baseUrl: DEFAULT_BASE_URL, form: 'A' },
  version: 1,
});

// --- Several accounts ---

/**
 * How many accounts one browser keeps: enough for a technician looking after several clients,
 * few enough that the popup's "Account" combobox and the menu title stay short, that every
 * account's parked settings fit one small item, and that the caches and waiting changes of all of
 * them stay within the storage budget (lib/cache/storage-room.ts; the outbox's OUTBOX_LIMIT is
 * shared by all accounts).
 */
export const MAX_ACCOUNTS = 10;
export const ACCOUNT_NAME_MAX = 64;

export const accountEntrySchema = z.lazy(() =>
  z.object({
    /** Stable and random (never derived from the key); names the account's alarms and leases. */
    id: z.string().check(z.regex(/^[A-Za-z0-9-]{8,64}$/)),
    /** Absent: the account is named after its service's host. */
    name: z.optional(z.string().check(z.minLength(1), z.maxLength(ACCOUNT_NAME_MAX))),
    createdAt: z.number(),
    /**
     * The per-account items (lib/accounts/store.ts ACCOUNT_ITEMS) of an account that is not the
     * active one, by storage key. The active account has none: its values are in those items.
     */
    parked: z.optional(z.record(z.string(), z.unknown())),
  }),
);
export type AccountEntry = z.infer<typeof accountEntrySchema>;

/**
 * The accounts of this browser and the active one. The active account's key, connection and
 * other per-account settings stay in the items every page reads (`apiKeyItem`, `connectionItem`,
 * `dynamicIpSettingsItem` …); the others' are parked in their entry, their keys in
 * `accountKeysItem`. Nothing stored (an installation from before several accounts) reads as no
 * account: lib/accounts/store.ts then makes the existing setup the first account.
 */
export const accountsSchema = z.lazy(() =>
  z.object({
    active: z.nullable(z.string()),
    accounts: z.array(accountEntrySchema).check(z.maxLength(MAX_ACCOUNTS)),
  }),
);

export const accountsItem = defineValidatedItem('local:accounts', () => accountsSchema, {
  fallback: { active: null, accounts: [] },
  version: 1,
});

/**
 * The keys of the accounts that are not active, by account id: apart from the accounts list so
 * nothing that lists or exports accounts picks a key up by accident. The active account's key is
 * in `apiKeyItem` and only there.
 */
export const accountKeysItem = defineValidatedItem(
  'local:accountKeys',
  () => z.record(z.string(), z.string().check(z.maxLength(512))),
  { fallback: {}, version: 1 },
);

/**
 * Data kept per scope: a profile in Form A, the whole account in Form B. The form is part of the
 * key so switching forms never mixes the two accounts' views.
 */
export function scopeKey(form: z.infer<typeof apiFormSchema>, profile: string | undefined): string {
  return `${form}:${scopeOf(form, profile)}`;
}

const tldSchema = z.lazy(() => z.string().check(z.regex(/^\.[a-z0-9-]+$/)));

/** TLDs blocked from this browser, per scope: the API can add a TLD block but not list or remove one. */
export const addedTldsItem = defineValidatedItem(
  'local:addedTlds',
  () => z.record(z.string(), z.array(tldSchema)),
  {
    fallback: {},
    version: 1,
  },
);

/** Default-block state set from this browser, per scope: the API cannot read it back. */
export const defaultBlockItem = defineValidatedItem(
  'local:defaultBlock',
  () => z.record(z.string(), z.object({ enabled: z.boolean(), at: z.number() })),
  { fallback: {}, version: 1 },
);

/** The profile last chosen in the popup; shortcuts and the context menu act on it too. */
export const chosenProfileItem = defineValidatedItem('local:chosenProfile', () => z.string(), {
  fallback: 'default',
  version: 1,
});

// --- Options page: account management ---

/**
 * The profile the options page's account sections act on. Kept apart from `chosenProfileItem`
 * so browsing another profile's lists here never changes what the popup's buttons act on.
 */
export const managedProfileItem = defineValidatedItem(
  'local:managedProfile',
  () => z.string().check(z.minLength(1)),
  {
    fallback: 'default',
    version: 1,
  },
);

// --- Logs section ---

/**
 * When this browser last asked the service for a raw log (ms since the epoch). The service allows
 * one `logs/getdump` per hour per account; the client keeps count itself, across restarts. The
 * active account's value; each other account keeps its own (lib/accounts/store.ts ACCOUNT_ITEMS).
 */
export const lastLogDumpItem = defineValidatedItem(
  'local:lastLogDump',
  () => z.nullable(z.object({ at: z.number().check(z.gte(0)) })),
  { fallback: null, version: 1 },
);

/**
 * Days whose raw lines were deleted from this browser (newest last, at most 200): their download
 * can only fail, so the Logs section says so instead of spending the hourly download on it.
 */
export const deletedLogDaysItem = defineValidatedItem(
  'local:deletedLogDays',
  () => z.array(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/))).check(z.maxLength(200)),
  { fallback: [], version: 1 },
);

// ---------------------------------------------------------------------------------------------
// Background worker: dynamic IP registration, outbox of one-click changes, context menu.
// Everything the worker knows lives here, because an MV3 worker loses its globals at any time.
// ---------------------------------------------------------------------------------------------

/** The answer most IP lookup services give; ipify and icanhazip both send CORS headers too. */
export const DEFAULT_IP_LOOKUP_URLS = ['https://api.ipify.org?format=json', 'https://ipv4.icanhazip.com/'];
export const DYNAMIC_IP_INTERVAL = { min: 5, max: 1440, fallback: 15 } as const;

export const dynamicIpSettingsSchema = z.lazy(() =>
  z.object({
    enabled: z.boolean(),
    intervalMinutes: z.int().check(z.gte(DYNAMIC_IP_INTERVAL.min), z.lte(DYNAMIC_IP_INTERVAL.max)),
    label: z.string().check(z.minLength(1), z.maxLength(256)),
    /** Form A profile the address is registered to; ignored in Form B. */
    profile: z.string().check(z.minLength(1)),
    lookupUrls: z.array(z.url({ protocol: /^https?$/ })).check(z.minLength(1), z.maxLength(10)),
    /** Delete the address this browser registered before, once the new one is added. */
    removePrevious: z.boolean(),
  }),
);
export type DynamicIpSettings = z.infer<typeof dynamicIpSettingsSchema>;

export const dynamicIpSettingsItem = defineValidatedItem('local:dynamicIp', () => dynamicIpSettingsSchema, {
  fallback: {
    enabled: false,
    intervalMinutes: DYNAMIC_IP_INTERVAL.fallback,
    label: 'Dynamic IP (this browser)',
    profile: 'default',
    lookupUrls: DEFAULT_IP_LOOKUP_URLS,
    removePrevious: true,
  },
  version: 1,
});

export const registrationOutcomeSchema = z.lazy(() =>
  z.object({
    at: z.number(),
    ok: z.boolean(),
    /** The public IPv4 found, when the lookup worked. */
    ip: z.optional(z.string()),
    /** What the user reads: "Registered 203.0.113.7 …" or the reason it failed. */
    message: z.string(),
    /** Failure kind: 'lookup', 'no-key', or an ApiError kind; absent on success. */
    reason: z.optional(z.string()),
    consecutiveFailures: z.int().check(z.gte(0)),
    /** When the worker retries after a failure (backoff); absent when the regular interval applies. */
    nextAttemptAt: z.optional(z.number()),
  }),
);
export type RegistrationOutcome = z.infer<typeof registrationOutcomeSchema>;

/** Last outcome of a registration attempt (alarm or Register now); null before the first one. */
export const registrationOutcomeItem = defineValidatedItem(
  'local:dynamicIpOutcome',
  () => z.nullable(registrationOutcomeSchema),
  { fallback: null, version: 1 },
);

export const registeredAddressSchema = z.lazy(() =>
  z.object({
    ip: z.string(),
    profile: z.optional(z.string()),
    /** lib/account/identity.ts: an address registered in another account is never deleted from this one. */
    account: accountIdSchema,
    at: z.number(),
  }),
);
export type RegisteredAddress = z.infer<typeof registeredAddressSchema>;

/** Addresses kept for later deletion, of all accounts together (a few per account). */
export const MAX_REGISTERED_KEPT = 3 * MAX_ACCOUNTS;

/**
 * What this browser registered: the current address, and earlier ones whose deletion failed
 * (retried on the next run). Only these are ever deleted: never an address someone else added.
 */
export const registeredAddressesItem = defineValidatedItem(
  'local:dynamicIpRegistered',
  () =>
    z.object({
      current: z.nullable(registeredAddressSchema),
      stale: z.array(registeredAddressSchema).check(z.maxLength(MAX_REGISTERED_KEPT)),
    }),
  {
    fallback: { current: null, stale: [] },
    version: 2,
    migrations: {
      // 2: addresses carry the account identity (with the key's fingerprint), not `<form> <baseUrl>`.
      2: async (old) => {
        if (!isRecord(old)) return old;
        const retag = await legacyRetagger();
        return {
          ...old,
          current: old.current === null ? null : retag(old.current),
          stale: Array.isArray(old.stale) ? old.stale.map(retag) : old.stale,
        };
      },
    },
  },
);

export const outboxEntrySchema = z.lazy(() =>
  z.object({
    id: z.string().check(z.minLength(1)),
    change: listChangeSchema,
    /** The account the change was made for: it is sent there and nowhere else. */
    account: accountIdSchema,
    /**
     * The user chose "send to that account when it is back" for a change of an account that is
     * not configured now: it is no longer offered for a decision, and waits (however long).
     */
    keptForAccount: z.optional(z.boolean()),
    createdAt: z.number(),
    attempts: z.int().check(z.gte(0)),
    /** Not retried by an alarm before this time (backoff); a user action retries at once. */
    nextAttemptAt: z.number(),
    /** Why the last attempt did not go through, for the popup's "pending" line. */
    lastError: z.optional(z.string()),
    /**
     * The service asked not to be called again before this time (Retry-After of a 5xx or 429):
     * unlike `nextAttemptAt`, a user action waits for it too, and so does every change behind.
     */
    notBefore: z.optional(z.number()),
  }),
);
export type OutboxEntry = z.infer<typeof outboxEntrySchema>;

/**
 * One-click list changes not yet confirmed by the service, oldest first. The popup may watch
 * this item to show pending changes (see lib/outbox/index.ts). Only the worker writes it.
 */
/** More waiting changes than a person makes by hand: a cap on storage, refused with a message. */
export const OUTBOX_LIMIT = 500;

export const outboxItem = defineValidatedItem(
  'local:outbox',
  () => z.array(outboxEntrySchema).check(z.maxLength(OUTBOX_LIMIT)),
  {
    fallback: [],
    version: 2,
    // 2: each change names its account; those queued before are the configured account's.
    migrations: { 2: async (old) => withAccount(old) },
  },
);

export const settledChangeSchema = z.lazy(() =>
  z.object({
    id: z.string(),
    change: listChangeSchema,
    /** The account it went to: the popup counts it only in that account's lists. */
    account: accountIdSchema,
    state: z.enum(['delivered', 'failed']),
    message: z.string(),
    at: z.number(),
  }),
);
export type SettledChange = z.infer<typeof settledChangeSchema>;

/** The last changes the outbox settled (newest first, at most 20), so a refusal is never silent. */
export const settledChangesItem = defineValidatedItem(
  'local:outboxSettled',
  () => z.array(settledChangeSchema),
  {
    fallback: [],
    version: 2,
    // 2: each outcome names its account; those settled before went to the configured account.
    migrations: { 2: async (old) => withAccount(old) },
  },
);

export const leaseSchema = z.lazy(() =>
  z.object({
    holder: z.string(),
    /** Worker instance that took it: a lease of an instance that is gone is free at once. */
    instance: z.string(),
    expiresAt: z.number(),
  }),
);

/** Storage-based leases (by job name): one outbox delivery and one registration at a time. */
export const leasesItem = defineValidatedItem('local:leases', () => z.record(z.string(), leaseSchema), {
  fallback: {},
  version: 1,
});

/** The profiles of the account as last listed, for the context menu's per-profile submenus. */
export const profilesCacheItem = defineValidatedItem(
  'local:profilesCache',
  () =>
    z.nullable(
      z.object({
        account: accountIdSchema,
        profiles: z.array(z.string()).check(z.maxLength(200)),
        at: z.number(),
      }),
    ),
  { fallback: null, version: 2, migrations: { 2: retagLegacy } },
);

/** The right-click menu and the outcome notifications of menu and shortcut actions. */
export const contextMenuSettingsItem = defineValidatedItem(
  'local:contextMenu',
  () => z.object({ enabled: z.boolean() }),
  { fallback: { enabled: true }, version: 1 },
);

/** The identity of the account configured now (lib/account/identity.ts), from storage. */
export async function storedAccountIdentity(): Promise<AccountIdentity> {
  const [key, connection] = await Promise.all([apiKeyItem.getValue(), connectionItem.getValue()]);
  return accountIdentity({ key, connection });
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Migrations to identities: work stored before them carried `<form> <baseUrl>` or nothing, and
 * gets the identity of the connection stored at the update (identityForLegacyTag says how).
 */
async function legacyRetagger(): Promise<(value: unknown) => unknown> {
  const current = await storedAccountIdentity();
  return (value) =>
    isRecord(value) && typeof value.account === 'string'
      ? { ...value, account: identityForLegacyTag(value.account, current) }
      : value;
}

async function retagLegacy(old: unknown): Promise<unknown> {
  return (await legacyRetagger())(old);
}

async function withAccount(old: unknown): Promise<unknown> {
  if (!Array.isArray(old)) return old;
  const { id } = await storedAccountIdentity();
  return old.map((entry) => (isRecord(entry) ? { ...entry, account: id } : entry));
}

// --- Popup: cached views for an instant verdict ---

/**
 * One scope's whitelist and blocklist as last fetched, each packed in one string
 * (`packDomains` in lib/filtering/domain-index.ts: canonical, sorted, one per line) so the popup
 * reads and searches them without building anything, with the time of the fetch. `account` is
 * the account identity (lib/account/identity.ts): a view of another account is ignored. Views
 * stored before identities (tagged `<form> <baseUrl>`) read as missing: the popup fetches again.
 */
export const cachedListsSchema = z.lazy(() =>
  z.object({
    account: accountIdSchema,
    fetchedAt: z.number(),
    whitelist: z.string(),
    blocklist: z.string(),
  }),
);
export type CachedLists = z.infer<typeof cachedListsSchema>;

/**
 * Since version 4 a scope's lists are stored in buckets (lib/cache/list-buckets.ts), so the popup
 * reads only the one or two its site needs: `cachedLists:<scope>` holds this head, naming the
 * buckets that have entries; each of those is at `cachedListsBucket:<n>:<scope>` (the bucket
 * first, so no profile name can make one scope's key another's).
 */
const listsHeadSchema = z.lazy(() =>
  z.object({
    account: accountIdSchema,
    fetchedAt: z.number(),
    buckets: z.array(z.int().check(z.gte(0), z.lte(SINGLE_LABEL_BUCKET))),
  }),
);
/** One bucket, with the fetch time of its head: a bucket of another fetch makes the view a miss. */
const listsBucketSchema = z.lazy(() =>
  z.object({ fetchedAt: z.number(), whitelist: z.string(), blocklist: z.string() }),
);

export { CACHED_LISTS_BUCKET_PREFIX };

const ALL_BUCKETS = Array.from({ length: SINGLE_LABEL_BUCKET + 1 }, (_, bucket) => bucket);

/** Some buckets of a scope's lists, joined (`buckets` names them; null: the whole lists). */
export type CachedListsPart = CachedLists & { buckets: readonly number[] | null };

/**
 * Not a `defineValidatedItem`: one key per scope (and its buckets), made when asked for, and no
 * fallback value: a missing or unreadable view (an earlier shape included) reads as null, which
 * means "fetch it". Validated the same way, through the same reads (early ones included).
 *
 * `getValue` reads the whole lists (the options page and the worker, through `applyChanges`);
 * `getBuckets` only some (the popup). A version-3 view (whole lists under the scope's key) is read
 * as it is and stored again in buckets.
 */
export function cachedListsItem(scope: string) {
  const key = `local:cachedLists:${scope}` as const;
  const storedKey = (bucket: number) => `local:${bucketKey(scope, bucket)}` as const;

  async function write(value: CachedLists): Promise<void> {
    const checked = cachedListsSchema.parse(value);
    const buckets = splitIntoBuckets(checked);
    const head = {
      account: checked.account,
      fetchedAt: checked.fetchedAt,
      buckets: [...buckets.keys()].sort((a, b) => a - b),
    };
    // One write for the head and its buckets (atomic in both browsers); buckets left from an
    // earlier fetch are not named by the new head, and go afterwards.
    await browser.storage.local.set({
      [key.slice(LOCAL.length)]: head,
      ...Object.fromEntries(
        [...buckets].map(([bucket, lists]) => [
          bucketKey(scope, bucket),
          { fetchedAt: checked.fetchedAt, ...lists },
        ]),
      ),
    });
    const unused = ALL_BUCKETS.filter((bucket) => !buckets.has(bucket)).map((bucket) =>
      bucketKey(scope, bucket),
    );
    await browser.storage.local.remove(unused);
  }

  /** The head and the named buckets (null: all the head names); null when any is unusable. */
  async function read(wanted: readonly number[] | null): Promise<CachedListsPart | null> {
    const rawHead = await readStoredValue(key);
    const head = listsHeadSchema.safeParse(rawHead);
    if (!head.success) {
      // Version 3: the whole lists under the scope's key, stored again in buckets, once (a failed
      // write only means the same conversion next time).
      const whole = cachedListsSchema.safeParse(rawHead);
      if (!whole.success) return null;
      await write(whole.data).catch(() => undefined);
      if (wanted === null) return { ...whole.data, buckets: null };
      const buckets = splitIntoBuckets(whole.data);
      const lists = joinBuckets(wanted.flatMap((bucket) => buckets.get(bucket) ?? []));
      return { account: whole.data.account, fetchedAt: whole.data.fetchedAt, ...lists, buckets: wanted };
    }
    const { account, fetchedAt, buckets: filled } = head.data;
    const reading = (wanted ?? filled).filter((bucket) => filled.includes(bucket));
    const raw = await readStoredValues(reading.map(storedKey));
    const parts: PackedLists[] = [];
    for (const bucket of reading) {
      const part = listsBucketSchema.safeParse(raw.get(storedKey(bucket)));
      if (!part.success || part.data.fetchedAt !== fetchedAt) return null;
      parts.push(part.data);
    }
    return { account, fetchedAt, ...joinBuckets(parts), buckets: wanted };
  }

  return {
    key,
    /** The whole lists. */
    async getValue(): Promise<CachedLists | null> {
      const whole = await read(null);
      return whole === null
        ? null
        : {
            account: whole.account,
            fetchedAt: whole.fetchedAt,
            whitelist: whole.whitelist,
            blocklist: whole.blocklist,
          };
    },
    /** Only the entries of `buckets` (lib/cache/list-buckets.ts `bucketsFor`). */
    getBuckets: (buckets: readonly number[]): Promise<CachedListsPart | null> => read(buckets),
    setValue: write,
    /**
     * Replaces the entries of the buckets `part` names (read with `getBuckets`, then changed),
     * keeping the rest; false when the stored view is no longer the one `part` was read from.
     */
    async replaceBuckets(part: CachedListsPart & { buckets: readonly number[] }): Promise<boolean> {
      const head = listsHeadSchema.safeParse(await readStoredValue(key));
      if (!head.success || head.data.fetchedAt !== part.fetchedAt || head.data.account !== part.account)
        return false;
      const buckets = splitIntoBuckets(part);
      if ([...buckets.keys()].some((bucket) => !part.buckets.includes(bucket)))
        throw new Error('entries outside the buckets read');
      const filled = new Set(head.data.buckets.filter((bucket) => !part.buckets.includes(bucket)));
      for (const bucket of buckets.keys()) filled.add(bucket);
      await browser.storage.local.set({
        [key.slice(LOCAL.length)]: { ...head.data, buckets: [...filled].sort((a, b) => a - b) },
        ...Object.fromEntries(
          [...buckets].map(([bucket, lists]) => [
            bucketKey(scope, bucket),
            { fetchedAt: part.fetchedAt, ...lists },
          ]),
        ),
      });
      return true;
    },
    async removeValue(): Promise<void> {
      await browser.storage.local.remove([
        key.slice(LOCAL.length),
        ...ALL_BUCKETS.map((bucket) => bucketKey(scope, bucket)),
      ]);
    },
  };
}

const LOCAL = 'local:';

/**
 * Which scopes have a cached view of their lists (`cachedListsItem`), with when it was fetched
 * and its stored size in characters, so the views are kept within a budget without reading them
 * (lib/cache/storage-room.ts). A view missing here is only found by the emergency eviction.
 */
export const cachedListsIndexItem = defineValidatedItem(
  'local:cachedListsIndex',
  () => z.record(z.string(), z.object({ fetchedAt: z.number(), size: z.int().check(z.gte(0)) })),
  { fallback: {}, version: 1 },
);

/**
 * Today's blocked-query counts by host (lower case, no trailing dot), reduced from
 * `logs/getstats`, which is per account in both forms. Only the reduction is kept: the raw
 * statistics of a day can be large.
 */
export const cachedBlockedTodayItem = defineValidatedItem(
  'local:cachedBlockedToday',
  () =>
    z.nullable(
      z.object({
        account: accountIdSchema,
        date: z.string(),
        fetchedAt: z.number(),
        blocked: z.record(z.string(), z.number()),
      }),
    ),
  { fallback: null, version: 2, migrations: { 2: retagLegacy } },
);

// --- Page diagnosis and temporary allow ---

/**
 * The opt-in "Diagnose pages" setting (options page). It takes effect only while the browser
 * grants the optional permissions it asks for (lib/diagnosis/permissions.ts).
 */
export const diagnosisSettingsItem = defineValidatedItem(
  'local:diagnosis',
  () => z.object({ enabled: z.boolean() }),
  { fallback: { enabled: false }, version: 1 },
);

export const failedHostSchema = z.lazy(() =>
  z.object({
    host: z.string().check(z.minLength(1), z.maxLength(253)),
    /** lib/diagnosis/classify.ts: how the failure looks like the filter's doing. */
    kind: z.enum(['name-not-resolved', 'sinkhole']),
    /** The browser's error code (`net::ERR_NAME_NOT_RESOLVED`, `NS_ERROR_UNKNOWN_HOST`). */
    error: z.string().check(z.maxLength(100)),
    /** Failed requests to this host since the page loaded. */
    count: z.int().check(z.gte(1)),
    /** First failure (ms since the epoch). */
    at: z.number(),
  }),
);
export type FailedHost = z.infer<typeof failedHostSchema>;

/** At most this many hosts per tab: a page full of blocked trackers must not fill storage. */
export const MAX_FAILED_HOSTS_PER_TAB = 100;

export const tabFailuresSchema = z.lazy(() =>
  z.object({
    /** Host of the page the failures belong to; null when the page's load was not seen. */
    pageHost: z.nullable(z.string().check(z.maxLength(253))),
    /** The page's own failure, when the main frame did not load. */
    mainFrame: z.nullable(failedHostSchema),
    /** Every host that failed (main frame included), in the order they first failed. */
    hosts: z.array(failedHostSchema).check(z.maxLength(MAX_FAILED_HOSTS_PER_TAB)),
  }),
);
export type TabFailures = z.infer<typeof tabFailuresSchema>;

/**
 * Hosts whose requests failed with a DNS-type error, per tab id, written by the worker only.
 * storage.session where the browser has it: tab ids mean nothing after the browser restarts, and
 * the visited host names should not outlive the session. A worker restart keeps them either way.
 * Host names only, never page addresses.
 */
export const failedHostsItem = defineValidatedItem(
  browser.storage.session ? 'session:failedHosts' : 'local:failedHosts',
  () => z.record(z.string().check(z.regex(/^\d+$/)), tabFailuresSchema),
  { fallback: {}, version: 1 },
);

export const temporaryAllowSchema = z.lazy(() =>
  z.object({
    domain: z.string().check(z.minLength(1), z.maxLength(253)),
    /** Form A profile; absent in Form B (whole account). */
    profile: z.optional(z.string()),
    /** The account identity it was made in: its removal never goes to another account. */
    account: accountIdSchema,
    createdAt: z.number(),
    expiresAt: z.number(),
    /**
     * Where the domain was before: 'blocklist' is put back on the blocklist at expiry, 'none' is
     * taken off the whitelist. A domain that was on the whitelist already gets no entry here, so
     * a permanent whitelist entry is never removed by an expiry.
     */
    before: z.enum(['none', 'blocklist']),
  }),
);
export type TemporaryAllow = z.infer<typeof temporaryAllowSchema>;

/** Domains whitelisted for a limited time, written by the worker only. */
export const temporaryAllowsItem = defineValidatedItem(
  'local:temporaryAllows',
  () => z.array(temporaryAllowSchema).check(z.maxLength(500)),
  {
    fallback: [],
    version: 2,
    migrations: {
      // 2: the account identity (with the key's fingerprint) instead of `<form> <baseUrl>`.
      2: async (old) => {
        if (!Array.isArray(old)) return old;
        const retag = await legacyRetagger();
        return old.map(retag);
      },
    },
  },
);

// --- Reliability tests ---

/**
 * Time limit of every service call, in ms, for the end-to-end fault tests only: they need calls
 * that time out in a second or two rather than after the client's 15 s. Nothing in the product
 * sets it; null (always, outside those tests) keeps the client's default.
 */
export const apiTimeoutForTestsItem = defineValidatedItem(
  'local:testOnlyApiTimeoutMs',
  () => z.nullable(z.int().check(z.gte(200), z.lte(120_000))),
  { fallback: null, version: 1 },
);

/**
 * Whether this build reads `apiTimeoutForTestsItem`: only the build the fault tests load
 * (API_TIMEOUT_FROM_STORAGE=1, wxt.config.ts). The shipped extension never reads it, so no
 * popup opening pays for a setting only tests write.
 */
export const readsApiTimeoutForTests: boolean = import.meta.env.API_TIMEOUT_FROM_STORAGE === true;

// --- Appearance ---

/**
 * Light or dark pages: 'system' follows the browser. Pages also keep a synchronous copy in
 * localStorage for their first paint (lib/theme/theme.ts says why).
 */
export const themeItem = defineValidatedItem('local:theme', () => z.enum(THEME_CHOICES), {
  fallback: 'system',
  version: 1,
});

// --- Popup: registrable domains already worked out (speed) ---

/** Hosts whose registrable domain is remembered (lib/cache/registrable-domains.ts), newest last. */
export const MAX_REMEMBERED_HOSTS = 200;

const rememberedHostSchema = z.lazy(() => z.string().check(z.minLength(1), z.maxLength(253)));

/**
 * The registrable domain (Public Suffix List) of hosts the popup has shown, so an opening on a
 * known host never loads the list (about 47 kB gzipped). `psl` names the list's version: a map
 * made with another version is ignored. Each pair is checked again when read (the domain must be
 * the host or one of its parents), so a bad entry can never make one click act on another site.
 */
export const registrableDomainsItem = defineValidatedItem(
  'local:registrableDomains',
  () =>
    z.object({
      psl: z.string(),
      /** [host, registrable domain], oldest first. */
      hosts: z
        .array(z.tuple([rememberedHostSchema, rememberedHostSchema]))
        .check(z.maxLength(MAX_REMEMBERED_HOSTS)),
    }),
  { fallback: { psl: '', hosts: [] }, version: 1 },
);

// --- Unbreak this page (lib/diagnosis/unbreak.ts) ---

/** At most this many unbreaks are remembered (running or waiting for their review), newest kept. */
export const MAX_UNBREAK_SESSIONS = 20;

export const unbreakDomainSchema = z.lazy(() =>
  z.object({
    /** The whitelist entry allowed for a while: a registrable domain or an exact host. */
    domain: z.string().check(z.minLength(1), z.maxLength(253)),
    /** Where it was before ('blocklist': the user confirmed allowing a domain they had blocked). */
    before: z.enum(['none', 'blocklist']),
    /** When its allow started: only loads after it count. */
    allowedAt: z.number(),
    /** The first request to it that succeeded after `allowedAt` from a page of the site; absent: never needed. */
    loadedAt: z.optional(z.number()),
    /** Requests that succeeded so far (capped). */
    loads: z.int().check(z.gte(0), z.lte(1_000_000)),
  }),
);

export const unbreakSessionSchema = z.lazy(() =>
  z.object({
    id: z.string().check(z.minLength(1), z.maxLength(300)),
    /** The account identity it was made in (lib/account/identity.ts). */
    account: accountIdSchema,
    /** Form A profile; absent in Form B (whole account). */
    profile: z.optional(z.string()),
    /** Registrable domain of the page: later visits to the same site count too. */
    site: z.string().check(z.minLength(1), z.maxLength(253)),
    /** The page's host when the user clicked (never its address). */
    pageHost: z.string().check(z.minLength(1), z.maxLength(253)),
    startedAt: z.number(),
    /** When the allows end; after it the popup offers the review. */
    expiresAt: z.number(),
    /** When the user was told the allows ended (one notification per unbreak). */
    announcedAt: z.optional(z.number()),
    domains: z.array(unbreakDomainSchema).check(z.minLength(1), z.maxLength(MAX_UNBREAK_DOMAINS)),
  }),
);
export type UnbreakSession = z.infer<typeof unbreakSessionSchema>;
export type UnbreakDomain = z.infer<typeof unbreakDomainSchema>;

/**
 * "Unbreak this page": what each unbreak allowed for a while and which of those domains the site
 * really loaded, until the user reviews it. Written by the worker only; per account (each entry
 * names its account identity). storage.local: a review may be due after a browser restart.
 */
export const unbreakSessionsItem = defineValidatedItem(
  'local:unbreakSessions',
  () => z.array(unbreakSessionSchema).check(z.maxLength(MAX_UNBREAK_SESSIONS)),
  { fallback: [], version: 1 },
);
