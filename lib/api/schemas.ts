/**
 * Schemas of every response body. Strict where service-api.md shows the shape; tolerant where it
 * does not (docs/service-api.md, "Response shapes not shown"): a list may sit under its documented key or
 * an obvious alias, or be the whole body, and come as an array of strings, an array of objects or
 * an object map. Each schema outputs the client's form-neutral shape.
 *
 * zod/mini rather than classic zod: the popup bundles this file, and mini tree-shakes to a few KB.
 * Every schema is `z.lazy`, built on first use: every popup opening loads this module, most parse
 * nothing, and the others only a few of these schemas.
 */
import * as z from 'zod/mini';
import type { CategoryState, DayStats, NetworkEntry } from './types';

const FAILURE_STATUSES = new Set(['failed', 'error', 'fail', 'failure']);

const successStatus = z.lazy(() =>
  z.string().check(z.refine((status) => status.toLowerCase() === 'success')),
);

/** Form A `{status:'failed', reason}`, Form B `{status:'error', message}`; either form's shape is read in both. */
export const failureBodySchema = z.lazy(() =>
  z.object({
    status: z.string().check(z.refine((status) => FAILURE_STATUSES.has(status.toLowerCase()))),
    reason: z.optional(z.unknown()),
    message: z.optional(z.unknown()),
    error: z.optional(z.unknown()),
  }),
);
export type FailureBody = z.infer<typeof failureBodySchema>;

/** The failure text of a failure body, or null when the body carries none. */
export function failureReason(body: FailureBody): string | null {
  for (const candidate of [body.reason, body.message, body.error]) {
    if (typeof candidate === 'string' && candidate.trim() !== '') return candidate;
    if (typeof candidate === 'number') return String(candidate);
  }
  return null;
}

/** `{"status": "success"}` of every write action (extra keys are ignored). */
export const successBodySchema = z.lazy(() => z.object({ status: successStatus }));

/**
 * The value under the first of `aliases` that the body holds and that `value` accepts. A read's
 * `status`, when present, must be success (failure bodies are turned into errors before this).
 */
function underAlias<T extends z.ZodMiniType>(aliases: readonly string[], value: T) {
  return z.pipe(
    z.looseObject({ status: z.optional(successStatus) }),
    z.transform((body: Record<string, unknown>, ctx): z.output<T> => {
      for (const key of aliases) {
        if (!Object.hasOwn(body, key)) continue;
        const parsed = value.safeParse(body[key]);
        if (parsed.success) return parsed.data as z.output<T>;
      }
      ctx.issues.push({
        code: 'custom',
        message: `no usable ${aliases.join(' / ')} in the body`,
        input: body,
      });
      return z.NEVER;
    }),
  );
}

/** A string, or an object naming it under one of `keys` (`{name}`, `{domain}` ...). */
function namedEntry(keys: readonly string[]) {
  return z.union([
    z.string(),
    z.pipe(
      z.record(z.string(), z.unknown()),
      z.transform((entry, ctx): string => {
        for (const key of keys) {
          const named = entry[key];
          if (typeof named === 'string') return named;
        }
        ctx.issues.push({ code: 'custom', message: `entry without ${keys.join(' / ')}`, input: entry });
        return z.NEVER;
      }),
    ),
  ]);
}

const unique = (values: string[]): string[] => [...new Set(values)];

/** Array of names or of objects naming them. */
const nameArray = (keys: readonly string[]) => z.pipe(z.array(namedEntry(keys)), z.transform(unique));

/** Array of names or of objects naming them, or an object map whose keys are the names. */
function nameList(keys: readonly string[]) {
  return z.union([
    nameArray(keys),
    z.pipe(
      z.record(z.string(), z.unknown()),
      z.transform((map) => Object.keys(map)),
    ),
  ]);
}

const PROFILE_KEYS = ['name', 'profile', 'profile_name'];

// A bare body is only accepted as an array: an object body without the list key is a shape
// this client does not know (reading `{status: 'success'}` as a map would invent a profile).

/** profiles/list: `{status, profiles: [...]}`, or a bare array. */
export const profilesResponseSchema = z.lazy(() =>
  z.union([underAlias(['profiles'], nameList(PROFILE_KEYS)), nameArray(PROFILE_KEYS)]),
);

