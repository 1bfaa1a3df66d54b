/**
 * Every storage item of the extension, in one place. Keys carry their area prefix; each item has
 * a zod schema, a fallback and a version from the first release, so later releases can migrate.
 *
 * The API key lives in `storage.local` only, never in `storage.sync` (docs/service-api.md,
 * "API key storage").
 *
 * The schemas are in ./schemas.ts, loaded the first time a value must be checked or written: a
 * page loads all of this module and uses a few items, and the popup's first paint waits on
 * loading it (./vouched.ts says why most openings never load the schemas).
 */
import { browser } from '@wxt-dev/browser';
import type * as z from 'zod/mini';
import { type AccountIdentity, accountIdentity, identityForLegacyTag } from '@/lib/account/identity';
import { scopeOf } from '@/lib/api/forms';
import type { ApiForm } from '@/lib/api/types';
import {
  bucketKey,
  CACHED_LISTS_BUCKET_PREFIX,
  joinBuckets,
  type PackedLists,
  SINGLE_LABEL_BUCKET,
  splitIntoBuckets,
} from '@/lib/cache/list-buckets';
import { DYNAMIC_IP_INTERVAL } from './limits';
import type { CachedLists } from './schemas';
import { readStoredValue, readStoredValues } from './stored-reads';
import {
  checkStoredValue,
  defineValidatedItem as defineItem,
  type ValidatedItemOptions,
} from './validated-item';

export * from './limits';
export type {
  AccountEntry,
  CachedLists,
  ConnectionSettings,
  DynamicIpSettings,
  FailedHost,
  OutboxEntry,
  RegisteredAddress,
  RegistrationOutcome,
  SettledChange,
  TabFailures,
  TemporaryAllow,
  UnbreakDomain,
  UnbreakSession,
} from './schemas';

type Schemas = typeof import('./schemas');

let schemasLoading: Promise<Schemas> | undefined;
/** The schemas module, loaded once, when the first value must be checked or written. */
export const loadSchemas = (): Promise<Schemas> => (schemasLoading ??= import('./schemas'));

/** An item whose schema `pick` names in ./schemas.ts. */
function defineValidatedItem<S extends z.ZodMiniType>(
  key: Parameters<typeof defineItem>[0],
  pick: (schemas: Schemas) => S,
  options: ValidatedItemOptions<z.infer<S>>,
) {
  return defineItem(key, async () => pick(await loadSchemas()), options);
}

export const DEFAULT_BASE_URL = 'https://my.cleanbrowsing.org';

/**
 * The active account's key (lib/accounts: the other accounts' keys are in `accountKeysItem`).
 * Separate from the rest so nothing that exports settings picks it up by accident.
 */
export const apiKeyItem = defineValidatedItem('local:apiKey', (s) => s.apiKeyItemSchema, {
  fallback: '',
  version: 1,
});

/** Where the active account's service is and which form of its API to speak. */
export const connectionItem = defineValidatedItem('local:connection', (s) => s.connectionSchema, {
  fallback: { baseUrl: DEFAULT_BASE_URL, form: 'A' },
  version: 1,
});

// --- Several accounts ---

export const accountsItem = defineValidatedItem('local:accounts', (s) => s.accountsSchema, {
  fallback: { active: null, accounts: [] },
  version: 1,
});

/** Where an account's parked value of the item at `key` is kept, for vouching for it (./vouched.ts). */
export const parkedAt = (accountId: string, key: string) => `${accountsItem.key}/${accountId}/${key}`;

/**
 * The keys of the accounts that are not active, by account id: apart from the accounts list so
 * nothing that lists or exports accounts picks a key up by accident. The active account's key is
 * in `apiKeyItem` and only there.
 */
export const accountKeysItem = defineValidatedItem('local:accountKeys', (s) => s.accountKeysItemSchema, {
  fallback: {},
  version: 1,
});

