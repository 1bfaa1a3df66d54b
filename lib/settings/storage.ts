/**
 * Every storage item of the extension, in one place. Keys carry their area prefix; each item has
 * a zod schema (./schemas.ts, loaded to check a write), a structural guard (./shapes.ts, what a
 * read trusts), a fallback and a version, so later releases can migrate (./item.ts says how).
 *
 * The API key lives in `storage.local` only, never in `storage.sync` (docs/service-api.md,
 * "API key storage").
 */

import { browser } from 'wxt/browser';
import type * as z from 'zod/mini';
import {
  type AccountIdentity,
  accountIdentity,
  identityForLegacyTag,
  keyFingerprint,
  NO_KEY,
} from '@/lib/identity/identity';

export { scopeKey } from '@/lib/api/forms';
/** Kept in its own module (docs/schedules.md), listed here with every other item. */
export { scheduleChecksItem, schedulesItem } from '@/lib/schedules/store';

import { defineItem, entriesOf, type ItemOptions, removeRaw, type StoredItem, writeRaw } from './item';
import { DYNAMIC_IP_INTERVAL } from './limits';
import { isRecord } from './shape';
import * as shapes from './shapes';

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
function item<S extends z.ZodMiniType>(
  key: Parameters<typeof defineItem>[0],
  pick: (schemas: Schemas) => S,
  options: ItemOptions<z.infer<S>>,
) {
  return defineItem<z.infer<S>>(
    key,
    async () => pick(await loadSchemas()) as z.ZodMiniType<z.infer<S>>,
    options,
  );
}

export const DEFAULT_BASE_URL = 'https://my.cleanbrowsing.org';

const storedApiKeyItem = item('local:apiKey', (s) => s.apiKeyItemSchema, {
  shape: shapes.string,
  fallback: '',
});

/**
 * The active key's fingerprint (lib/identity/identity.ts `keyFingerprint`), written with the key
 * in the same storage write (`activeKeyEntries`), so the popup names its account without reading
 * the key. Empty: not worked out yet (the worker does it when it installs or updates).
 */
export const apiKeyFingerprintItem = item('local:apiKeyFingerprint', (s) => s.apiKeyFingerprintItemSchema, {
  shape: shapes.string,
  fallback: '',
});

/** The storage entries that make `key` the active key, with its fingerprint (for one write with other values). */
export async function activeKeyEntries(key: string): Promise<Record<string, unknown>> {
  const fingerprint = await keyFingerprint(key);
  return {
    ...(await entriesOf(storedApiKeyItem, key)),
    ...(await entriesOf(apiKeyFingerprintItem, fingerprint === NO_KEY ? '' : fingerprint)),
  };
}

/**
 * The active account's key (lib/accounts: the other accounts' keys are in `accountKeysItem`).
 * Separate from the rest so nothing that exports settings picks it up by accident. Written and
 * removed always with its fingerprint.
 */
export const apiKeyItem: StoredItem<string> = {
  ...storedApiKeyItem,
  setValue: async (key) => writeRaw('local', await activeKeyEntries(key)),
  removeValue: () => removeRaw('local', [storedApiKeyItem.name, apiKeyFingerprintItem.name]),
};

/** Where the active account's service is and which form of its API to speak. */
export const connectionItem = item('local:connection', (s) => s.connectionSchema, {
  shape: shapes.connection,
  fallback: { baseUrl: DEFAULT_BASE_URL, form: 'A' },
});

/** The accounts of this browser and the active one (./schemas.ts `accountsSchema` says how they are kept). */
export const accountsItem = item('local:accounts', (s) => s.accountsSchema, {
  shape: shapes.accounts,
  fallback: { active: null, accounts: [] },
});

/**
 * The keys of the accounts that are not active, by account id: apart from the accounts list so
 * nothing that lists or exports accounts picks a key up by accident. The active account's key is
 * in `apiKeyItem` and only there.
 */
export const accountKeysItem = item('local:accountKeys', (s) => s.accountKeysItemSchema, {
  shape: shapes.stringRecord,
  fallback: {},
});

/** TLDs blocked from this browser, per scope: the API can add a TLD block but not list or remove one. */
export const addedTldsItem = item('local:addedTlds', (s) => s.addedTldsItemSchema, {
  shape: shapes.addedTlds,
  fallback: {},
});

/** Default-block state set from this browser, per scope: the API cannot read it back. */
export const defaultBlockItem = item('local:defaultBlock', (s) => s.defaultBlockItemSchema, {
  shape: shapes.defaultBlock,
  fallback: {},
});

/** The profile last chosen in the popup; shortcuts and the context menu act on it too. */
export const chosenProfileItem = item('local:chosenProfile', (s) => s.chosenProfileItemSchema, {
  shape: shapes.string,
  fallback: 'default',
});

/**
 * The profile the options page's account sections act on. Kept apart from `chosenProfileItem`
 * so browsing another profile's lists here never changes what the popup's buttons act on.
 */
