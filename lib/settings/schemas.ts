/**
 * The zod schemas of every storage item (./storage.ts), checked on every write, import and
 * migration; reads trust the structure alone (./shapes.ts), so a page that only reads never loads
 * this module (docs/architecture.md, "Storage"). Import schemas from here, types from ./storage.ts.
 *
 * Named schemas are `z.lazy`, built on first use: the options page and the worker load this
 * module whole and use a few of them.
 */
import * as z from 'zod/mini';
import { API_FORMS } from '@/lib/api/forms';
import { SINGLE_LABEL_BUCKET } from '@/lib/cache/list-buckets';
import { ACCOUNT_ID_PATTERN } from '@/lib/identity/identity';
import { MAX_UNBREAK_DOMAINS, queuedChangeSchema } from '@/lib/messaging/protocol';
import {
  ACCOUNT_NAME_MAX,
  DYNAMIC_IP_INTERVAL,
  MAX_ACCOUNTS,
  MAX_EARLIER_IDENTITIES,
  MAX_FAILED_HOSTS_PER_TAB,
  MAX_REGISTERED_KEPT,
  MAX_REMEMBERED_HOSTS,
  MAX_UNBREAK_SESSIONS,
  OUTBOX_LIMIT,
} from './limits';
import { THEME_CHOICES } from './theme-choice';

// Extension pages forbid `new Function` (Content Security Policy): zod would try it once per page,
// at the first parse, be refused, and have the refusal reported.
z.config({ jitless: true });

/** What storage accepts as an account id (lib/identity/identity.ts). */
export const accountIdSchema = z.lazy(() => z.string().check(z.regex(ACCOUNT_ID_PATTERN)));

export const apiFormSchema = z.enum(API_FORMS);

export const connectionSchema = z.lazy(() =>
  z.object({
    baseUrl: z.string().check(z.minLength(1)),
    form: apiFormSchema,
  }),
);

export type ConnectionSettings = z.infer<typeof connectionSchema>;