/**
 * Data kept per scope: a profile in Form A, the whole account in Form B. The form is part of the
 * key so switching forms never mixes the two accounts' views.
 */
export function scopeKey(form: ApiForm, profile: string | undefined): string {
  return `${form}:${scopeOf(form, profile)}`;
}

/** TLDs blocked from this browser, per scope: the API can add a TLD block but not list or remove one. */
export const addedTldsItem = defineValidatedItem('local:addedTlds', (s) => s.addedTldsItemSchema, {
  fallback: {},
  version: 1,
});

/** Default-block state set from this browser, per scope: the API cannot read it back. */
export const defaultBlockItem = defineValidatedItem('local:defaultBlock', (s) => s.defaultBlockItemSchema, {
  fallback: {},
  version: 1,
});

/** The profile last chosen in the popup; shortcuts and the context menu act on it too. */
export const chosenProfileItem = defineValidatedItem(
  'local:chosenProfile',
  (s) => s.chosenProfileItemSchema,
  {
    fallback: 'default',
    version: 1,
  },
);

// --- Options page: account management ---

/**
 * The profile the options page's account sections act on. Kept apart from `chosenProfileItem`
 * so browsing another profile's lists here never changes what the popup's buttons act on.
 */
export const managedProfileItem = defineValidatedItem(
  'local:managedProfile',
  (s) => s.managedProfileItemSchema,
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
export const lastLogDumpItem = defineValidatedItem('local:lastLogDump', (s) => s.lastLogDumpItemSchema, {
  fallback: null,
  version: 1,
});

/**
 * Days whose raw lines were deleted from this browser (newest last, at most 200): their download
 * can only fail, so the Logs section says so instead of spending the hourly download on it.
 */
export const deletedLogDaysItem = defineValidatedItem(
  'local:deletedLogDays',
  (s) => s.deletedLogDaysItemSchema,
  { fallback: [], version: 1 },
);

// ---------------------------------------------------------------------------------------------
// Background worker: dynamic IP registration, outbox of one-click changes, context menu.
// Everything the worker knows lives here, because an MV3 worker loses its globals at any time.
// ---------------------------------------------------------------------------------------------

/** The answer most IP lookup services give; ipify and icanhazip both send CORS headers too. */
export const DEFAULT_IP_LOOKUP_URLS = ['https://api.ipify.org?format=json', 'https://ipv4.icanhazip.com/'];

export const dynamicIpSettingsItem = defineValidatedItem(
  'local:dynamicIp',
  (s) => s.dynamicIpSettingsSchema,
  {
    fallback: {
      enabled: false,
      intervalMinutes: DYNAMIC_IP_INTERVAL.fallback,
      label: 'Dynamic IP (this browser)',
      profile: 'default',
      lookupUrls: DEFAULT_IP_LOOKUP_URLS,
      removePrevious: true,
    },
    version: 1,
  },
);

/** Last outcome of a registration attempt (alarm or Register now); null before the first one. */
export const registrationOutcomeItem = defineValidatedItem(
  'local:dynamicIpOutcome',
  (s) => s.registrationOutcomeItemSchema,
  { fallback: null, version: 1 },
);

/**
 * What this browser registered: the current address, and earlier ones whose deletion failed
 * (retried on the next run). Only these are ever deleted: never an address someone else added.
 */
export const registeredAddressesItem = defineValidatedItem(
  'local:dynamicIpRegistered',
  (s) => s.registeredAddressesItemSchema,
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

/**
 * One-click list changes not yet confirmed by the service, oldest first. The popup may watch
 * this item to show pending changes (see lib/outbox/index.ts). Only the worker writes it.
 */

export const outboxItem = defineValidatedItem('local:outbox', (s) => s.outboxItemSchema, {
  fallback: [],
  version: 2,
  // 2: each change names its account; those queued before are the configured account's.
  migrations: { 2: async (old) => withAccount(old) },
});

/** The last changes the outbox settled (newest first, at most 20), so a refusal is never silent. */
export const settledChangesItem = defineValidatedItem(
  'local:outboxSettled',
  (s) => s.settledChangesItemSchema,
  {
    fallback: [],
    version: 2,
    // 2: each outcome names its account; those settled before went to the configured account.
    migrations: { 2: async (old) => withAccount(old) },
  },
);

/** Storage-based leases (by job name): one outbox delivery and one registration at a time. */
export const leasesItem = defineValidatedItem('local:leases', (s) => s.leasesItemSchema, {
  fallback: {},
  version: 1,
});

/** The profiles of the account as last listed, for the context menu's per-profile submenus. */
export const profilesCacheItem = defineValidatedItem(
  'local:profilesCache',
  (s) => s.profilesCacheItemSchema,
  { fallback: null, version: 2, migrations: { 2: retagLegacy } },
);

/** The right-click menu and the outcome notifications of menu and shortcut actions. */
export const contextMenuSettingsItem = defineValidatedItem(
  'local:contextMenu',
  (s) => s.contextMenuSettingsItemSchema,
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
  /** The head (which buckets are filled), or null when it is not in the bucketed shape. */
  const checkHead = (raw: unknown) =>
    checkStoredValue(key, raw, async () => (await loadSchemas()).listsHeadSchema, null);

  async function write(value: CachedLists): Promise<void> {
    const checked = (await loadSchemas()).cachedListsSchema.parse(value);
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
    const head = await checkHead(rawHead);
    if (head === null) {
      // Version 3: the whole lists under the scope's key, stored again in buckets, once (a failed
      // write only means the same conversion next time).
      const whole = (await loadSchemas()).cachedListsSchema.safeParse(rawHead);
      if (!whole.success) return null;
      await write(whole.data).catch(() => undefined);
      if (wanted === null) return { ...whole.data, buckets: null };
      const buckets = splitIntoBuckets(whole.data);
      const lists = joinBuckets(wanted.flatMap((bucket) => buckets.get(bucket) ?? []));
      return { account: whole.data.account, fetchedAt: whole.data.fetchedAt, ...lists, buckets: wanted };
    }
    const { account, fetchedAt, buckets: filled } = head;
    const reading = (wanted ?? filled).filter((bucket) => filled.includes(bucket));
    const raw = await readStoredValues(reading.map(storedKey));
    const parts: PackedLists[] = [];
    for (const bucket of reading) {
      // Vouched for by its shape: the schema takes any string as a packed list (./vouched.ts).
      const part = await checkStoredValue(
        storedKey(bucket),
        raw.get(storedKey(bucket)),
        async () => (await loadSchemas()).listsBucketSchema,
        null,
        { printOf: 'shape' },
      );
      if (part === null || part.fetchedAt !== fetchedAt) return null;
      parts.push(part);
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
      const head = await checkHead(await readStoredValue(key));
      if (head === null || head.fetchedAt !== part.fetchedAt || head.account !== part.account) return false;
      const buckets = splitIntoBuckets(part);
      if ([...buckets.keys()].some((bucket) => !part.buckets.includes(bucket)))
        throw new Error('entries outside the buckets read');
      const filled = new Set(head.buckets.filter((bucket) => !part.buckets.includes(bucket)));
      for (const bucket of buckets.keys()) filled.add(bucket);
      await browser.storage.local.set({
        [key.slice(LOCAL.length)]: { ...head, buckets: [...filled].sort((a, b) => a - b) },
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
  (s) => s.cachedListsIndexItemSchema,
  { fallback: {}, version: 1 },
);

/**
 * Today's blocked-query counts by host (lower case, no trailing dot), reduced from
 * `logs/getstats`, which is per account in both forms. Only the reduction is kept: the raw
 * statistics of a day can be large.
 */
export const cachedBlockedTodayItem = defineValidatedItem(
  'local:cachedBlockedToday',
  (s) => s.cachedBlockedTodayItemSchema,
  { fallback: null, version: 2, migrations: { 2: retagLegacy } },
);

// --- Page diagnosis and temporary allow ---

/**
 * The opt-in "Diagnose pages" setting (options page). It takes effect only while the browser
 * grants the optional permissions it asks for (lib/diagnosis/permissions.ts).
 */
export const diagnosisSettingsItem = defineValidatedItem(
  'local:diagnosis',
  (s) => s.diagnosisSettingsItemSchema,
  { fallback: { enabled: false }, version: 1 },
);

/**
 * Where page diagnosis keeps its records: storage.session where the browser has it (tab ids mean
 * nothing after the browser restarts, and the visited host names should not outlive the session).
 * A worker restart keeps them either way.
 */
const DIAGNOSIS_AREA = browser.storage.session ? 'session' : 'local';

/**
 * Hosts whose requests failed with a DNS-type error in the tab `tabId`, written by the worker
 * only. Host names only, never page addresses. One key per tab, so a failure in one tab writes
 * that tab's record alone (docs/architecture.md, "Page diagnosis's records").
 */
export function failedHostsOfTabItem(tabId: number) {
  return defineValidatedItem(`${DIAGNOSIS_AREA}:failedHosts:${tabId}`, (s) => s.failedHostsOfTabItemSchema, {
    fallback: null,
    version: 1,
  });
}

/**
 * The tabs that have a record (`failedHostsOfTabItem`), for the badges and for forgetting them
 * all. Version 1 held every tab's record in this one value; its migration moves each to its own key.
 */
export const failedHostsTabsItem = defineValidatedItem(
  `${DIAGNOSIS_AREA}:failedHosts`,
  (s) => s.failedHostsTabsItemSchema,
  {
    fallback: { tabs: [] },
    version: 2,
    migrations: {
      2: async (old) => {
        // Version 1 stored an object and nothing else: anything else is no tab's record.
        if (old === null || typeof old !== 'object' || Array.isArray(old)) return { tabs: [] };
        const tabs = Object.keys(old).filter((tab) => /^\d+$/.test(tab));
        // Moved as stored: each is checked when its tab's item reads it.
        await browser.storage[DIAGNOSIS_AREA].set(
          Object.fromEntries(
            tabs.map((tab) => [`failedHosts:${tab}`, (old as Record<string, unknown>)[tab]]),
          ),
        );
        return { tabs: tabs.map(Number) };
      },
    },
  },
);

/** Domains whitelisted for a limited time, written by the worker only. */
export const temporaryAllowsItem = defineValidatedItem(
  'local:temporaryAllows',
  (s) => s.temporaryAllowsItemSchema,
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
  (s) => s.apiTimeoutForTestsItemSchema,
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
export const themeItem = defineValidatedItem('local:theme', (s) => s.themeSchema, {
  fallback: 'system',
  version: 1,
});

// --- Popup: registrable domains already worked out (speed) ---

/**
 * The registrable domain (Public Suffix List) of hosts the popup has shown, so an opening on a
 * known host never loads the list (about 47 kB gzipped). `psl` names the list's version: a map
 * made with another version is ignored. Each pair is checked again when read (the domain must be
 * the host or one of its parents), so a bad entry can never make one click act on another site.
 */
export const registrableDomainsItem = defineValidatedItem(
  'local:registrableDomains',
  (s) => s.registrableDomainsItemSchema,
  { fallback: { psl: '', hosts: [] }, version: 1 },
);

// --- Unbreak this page (lib/diagnosis/unbreak.ts) ---

/**
 * "Unbreak this page": what each unbreak allowed for a while and which of those domains the site
 * really loaded, until the user reviews it. Written by the worker only; per account (each entry
 * names its account identity). storage.local: a review may be due after a browser restart.
 */
export const unbreakSessionsItem = defineValidatedItem(
  'local:unbreakSessions',
  (s) => s.unbreakSessionsItemSchema,
  { fallback: [], version: 1 },
);