export const managedProfileItem = item('local:managedProfile', (s) => s.managedProfileItemSchema, {
  shape: shapes.string,
  fallback: 'default',
});

/**
 * When this browser last asked the service for a raw log (ms since the epoch). The service allows
 * one `logs/getdump` per hour per account; the client keeps count itself, across restarts. The
 * active account's value; each other account keeps its own (lib/accounts/store.ts ACCOUNT_ITEMS).
 */
export const lastLogDumpItem = item('local:lastLogDump', (s) => s.lastLogDumpItemSchema, {
  shape: shapes.lastLogDump,
  fallback: null,
});

/**
 * Days whose raw lines were deleted from this browser (newest last, at most 200): their download
 * can only fail, so the Logs section says so instead of spending the hourly download on it.
 */
export const deletedLogDaysItem = item('local:deletedLogDays', (s) => s.deletedLogDaysItemSchema, {
  shape: shapes.arrayOf(shapes.string),
  fallback: [],
});

// ---------------------------------------------------------------------------------------------
// Background worker: dynamic IP registration, outbox of one-click changes, context menu.
// Everything the worker knows lives here, because an MV3 worker loses its globals at any time.
// ---------------------------------------------------------------------------------------------

/** The answer most IP lookup services give; ipify and icanhazip both send CORS headers too. */
export const DEFAULT_IP_LOOKUP_URLS = ['https://api.ipify.org?format=json', 'https://ipv4.icanhazip.com/'];

export const dynamicIpSettingsItem = item('local:dynamicIp', (s) => s.dynamicIpSettingsSchema, {
  shape: shapes.dynamicIpSettings,
  fallback: {
    enabled: false,
    intervalMinutes: DYNAMIC_IP_INTERVAL.fallback,
    label: 'Dynamic IP (this browser)',
    profile: 'default',
    lookupUrls: DEFAULT_IP_LOOKUP_URLS,
    removePrevious: true,
  },
});

/** Last outcome of a registration attempt (alarm or Register now); null before the first one. */
export const registrationOutcomeItem = item(
  'local:dynamicIpOutcome',
  (s) => s.registrationOutcomeItemSchema,
  { shape: shapes.registrationOutcome, fallback: null },
);

/**
 * What this browser registered: the current address, and earlier ones whose deletion failed
 * (retried on the next run). Only these are ever deleted: never an address someone else added.
 */
