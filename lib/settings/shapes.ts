/**
 * The structure of each stored value in its current version (./shape.ts says what a guard checks
 * and why), beside the zod schemas of ./schemas.ts, which check every write. A change to a schema's
 * structure changes its guard here too.
 */

import { PAGE_HOST } from '@/lib/filtering/hostname';
import { ACCOUNT_ID_PATTERN } from '@/lib/identity/identity';
import {
  anyOf,
  arrayOf,
  boolean,
  matching,
  nullable,
  number,
  object,
  oneOf,
  recordOf,
  type Shape,
  string,
  tuple,
} from './shape';
import { THEME_CHOICES } from './theme-choice';

/** An account identity (lib/identity/identity.ts): work of another account, or of none, is never shown as this one's. */
const accountId: Shape = (value) => typeof value === 'string' && ACCOUNT_ID_PATTERN.test(value);

const listChange = object(
  { op: oneOf('add', 'remove'), list: oneOf('whitelist', 'blocklist'), domain: string, source: string },
  { profile: string, page: matching(PAGE_HOST), group: string },
);

/** What the outbox carries: a list change, or a setting change (lib/messaging/protocol.ts). */
const queuedChange = anyOf(
  listChange,
  object(
    { op: oneOf('set-category'), category: string, blocked: boolean, source: string },
    { profile: string },
  ),
  object({ op: oneOf('set-default-block'), enabled: boolean, source: string }, { profile: string }),
);

export const connection = object({ baseUrl: string, form: oneOf('A', 'B') });

export const accounts = object({
  active: nullable(string),
  accounts: arrayOf(
    object({ id: string, createdAt: number }, { name: string, parked: recordOf(() => true) }),
  ),
});

export const dynamicIpSettings = object({
  enabled: boolean,
  intervalMinutes: number,
  label: string,
  profile: string,
  lookupUrls: arrayOf(string),
  removePrevious: boolean,
});

export const registrationOutcome = nullable(
  object(
    { at: number, ok: boolean, message: string, consecutiveFailures: number },
    { ip: string, reason: string, nextAttemptAt: number },
  ),
);

const registeredAddress = object({ ip: string, account: accountId, at: number }, { profile: string });

export const registeredAddresses = object({
  current: nullable(registeredAddress),
  stale: arrayOf(registeredAddress),
});

export const outbox = arrayOf(
  object(
    {
      id: string,
      change: queuedChange,
      account: accountId,
      createdAt: number,
      attempts: number,
      nextAttemptAt: number,
    },
    { keptForAccount: boolean, lastError: string, notBefore: number },
  ),
);

export const settledChanges = arrayOf(
  object({
    id: string,
    change: queuedChange,
    account: accountId,
    state: oneOf('delivered', 'failed'),
    message: string,
    at: number,
  }),
);

export const leases = recordOf(object({ holder: string, instance: string, expiresAt: number }));

export const listsHead = object({ account: accountId, fetchedAt: number, buckets: arrayOf(number) });

export const listsBucket = object({ fetchedAt: number, whitelist: string, blocklist: string });

/** A scope's lists as stored before buckets (version 3), converted when read. */
export const wholeLists = object({
  account: accountId,
  fetchedAt: number,
  whitelist: string,
  blocklist: string,
});

const failedHost = object({
  host: string,
  kind: oneOf('name-not-resolved', 'sinkhole'),
  error: string,
  count: number,
  at: number,
});

/** One tab's record of page diagnosis, or none. */
export const tabFailuresOrNone = nullable(
  object({ pageHost: nullable(string), mainFrame: nullable(failedHost), hosts: arrayOf(failedHost) }),
);

/** The tabs that have a record. */
export const failedHostsTabs = object({ tabs: arrayOf(number) });

export const temporaryAllows = arrayOf(
  object(
    {
      domain: string,
      account: accountId,
      createdAt: number,
      expiresAt: number,
      before: oneOf('none', 'blocklist'),
    },
    { profile: string },
  ),
);

export const unbreakSessions = arrayOf(
  object(
    {
      id: string,
      account: accountId,
      site: string,
      pageHost: string,
      startedAt: number,
      expiresAt: number,
      domains: arrayOf(
        object(
          { domain: string, before: oneOf('none', 'blocklist'), allowedAt: number, loads: number },
          { loadedAt: number },
        ),
      ),
    },
    { profile: string, announcedAt: number },
  ),
);

export const stringRecord = recordOf(string);

export const addedTlds = recordOf(arrayOf(string));

export const defaultBlock = recordOf(object({ enabled: boolean, at: number }));

export const lastLogDump = nullable(object({ at: number }));

export const profilesCache = nullable(object({ account: accountId, profiles: arrayOf(string), at: number }));

export const enabledSetting = object({ enabled: boolean });

export const cachedListsIndex = recordOf(object({ fetchedAt: number, size: number }));

export const cachedBlockedToday = nullable(
  object({ account: accountId, date: string, fetchedAt: number, blocked: recordOf(number) }),
);

/** The fault tests' client time limit, in ms (lib/settings/storage.ts `apiTimeoutForTestsItem`). */
export const testTimeout: Shape = (value) =>
  value === null || (Number.isInteger(value) && (value as number) >= 200 && (value as number) <= 120_000);

export const registrableDomains = object({ psl: string, hosts: arrayOf(tuple(string, string)) });

export const theme = oneOf(...THEME_CHOICES);

export { arrayOf, type Shape, string };

/** lib/schedules/store.ts `schedulesItem`: by stable account id. */
const scheduleThing = (value: unknown) =>
  object({ kind: oneOf('category'), category: string, inside: boolean, outside: boolean })(value) ||
  object({ kind: oneOf('default-block'), inside: boolean, outside: boolean })(value) ||
  object({
    kind: oneOf('domain'),
    domain: string,
    inside: oneOf('whitelist', 'blocklist'),
    outside: oneOf('whitelist', 'blocklist', 'none'),
  })(value);

export const schedules = recordOf(
  object({
    leadMinutes: number,
    rules: arrayOf(
      object(
        {
          id: string,
          name: string,
          days: arrayOf(oneOf(1, 2, 3, 4, 5, 6, 7)),
          windows: arrayOf(object({ start: string, end: string })),
          owns: arrayOf(scheduleThing),
        },
        { profile: string },
      ),
    ),
    overrides: arrayOf(
      object({ rule: string, kind: oneOf('inside', 'outside', 'release'), from: number, until: number }),
    ),
  }),
);

/** lib/schedules/store.ts `scheduleChecksItem`: by stable account id. */
export const scheduleChecks = recordOf(
  object(
    {
      seen: recordOf(
        object(
          { fetchedAt: number, categories: recordOf(boolean) },
          { defaultBlock: boolean, listsSentAt: number },
        ),
      ),
    },
    {
      lastCheck: object(
        { at: number, outcome: oneOf('in-step', 'sent', 'waiting', 'failed'), changes: number },
        { message: string },
      ),
      retryAt: number,
      failedAttempts: number,
    },
  ),
);