const TRUE_WORDS = new Set(['blocked', 'block', 'true', 'yes', 'on', '1', 'enabled']);
const FALSE_WORDS = new Set(['allowed', 'allow', 'false', 'no', 'off', '0', 'disabled']);

const blockedFlag = z.lazy(() =>
  z.union([
    z.boolean(),
    z.pipe(
      z.literal([0, 1]),
      z.transform((flag) => flag === 1),
    ),
    z.pipe(
      z
        .string()
        .check(z.refine((word) => TRUE_WORDS.has(word.toLowerCase()) || FALSE_WORDS.has(word.toLowerCase()))),
      z.transform((word) => TRUE_WORDS.has(word.toLowerCase())),
    ),
  ]),
);

/**
 * A category named in a list. Without a state it counts as blocked: Form A's categories/list
 * names the blocked categories, and a list under `blocked` means the same.
 */
const categoryEntry = z.lazy(() =>
  z.union([
    z.pipe(
      z.string(),
      z.transform((id): CategoryState => ({ id, blocked: true })),
    ),
    z.pipe(
      z.record(z.string(), z.unknown()),
      z.transform((entry, ctx): CategoryState => {
        const id = [entry.category, entry.id, entry.name].find((value) => typeof value === 'string');
        const state = entry.blocked ?? entry.status ?? entry.state;
        const blocked =
          state === undefined ? { success: true as const, data: true } : blockedFlag.safeParse(state);
        if (typeof id === 'string' && blocked.success) return { id, blocked: blocked.data };
        ctx.issues.push({ code: 'custom', message: 'category entry without id or state', input: entry });
        return z.NEVER;
      }),
    ),
  ]),
);

const categoryList = z.lazy(() =>
  z.union([
    z.array(categoryEntry),
    z.pipe(
      z.record(z.string(), z.union([blockedFlag, z.object({ blocked: blockedFlag })])),
      z.transform((map): CategoryState[] =>
        Object.entries(map).map(([id, state]) => ({
          id,
          blocked: typeof state === 'boolean' ? state : state.blocked,
        })),
      ),
    ),
  ]),
);

/** `{categories: [every id], blocked: [blocked ids]}`: the first list is the catalogue, not the blocked set. */
const catalogueWithBlockedSet = z.lazy(() =>
  z.pipe(
    z.object({
      status: z.optional(successStatus),
      categories: z.array(z.string()),
      blocked: z.array(z.string()),
    }),
    z.transform(({ categories, blocked }): CategoryState[] => {
      const blockedSet = new Set(blocked);
      return unique([...categories, ...blocked]).map((id) => ({ id, blocked: blockedSet.has(id) }));
    }),
  ),
);

/** categories/list: the categories the service reports, with their state (not merged with the catalogue). */
export const categoriesResponseSchema = z.lazy(() =>
  z.pipe(
    z.union([
      catalogueWithBlockedSet,
      underAlias(['categories', 'blocked'], categoryList),
      z.array(categoryEntry),
    ]),
    z.transform((entries): CategoryState[] => {
      const byId = new Map<string, boolean>();
      for (const entry of entries) byId.set(entry.id, entry.blocked);
      return [...byId].map(([id, blocked]) => ({ id, blocked }));
    }),
  ),
);

export type DomainListing =
  | { kind: 'flat'; domains: string[] }
  | { kind: 'by-profile'; byProfile: Record<string, string[]> };

const domainEntries = z.lazy(() => nameArray(['domain', 'name']));

const flatDomains = z.lazy(() =>
  z.pipe(
    domainEntries,
    z.transform((domains): DomainListing => ({ kind: 'flat', domains })),
  ),
);

const domainListing = z.lazy(() =>
  z.union([
    flatDomains,
    // Form A: profile name -> domains.
    z.pipe(
      z.record(z.string(), domainEntries),
      z.transform((byProfile): DomainListing => ({ kind: 'by-profile', byProfile: { ...byProfile } })),
    ),
    // A map keyed by the domains themselves (`{"example.com": {...}}`). Array values mean a
    // per-profile map that failed above, not domains.
    z.pipe(
      z.record(z.string(), z.unknown()),
      z.transform((map, ctx): DomainListing => {
        if (Object.values(map).some(Array.isArray)) {
          ctx.issues.push({
            code: 'custom',
            message: 'per-profile map with entries that are not domains',
            input: map,
          });
          return z.NEVER;
        }
        return { kind: 'flat', domains: Object.keys(map) };
      }),
    ),
  ]),
);

