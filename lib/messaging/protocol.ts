/**
 * Every message between extension pages and the background worker, in one place. Both sides
 * validate with these schemas: a message that does not parse is ignored, and so is any message
 * that does not come from this extension's own pages. The larger schemas are built on first use
 * (`z.lazy`): every page loads this module, and most never parse a request.
 */
import * as z from 'zod/mini';
import { PAGE_HOST } from '@/lib/filtering/hostname';

/**
 * Where a list change was made. lib/notes records it with each entry added from this browser
 * ('options' edits go to the service directly and are recorded by the options page).
 */
export const CHANGE_SOURCES = [
  'popup',
  'menu',
  'shortcut',
  'temporary-allow',
  'logs',
  'options',
  'unbreak',
  'schedule',
] as const;
export type ChangeSource = (typeof CHANGE_SOURCES)[number];

/** A page's host name (never a whole address: no scheme, path or query can pass). */
export const pageHostSchema = z.lazy(() => z.string().check(z.regex(PAGE_HOST)));

/** A domain or host name as a request carries it. */
const domainText = () => z.string().check(z.minLength(1), z.maxLength(253));

/** A one-click change to a domain list, as the popup, the context menu or a shortcut asks for it. */
export const listChangeSchema = z.lazy(() =>
  z.object({
    op: z.enum(['add', 'remove']),
    list: z.enum(['whitelist', 'blocklist']),
    domain: domainText(),
    /** Form A profile; omitted in Form B (whole account). */
    profile: z.optional(z.string()),
    source: z.enum(CHANGE_SOURCES),
    /** The host of the tab the change was made on, when there was one (lib/notes keeps it). */
    page: z.optional(pageHostSchema),
    /**
     * One change made for several profiles at once: each profile's change carries the same group
     * (lib/profile-groups, docs/several-profiles.md), so its outcomes can be shown together.
     */
    group: z.optional(z.string().check(z.regex(/^[A-Za-z0-9-]{8,64}$/))),
  }),
);
export type ListChange = z.infer<typeof listChangeSchema>;

/**
 * A change of a setting the outbox sends for a schedule (docs/schedules.md, "Sending"): a category
 * blocked or allowed, default block on or off, for a profile (omitted in Form B: the whole
 * account). Told from a list change by its `op`.
 */
export const settingChangeSchema = z.lazy(() =>
  z.union([
    z.object({
      op: z.literal('set-category'),
      category: z.string().check(z.minLength(1), z.maxLength(80)),
      blocked: z.boolean(),
      profile: z.optional(z.string()),
      source: z.enum(CHANGE_SOURCES),
    }),
    z.object({
      op: z.literal('set-default-block'),
      enabled: z.boolean(),
      profile: z.optional(z.string()),
      source: z.enum(CHANGE_SOURCES),
    }),
  ]),
);
export type SettingChange = z.infer<typeof settingChangeSchema>;

/**
 * What the outbox carries: a list change or a setting change. Entries stored before setting
 * changes existed are list changes and parse as they are.
 */
export const queuedChangeSchema = z.lazy(() => z.union([listChangeSchema, settingChangeSchema]));
export type QueuedChange = ListChange | SettingChange;

/** What the sender learns about a submitted change. */
export const changeOutcomeSchema = z.object({
  /** delivered: the service confirmed it; pending: queued, will be retried; failed: the service refused it. */
  state: z.enum(['delivered', 'pending', 'failed']),
  message: z.string(),
});
export type ChangeOutcome = z.infer<typeof changeOutcomeSchema>;

/** The stable id of an account of this browser (lib/settings/storage.ts accountEntrySchema). */
const accountIdField = z.string().check(z.regex(/^[A-Za-z0-9-]{8,64}$/));
/**
 * On every change request: the account the page showed when the user acted (its stable id, never
 * the key). The worker refuses the request when another account is active by the time it arrives
 * (lib/messaging/handlers.ts), so a popup or options tab still showing the previous account
 * cannot act on the new one.
 */
const shownAccount = () => ({ accountId: accountIdField });
/** At most this many profiles in one change to several profiles (lib/profile-groups). */
export const MAX_PROFILES_AT_ONCE = 20;
/** At most this many whitelist entries per "Unbreak this page" (lib/diagnosis/unbreak.ts). */
export const MAX_UNBREAK_DOMAINS = 25;

