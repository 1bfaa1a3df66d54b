/**
 * Every storage item of the extension, in one place. Keys carry their area prefix; each item has
 * a zod schema, a fallback and a version from the first release, so later releases can migrate.
 *
 * The API key lives in `storage.local` only, never in `storage.sync` (decisions.md).
 */
import { z } from 'zod';
import { defineValidatedItem } from './validated-item';

export const DEFAULT_BASE_URL = 'https://my.cleanbrowsing.org';

export const apiFormSchema = z.enum(['A', 'B']);

export const connectionSchema = z.object({
  baseUrl: z.string().min(1),
  form: apiFormSchema,
});
export type ConnectionSettings = z.infer<typeof connectionSchema>;

/** The account key. Separate from the rest so nothing that exports settings picks it up by accident. */
export const apiKeyItem = defineValidatedItem('local:apiKey', z.string(), { fallback: '', version: 1 });

/** Where the service is and which form of its API to speak. */
export const connectionItem = defineValidatedItem('local:connection', connectionSchema, {
  fallback: { baseUrl: DEFAULT_BASE_URL, form: 'A' },
  version: 1,
});

/**
 * Data kept per scope: a profile in Form A, the whole account in Form B. The form is part of the
 * key so switching forms never mixes the two accounts' views.
 */
export function scopeKey(form: z.infer<typeof apiFormSchema>, profile: string | undefined): string {
  return form === 'B' ? 'B:account' : `A:${profile ?? 'default'}`;
}

const tldSchema = z.string().regex(/^\.[a-z0-9-]+$/);

/** TLDs blocked from this browser, per scope: the API can add a TLD block but not list or remove one. */
export const addedTldsItem = defineValidatedItem(
  'local:addedTlds',
  z.record(z.string(), z.array(tldSchema)),
  {
    fallback: {},
    version: 1,
  },
);

/** Default-block state set from this browser, per scope: the API cannot read it back. */
export const defaultBlockItem = defineValidatedItem(
  'local:defaultBlock',
  z.record(z.string(), z.object({ enabled: z.boolean(), at: z.number() })),
  { fallback: {}, version: 1 },
);

/** The profile last chosen in the popup; shortcuts and the context menu act on it too. */
export const chosenProfileItem = defineValidatedItem('local:chosenProfile', z.string(), {
  fallback: 'default',
  version: 1,
});

// --- Logs section (issue 4) ---

/**
 * When this browser last asked the service for a raw log (ms since the epoch). The service allows
 * one `logs/getdump` per hour per account; the client keeps count itself, across restarts. One
 * value for the configured account: switching accounts inside the hour waits too, erring safe.
 */
export const lastLogDumpItem = defineValidatedItem(
  'local:lastLogDump',
  z.object({ at: z.number().nonnegative() }).nullable(),
  { fallback: null, version: 1 },
);

/**
 * Days whose raw lines were deleted from this browser (newest last, at most 200): their download
 * can only fail, so the Logs section says so instead of spending the hourly download on it.
 */
export const deletedLogDaysItem = defineValidatedItem(
  'local:deletedLogDays',
  z.array(z.string().regex(/^\d{4}-\d{2}-\d{2}$/)).max(200),
  { fallback: [], version: 1 },
);

// --- Options page: account management (issue 3) ---

/**
 * The profile the options page's account sections act on. Kept apart from `chosenProfileItem`
 * so browsing another profile's lists here never changes what the popup's buttons act on.
 */
export const managedProfileItem = defineValidatedItem('local:managedProfile', z.string().min(1), {
  fallback: 'default',
  version: 1,
});