export const registeredAddressesItem = item(
  'local:dynamicIpRegistered',
  (s) => s.registeredAddressesItemSchema,
  {
    shape: shapes.registeredAddresses,
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
 * One-click list changes, and a schedule's setting changes (docs/schedules.md, "Sending"), not
 * yet confirmed by the service, oldest first. The popup may watch
 * this item to show pending changes (see lib/outbox/index.ts). Only the worker writes it.
 */

export const outboxItem = item('local:outbox', (s) => s.outboxItemSchema, {
  shape: shapes.outbox,
  fallback: [],
  version: 2,
  // 2: each change names its account; those queued before are the configured account's.
  migrations: { 2: async (old) => withAccount(old) },
});

/** The last changes the outbox settled (newest first, at most 20), so a refusal is never silent. */
export const settledChangesItem = item('local:outboxSettled', (s) => s.settledChangesItemSchema, {
  shape: shapes.settledChanges,
  fallback: [],
  version: 2,
  // 2: each outcome names its account; those settled before went to the configured account.
  migrations: { 2: async (old) => withAccount(old) },
});

/** Storage-based leases (by job name): one outbox delivery and one registration at a time. */
export const leasesItem = item('local:leases', (s) => s.leasesItemSchema, {
  shape: shapes.leases,
  fallback: {},
});

/** The profiles of the account as last listed, for the context menu's per-profile submenus. */
export const profilesCacheItem = item('local:profilesCache', (s) => s.profilesCacheItemSchema, {
  shape: shapes.profilesCache,
  fallback: null,
  version: 2,
  migrations: { 2: retagLegacy },
});

/** The right-click menu and the outcome notifications of menu and shortcut actions. */
export const contextMenuSettingsItem = item('local:contextMenu', (s) => s.contextMenuSettingsItemSchema, {
  shape: shapes.enabledSetting,
  fallback: { enabled: true },
});

/** The identity of the account configured now (lib/identity/identity.ts), from storage. */
export async function storedAccountIdentity(): Promise<AccountIdentity> {
  const [key, connection] = await Promise.all([apiKeyItem.getValue(), connectionItem.getValue()]);
  return accountIdentity({ key, connection });
}

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

/**
 * Which scopes have a cached view of their lists (`cachedListsItem`), with when it was fetched
 * and its stored size in characters, so the views are kept within a budget without reading them
 * (lib/cache/storage-room.ts). A view missing here is only found by the emergency eviction.
 */
export const cachedListsIndexItem = item('local:cachedListsIndex', (s) => s.cachedListsIndexItemSchema, {
  shape: shapes.cachedListsIndex,
  fallback: {},
});

/**
 * Today's blocked-query counts by host (lower case, no trailing dot), reduced from
 * `logs/getstats`, which is per account in both forms. Only the reduction is kept: the raw
 * statistics of a day can be large.
 */
export const cachedBlockedTodayItem = item(
  'local:cachedBlockedToday',
  (s) => s.cachedBlockedTodayItemSchema,
  { shape: shapes.cachedBlockedToday, fallback: null, version: 2, migrations: { 2: retagLegacy } },
);

/**
 * The opt-in "Diagnose pages" setting (options page). It takes effect only while the browser
 * grants the optional permissions it asks for (lib/diagnosis/permissions.ts).
 */
export const diagnosisSettingsItem = item('local:diagnosis', (s) => s.diagnosisSettingsItemSchema, {
  shape: shapes.enabledSetting,
  fallback: { enabled: false },
});

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
  return item(`${DIAGNOSIS_AREA}:failedHosts:${tabId}`, (s) => s.failedHostsOfTabItemSchema, {
    shape: shapes.tabFailuresOrNone,
    fallback: null,
  });
}

/**
 * The tabs that have a record (`failedHostsOfTabItem`), for the badges and for forgetting them
 * all. Version 1 held every tab's record in this one value; its migration moves each to its own key.
 */
export const failedHostsTabsItem = item(`${DIAGNOSIS_AREA}:failedHosts`, (s) => s.failedHostsTabsItemSchema, {
  shape: shapes.failedHostsTabs,
  fallback: { tabs: [] },
  version: 2,
  migrations: {
    2: async (old) => {
      // Version 1 stored an object and nothing else: anything else is no tab's record.
      if (!isRecord(old)) return { tabs: [] };
      const tabs = Object.keys(old).filter((tab) => /^\d+$/.test(tab));
      // Moved as stored: each is checked when its tab's item reads it.
      await browser.storage[DIAGNOSIS_AREA].set(
        Object.fromEntries(tabs.map((tab) => [`failedHosts:${tab}`, old[tab]])),
      );
      return { tabs: tabs.map(Number) };
    },
  },
});

/** Domains whitelisted for a limited time, written by the worker only. */
export const temporaryAllowsItem = item('local:temporaryAllows', (s) => s.temporaryAllowsItemSchema, {
  shape: shapes.temporaryAllows,
  fallback: [],
  version: 2,
  migrations: {
    // 2: the account identity (with the key's fingerprint) instead of `<form> <baseUrl>`.
    2: async (old) => (Array.isArray(old) ? old.map(await legacyRetagger()) : old),
  },
});

/**
 * Time limit of every service call, in ms, for the end-to-end fault tests only: they need calls
 * that time out in a second or two rather than after the client's 15 s. Nothing in the product
 * sets it; null (always, outside those tests) keeps the client's default.
 */
export const apiTimeoutForTestsItem = item(
  'local:testOnlyApiTimeoutMs',
  (s) => s.apiTimeoutForTestsItemSchema,
  { shape: shapes.testTimeout, fallback: null },
);

/**
 * Whether this build reads `apiTimeoutForTestsItem`: only the build the fault tests load
 * (API_TIMEOUT_FROM_STORAGE=1, wxt.config.ts). The shipped extension never reads it, so no
 * popup opening pays for a setting only tests write.
 */
export const readsApiTimeoutForTests: boolean = import.meta.env.API_TIMEOUT_FROM_STORAGE === true;

/**
 * Light or dark pages: 'system' follows the browser. Pages also keep a synchronous copy in
 * localStorage for their first paint (lib/theme/theme.ts says why).
 */
export const themeItem = item('local:theme', (s) => s.themeSchema, {
  shape: shapes.theme,
  fallback: 'system',
});

/**
 * The registrable domain (Public Suffix List) of hosts the popup has shown, so an opening on a
 * known host never loads the list (about 47 kB gzipped). `psl` names the list's version: a map
 * made with another version is ignored. Each pair is checked again when read (the domain must be
 * the host or one of its parents), so a bad entry can never make one click act on another site.
 */
export const registrableDomainsItem = item(
  'local:registrableDomains',
  (s) => s.registrableDomainsItemSchema,
  { shape: shapes.registrableDomains, fallback: { psl: '', hosts: [] } },
);

/**
 * "Unbreak this page": what each unbreak allowed for a while and which of those domains the site
 * really loaded, until the user reviews it. Written by the worker only; per account (each entry
 * names its account identity). storage.local: a review may be due after a browser restart.
 */
export const unbreakSessionsItem = item('local:unbreakSessions', (s) => s.unbreakSessionsItemSchema, {
  shape: shapes.unbreakSessions,
  fallback: [],
});

/** The items whose stored shape has changed since the first release (./migrate.ts runs them). */
export const ITEMS_WITH_MIGRATIONS: readonly StoredItem<unknown>[] = [
  registeredAddressesItem,
  outboxItem,
  settledChangesItem,
  profilesCacheItem,
  cachedBlockedTodayItem,
  temporaryAllowsItem,
  failedHostsTabsItem,
] as StoredItem<unknown>[];