export const requestSchema = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.object({
      type: z.literal('submit-change'),
      change: listChangeSchema,
      // The user typed the domain, a public suffix, to confirm adding it: without this the worker
      // refuses to add one (lib/filtering/domain.ts isPublicSuffix).
      publicSuffixConfirmed: z.optional(z.literal(true)),
      ...shownAccount(),
    }),
    // Worker: the same change for each of `profiles` (Form A), queued together under `change.group`
    // (lib/profile-groups/several.ts); answers `SeveralOutcomes`, one outcome per profile.
    z.object({
      type: z.literal('submit-to-profiles'),
      change: listChangeSchema,
      profiles: z
        .array(z.string().check(z.minLength(1), z.maxLength(256)))
        .check(z.minLength(1), z.maxLength(MAX_PROFILES_AT_ONCE)),
      ...shownAccount(),
    }),
    // Worker: runs a dynamic IP registration now for `accountId` (lib/accounts), or the active
    // account when absent; answers `RegisterNowResponse`.
    z.object({ type: z.literal('register-now'), accountId: z.optional(accountIdField) }),
    // Worker: sends waiting outbox changes now, ignoring their backoff; answers `RetryOutboxResponse`.
    z.object({ type: z.literal('retry-outbox') }),
    // Worker: whitelists a domain for a while (lib/diagnosis/temporary-allow.ts); answers
    // `TemporaryAllowResponse`. `before` is where the popup's lists last put the domain.
    z.object({
      type: z.literal('temporary-allow'),
      domain: domainText(),
      profile: z.optional(z.string()),
      durationMs: z.int().check(z.gte(1_000), z.lte(24 * 60 * 60_000)),
      before: z.enum(['none', 'whitelist', 'blocklist']),
      ...shownAccount(),
    }),
    // Worker: "Unbreak this page": allows each entry for a while (lib/diagnosis/unbreak.ts) and
    // notes which the site then loads; answers `UnbreakResponse`. `before` as in 'temporary-allow'.
    z.object({
      type: z.literal('unbreak'),
      pageHost: domainText(),
      profile: z.optional(z.string()),
      durationMs: z.int().check(z.gte(1_000), z.lte(24 * 60 * 60_000)),
      domains: z
        .array(
          z.object({
            domain: domainText(),
            before: z.enum(['none', 'blocklist']),
          }),
        )
        .check(z.minLength(1), z.maxLength(MAX_UNBREAK_DOMAINS)),
      ...shownAccount(),
    }),
    // Worker: the review of an unbreak: `keep` puts the entries the site loaded on the whitelist
    // for good; either way the unbreak is done and the rest lapse. Answers `ChangeOutcome`.
    z.object({
      type: z.literal('unbreak-review'),
      id: z.string().check(z.minLength(1), z.maxLength(300)),
      keep: z.boolean(),
      ...shownAccount(),
    }),
    // Worker: for changes waiting for an account that is not the one configured now, 'keep' them
    // for it (sent when it is back) or 'discard' them (confirmed on the page first); `ids` are the
    // changes the user saw. Answers `OtherAccountChangesResponse`.
    z.object({
      type: z.literal('other-account-changes'),
      action: z.enum(['keep', 'discard']),
      account: z.string().check(z.minLength(1), z.maxLength(2100)),
      ids: z
        .array(z.string().check(z.minLength(1), z.maxLength(100)))
        .check(z.minLength(1), z.maxLength(500)),
    }),
    // Worker: removes an account (lib/accounts) and forgets everything of it: key, settings,
    // caches, queued changes, temporary allows, alarms. Answers `RemoveAccountResponse`.
    z.object({ type: z.literal('remove-account'), accountId: accountIdField }),
    // Worker: the registrable domain of each host (Public Suffix List), so the popup need not load
    // the list itself (about 47 kB gzipped); answers `RegistrableDomainsResponse`.
    z.object({
      type: z.literal('registrable-domains'),
      hosts: z.array(domainText()).check(z.minLength(1), z.maxLength(100)),
    }),
  ]),
);
export type Request = z.infer<typeof requestSchema>;

const outcomeUntil = () => z.extend(changeOutcomeSchema, { expiresAt: z.optional(z.number()) });

/**
 * What the worker answers to each request, checked by the page that asked
 * (lib/messaging/worker-client.ts). A request type without an answer here does not compile.
 */
export const responseSchemas = {
  'submit-change': changeOutcomeSchema,
  /** One outcome per profile, in the order asked. */
  'submit-to-profiles': z.object({
    outcomes: z.array(z.extend(changeOutcomeSchema, { profile: z.string() })),
  }),
  /** The stored outcome of the run (lib/settings/storage.ts registrationOutcomeSchema). */
  'register-now': z.object({ ok: z.boolean(), ip: z.optional(z.string()), message: z.string() }),
  /** How many changes are still waiting afterwards. */
  'retry-outbox': z.object({ pending: z.int().check(z.gte(0)) }),
  /** The outcome of the whitelisting, and when it ends when it was made. */
  'temporary-allow': outcomeUntil(),
  /** The outcome in words, when the allows end, and the entries allowed. */
  unbreak: z.extend(outcomeUntil(), { allowed: z.array(z.string()) }),
  'unbreak-review': changeOutcomeSchema,
  /** How many changes were kept or discarded. */
  'other-account-changes': z.object({ count: z.int().check(z.gte(0)) }),
  /**
   * One domain per host asked for, in the same order; null for a host that is itself a public
   * suffix (it has no registrable domain, and is never offered).
   */
  'registrable-domains': z.object({ domains: z.array(z.nullable(domainText())) }),
  /** Whether it was there, and how many waiting changes went with it. */
  'remove-account': z.object({ removed: z.boolean(), discarded: z.int().check(z.gte(0)) }),
} as const satisfies Record<Request['type'], z.ZodMiniType>;

export type RequestType = Request['type'];
export type RequestOf<K extends RequestType> = Extract<Request, { type: K }>;
export type ResponseOf<K extends RequestType> = z.infer<(typeof responseSchemas)[K]>;
export type TemporaryAllowResponse = ResponseOf<'temporary-allow'>;
export type UnbreakResponse = ResponseOf<'unbreak'>;
export type SeveralOutcomes = ResponseOf<'submit-to-profiles'>;
export type OtherAccountChangesResponse = ResponseOf<'other-account-changes'>;
export type RemoveAccountResponse = ResponseOf<'remove-account'>;

/** The fields of `runtime.MessageSender` the worker checks. */
export interface MessageSenderInfo {
  id?: string;
  url?: string;
  tab?: unknown;
}

/**
 * Whether a message comes from this extension's own pages. Content scripts (none today) and
 * other extensions are refused: they could otherwise make the worker change the user's lists.
 * `extensionBaseUrl` is `runtime.getURL('/')`.
 */
export function isOwnExtensionPage(
  sender: MessageSenderInfo,
  ownId: string,
  extensionBaseUrl: string,
): boolean {
  if (sender.id !== ownId) return false;
  if (sender.url !== undefined) return sender.url.startsWith(extensionBaseUrl);
  return sender.tab === undefined;
}