/** whitelist/list, blocklist/list: under the list's own name or `domains`, or a bare list. */
export function domainListResponseSchema(list: 'whitelist' | 'blocklist') {
  return z.union([underAlias([list, 'domains'], domainListing), flatDomains]);
}

const optionalText = z.lazy(() => z.optional(z.nullable(z.string())));

const networkEntry = z.lazy(() =>
  z.union([
    z.pipe(
      z.string(),
      z.transform((ip): NetworkEntry => ({ ip })),
    ),
    z.pipe(
      z.object({
        ip: z.optional(z.string()),
        ip_address: z.optional(z.string()),
        label: optionalText,
        profile: optionalText,
      }),
      z.transform((entry, ctx): NetworkEntry => {
        const ip = entry.ip ?? entry.ip_address;
        if (ip === undefined) {
          ctx.issues.push({ code: 'custom', message: 'network entry without ip', input: entry });
          return z.NEVER;
        }
        return withoutEmpty({ ip, label: entry.label, profile: entry.profile });
      }),
    ),
  ]),
);

function withoutEmpty(entry: { ip: string; label?: string | null; profile?: string | null }): NetworkEntry {
  const result: NetworkEntry = { ip: entry.ip };
  if (entry.label != null && entry.label !== '') result.label = entry.label;
  if (entry.profile != null && entry.profile !== '') result.profile = entry.profile;
  return result;
}

const networkList = z.lazy(() =>
  z.union([
    // Form B: [{ip, label, profile}].
    z.array(networkEntry),
    // Form A: profile name -> IPv4 addresses.
    z.pipe(
      z.record(z.string(), z.array(networkEntry)),
      z.transform((byProfile): NetworkEntry[] =>
        Object.entries(byProfile).flatMap(([profile, entries]) =>
          entries.map((entry) => withoutEmpty({ ...entry, profile: entry.profile ?? profile })),
        ),
      ),
    ),
  ]),
);

/** network/list: `{status, networks}` in either form's shape, or a bare list. */
export const networksResponseSchema = z.lazy(() =>
  z.union([underAlias(['networks'], networkList), z.array(networkEntry)]),
);

const DAY_PREFIX = /^\d{4}-\d{2}-\d{2}/;

const checkDays = z.lazy(() =>
  z.transform((names: string[], ctx): string[] => {
    if (!names.every((name) => DAY_PREFIX.test(name))) {
      ctx.issues.push({ code: 'custom', message: 'a log day that is not yyyy-mm-dd', input: names });
      return z.NEVER;
    }
    // Newest first whatever order the service used; `yyyy-mm-dd` sorts as text.
    return unique(names.map((name) => name.slice(0, 10))).sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  }),
);
const DAY_KEYS = ['date', 'day'];

/** logs/list: `{status, logs: [dates]}` (or `dates`), or a bare array. */
export const logDaysResponseSchema = z.lazy(() =>
  z.pipe(z.union([underAlias(['logs', 'dates'], nameList(DAY_KEYS)), nameArray(DAY_KEYS)]), checkDays),
);

const counts = z.lazy(() => z.record(z.string(), z.number()));
const hourly = <T extends z.ZodMiniType>(inner: T) => z.optional(z.record(z.string(), inner));

/**
 * logs/getstats (Section 2). An extra `status: "success"` is tolerated; a missing top-level key
 * is an hour map with no hours. Domain keys keep their trailing dot: the UI decides how to show them.
 */
export const statsResponseSchema = z.lazy(() =>
  z.pipe(
    z.object({
      status: z.optional(successStatus),
      ips: hourly(counts),
      reqtypes: hourly(counts),
      action: hourly(z.object({ Allowed: z.optional(z.number()), Blocked: z.optional(z.number()) })),
      blocks: hourly(counts),
      domains: hourly(z.object({ Allowed: z.optional(counts), Blocked: z.optional(counts) })),
    }),
    z.transform(
      (body): DayStats => ({
        ips: body.ips ?? {},
        reqtypes: body.reqtypes ?? {},
        action: body.action ?? {},
        blocks: body.blocks ?? {},
        domains: body.domains ?? {},
      }),
    ),
  ),
);