export const accountEntrySchema = z.lazy(() =>
  z.object({
    /** Stable and random (never derived from the key); names the account's alarms and leases. */
    id: z.string().check(z.regex(/^[A-Za-z0-9-]{8,64}$/)),
    /** Absent: the account is named after its service's host. */
    name: z.optional(z.string().check(z.minLength(1), z.maxLength(ACCOUNT_NAME_MAX))),
    createdAt: z.number(),
    /**
     * The identities (lib/account/identity.ts) it had before its current one, newest last: what
     * was recorded under an earlier key or address goes with it when it is removed.
     */
    earlierIdentities: z.optional(z.array(accountIdSchema).check(z.maxLength(MAX_EARLIER_IDENTITIES))),
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

export const tldSchema = z.lazy(() => z.string().check(z.regex(/^\.[a-z0-9-]+$/)));

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

export const registeredAddressSchema = z.lazy(() =>
  z.object({
    ip: z.string(),
    profile: z.optional(z.string()),
    /** lib/identity/identity.ts: an address registered in another account is never deleted from this one. */
    account: accountIdSchema,
    at: z.number(),
  }),
);

export type RegisteredAddress = z.infer<typeof registeredAddressSchema>;

export const outboxEntrySchema = z.lazy(() =>
  z.object({
    id: z.string().check(z.minLength(1)),
    change: queuedChangeSchema,
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
    /**
     * The length of that wait, as asked (bounded): no wait is left longer than its length, whatever
     * the clock did since (lib/outbox/policy.ts). Absent in entries of earlier versions.
     */
    askedWaitMs: z.optional(z.number().check(z.gte(0))),
    /**
     * How long the change has waited, as the outbox counted it up to `countedAt` (each step at most
     * a day): the week after which it is given up, safe from a clock set forward. Absent until the
     * first count, and in entries of earlier versions (counted from `createdAt`).
     */
    waitedMs: z.optional(z.number().check(z.gte(0))),
    countedAt: z.optional(z.number()),
  }),
);

export type OutboxEntry = z.infer<typeof outboxEntrySchema>;

export const settledChangeSchema = z.lazy(() =>
  z.object({
    id: z.string(),
    change: queuedChangeSchema,
    /** The account it went to: the popup counts it only in that account's lists. */
    account: accountIdSchema,
    state: z.enum(['delivered', 'failed']),
    message: z.string(),
    at: z.number(),
  }),
);

export type SettledChange = z.infer<typeof settledChangeSchema>;

export const leaseSchema = z.lazy(() =>
  z.object({
    holder: z.string(),
    /** Worker instance that took it: a lease of an instance that is gone is free at once. */
    instance: z.string(),
    expiresAt: z.number(),
  }),
);

/**
 * One scope's whitelist and blocklist as last fetched, each packed in one string
 * (`packDomains` in lib/filtering/domain-index.ts: canonical, sorted, one per line) so the popup
 * reads and searches them without building anything, with the time of the fetch. `account` is
 * the account identity (lib/identity/identity.ts): a view of another account is ignored. Views
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
export const listsHeadSchema = z.lazy(() =>
  z.object({
    account: accountIdSchema,
    fetchedAt: z.number(),
    buckets: z.array(z.int().check(z.gte(0), z.lte(SINGLE_LABEL_BUCKET))),
  }),
);

/** One bucket, with the fetch time of its head: a bucket of another fetch makes the view a miss. */
export const listsBucketSchema = z.lazy(() =>
  z.object({ fetchedAt: z.number(), whitelist: z.string(), blocklist: z.string() }),
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

export const rememberedHostSchema = z.lazy(() => z.string().check(z.minLength(1), z.maxLength(253)));

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
    /** The account identity it was made in (lib/identity/identity.ts). */
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

// --- The items' own schemas: `<name>ItemSchema` is the schema of ./storage.ts's `<name>Item` ---

export const apiKeyItemSchema = z.lazy(() => z.string());

/** `apiKeyFingerprintItem` (./storage.ts): 16 hex digits, or empty when not worked out yet. */
export const apiKeyFingerprintItemSchema = z.lazy(() => z.string().check(z.regex(/^(?:[0-9a-f]{16})?$/)));

export const accountKeysItemSchema = z.lazy(() => z.record(z.string(), z.string().check(z.maxLength(512))));

export const addedTldsItemSchema = z.lazy(() => z.record(z.string(), z.array(tldSchema)));

export const defaultBlockItemSchema = z.lazy(() =>
  z.record(z.string(), z.object({ enabled: z.boolean(), at: z.number() })),
);

export const chosenProfileItemSchema = z.lazy(() => z.string());

export const managedProfileItemSchema = z.lazy(() => z.string().check(z.minLength(1)));

export const lastLogDumpItemSchema = z.lazy(() => z.nullable(z.object({ at: z.number().check(z.gte(0)) })));

export const deletedLogDaysItemSchema = z.lazy(() =>
  z.array(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/))).check(z.maxLength(200)),
);

export const registrationOutcomeItemSchema = z.lazy(() => z.nullable(registrationOutcomeSchema));

export const registeredAddressesItemSchema = z.lazy(() =>
  z.object({
    current: z.nullable(registeredAddressSchema),
    stale: z.array(registeredAddressSchema).check(z.maxLength(MAX_REGISTERED_KEPT)),
  }),
);

export const outboxItemSchema = z.lazy(() => z.array(outboxEntrySchema).check(z.maxLength(OUTBOX_LIMIT)));

export const settledChangesItemSchema = z.lazy(() => z.array(settledChangeSchema));

export const leasesItemSchema = z.lazy(() => z.record(z.string(), leaseSchema));

export const profilesCacheItemSchema = z.lazy(() =>
  z.nullable(
    z.object({
      account: accountIdSchema,
      profiles: z.array(z.string()).check(z.maxLength(200)),
      at: z.number(),
    }),
  ),
);

export const contextMenuSettingsItemSchema = z.lazy(() => z.object({ enabled: z.boolean() }));

export const cachedListsIndexItemSchema = z.lazy(() =>
  z.record(z.string(), z.object({ fetchedAt: z.number(), size: z.int().check(z.gte(0)) })),
);

export const cachedBlockedTodayItemSchema = z.lazy(() =>
  z.nullable(
    z.object({
      account: accountIdSchema,
      date: z.string(),
      fetchedAt: z.number(),
      blocked: z.record(z.string(), z.number()),
    }),
  ),
);

export const diagnosisSettingsItemSchema = z.lazy(() => z.object({ enabled: z.boolean() }));

export const failedHostsOfTabItemSchema = z.lazy(() => z.nullable(tabFailuresSchema));

/** `failedHostsTabsItem` (./storage.ts): the ids of the tabs that have a record. */
export const failedHostsTabsItemSchema = z.lazy(() => z.object({ tabs: z.array(z.int().check(z.gte(0))) }));

export const temporaryAllowsItemSchema = z.lazy(() => z.array(temporaryAllowSchema).check(z.maxLength(500)));

export const apiTimeoutForTestsItemSchema = z.lazy(() =>
  z.nullable(z.int().check(z.gte(200), z.lte(120_000))),
);

export const themeSchema = z.enum(THEME_CHOICES);

export const registrableDomainsItemSchema = z.lazy(() =>
  z.object({
    psl: z.string(),
    /** [host, registrable domain], oldest first. */
    hosts: z
      .array(z.tuple([rememberedHostSchema, rememberedHostSchema]))
      .check(z.maxLength(MAX_REMEMBERED_HOSTS)),
  }),
);

export const unbreakSessionsItemSchema = z.lazy(() =>
  z.array(unbreakSessionSchema).check(z.maxLength(MAX_UNBREAK_SESSIONS)),
);
