/**
 * The worker's side of the protocol: who may ask (only this extension's own pages), what may be
 * asked (only messages `requestSchema` accepts), and one handler per request type. Anything else
 * gets no answer at all and starts no job. entrypoints/background wires this to
 * `runtime.onMessage` and to the worker's jobs.
 */

import { isPublicSuffix, normaliseDomainInput, registrableDomainOrNull } from '@/lib/filtering/domain';
import { formatList, t } from '@/lib/i18n';
import type { CurrentPolicy } from '@/lib/policy/current';
import { listChangeRefusal, mayRemoveAccount } from '@/lib/policy/enforce';
import {
  type ChangeOutcome,
  isOwnExtensionPage,
  type ListChange,
  type MessageSenderInfo,
  type RemoveAccountResponse,
  type Request,
  type RequestOf,
  type RequestType,
  type ResponseOf,
  requestSchema,
  type SeveralOutcomes,
  type TemporaryAllowResponse,
  type UnbreakResponse,
} from './protocol';

/**
 * Which kind of page asked: the popup, or another page of this extension (the options page). A
 * refusal says what to do in its words: reopen the popup, reload the page.
 */
export type RequestFrom = 'popup' | 'page';

/** One handler per request type: a new request type does not compile until the worker answers it. */
type RequestHandlers = {
  [K in RequestType]: (request: RequestOf<K>, from: RequestFrom) => Promise<ResponseOf<K>>;
};

/** The accounts of this browser as a refusal names them: which is active, and each one's name. */
export interface AccountNames {
  /** The stable id of the active account (lib/accounts). */
  activeId: string;
  /** Each account's name as pages show it, by stable id: never a key. */
  names: ReadonlyMap<string, string>;
}

/** What a request names besides what it asks for: no job takes these. */
type Asked<K extends RequestType> = Omit<RequestOf<K>, 'type' | 'accountId'>;

/** The worker's jobs that requests start (entrypoints/background/jobs.ts). */
export interface WorkerJobs {
  submit(change: ListChange): Promise<ChangeOutcome>;
  /** The same change for several profiles, queued together (lib/profile-groups/several.ts). */
  submitToProfiles(change: ListChange, profiles: readonly string[]): Promise<SeveralOutcomes>;
  /** Null when a registration is running already. */
  register(trigger: 'user', accountId?: string): Promise<ResponseOf<'register-now'> | null>;
  deliverOutbox(force: boolean): Promise<{ remaining: readonly unknown[] }>;
  temporaryAllow(request: Asked<'temporary-allow'>): Promise<TemporaryAllowResponse>;
  /** Removes an account of this browser and everything of it (lib/accounts/forget.ts). */
  removeAccount(accountId: string): Promise<RemoveAccountResponse>;
  /** "Unbreak this page": allows the chosen entries for a while (lib/diagnosis/unbreak.ts). */
  unbreak(request: Asked<'unbreak'>): Promise<UnbreakResponse>;
  /** The review of an unbreak: keep what the site loaded, or let it all lapse. */
  reviewUnbreak(request: { id: string; keep: boolean }): Promise<ChangeOutcome>;
  /** Keeps or discards changes waiting for an account that is not the one configured now. */
  otherAccountChanges(
    action: RequestOf<'other-account-changes'>['action'],
    account: string,
    ids: readonly string[],
  ): Promise<{ count: number }>;
  /** Which account is active now, and the accounts' names (lib/accounts/store.ts). */
  accountNames(): Promise<AccountNames>;
  /** The administrator's policy and the accounts it set up (lib/policy/current.ts). */
  policy(): Promise<CurrentPolicy>;
}

/**
 * `domain` as the outbox will store it, when that is a public suffix; else null. Any page of this
 * extension may ask, so the worker checks for itself what the popup never offers: a list entry
 * that would cover the sites of every owner under a suffix (docs/service-api.md, "Which domain
 * one click adds").
 */
function publicSuffixIn(domain: string): string | null {
  const normalised = normaliseDomainInput(domain);
  return normalised.ok && isPublicSuffix(normalised.value) ? normalised.value : null;
}

const notAllowedForAWhile = (suffixes: readonly string[]): ChangeOutcome => ({
  state: 'failed',
  message: t('worker.publicSuffix.notAllowed', { domains: formatList(suffixes) }),
});

/**
 * The refusal of a change a page asked for, or null. Refused when `accountId`, the account the
 * page showed, is not the active one, naming both accounts (never an id or a key): the active
 * account may change between the user's click and the request's arrival (another window, the
 * popup's switcher), and the change would then go to an account the user was not looking at.
 * Refused too when the administrator's policy closes `list` (null: the request changes no list).
 */
async function refusalOf(
  jobs: Pick<WorkerJobs, 'accountNames' | 'policy'>,
  accountId: string,
  from: RequestFrom,
  list: 'whitelist' | 'blocklist' | null,
): Promise<ChangeOutcome | null> {
  const { activeId, names } = await jobs.accountNames();
  if (accountId !== activeId) {
    const active = names.get(activeId) ?? '';
    const shown = names.get(accountId);
    const message =
      shown === undefined
        ? t(from === 'popup' ? 'worker.otherAccount.popupRemoved' : 'worker.otherAccount.pageRemoved', {
            active,
          })
        : t(from === 'popup' ? 'worker.otherAccount.popup' : 'worker.otherAccount.page', { shown, active });
    return { state: 'failed', message };
  }
  const message = list === null ? null : listChangeRefusal((await jobs.policy()).scope, from, list);
  return message === null ? null : { state: 'failed', message };
}

export function createRequestHandlers(jobs: WorkerJobs): RequestHandlers {
  return {
    'submit-change': async ({ change, publicSuffixConfirmed, accountId }, from) => {
      const refusal = await refusalOf(jobs, accountId, from, change.list);
      if (refusal) return refusal;
      const suffix = change.op === 'add' && !publicSuffixConfirmed ? publicSuffixIn(change.domain) : null;
      if (suffix !== null)
        return { state: 'failed', message: t('worker.publicSuffix.notAdded', { domain: suffix }) };
      return jobs.submit(change);
    },
    'submit-to-profiles': async ({ change, profiles, accountId }, from) => {
      const refusal = await refusalOf(jobs, accountId, from, change.list);
      const suffix = change.op === 'add' ? publicSuffixIn(change.domain) : null;
      // The popup never offers a public suffix for several profiles: refused for each, nothing sent.
      const refused =
        refusal?.message ?? (suffix === null ? null : t('worker.publicSuffix.notAdded', { domain: suffix }));
      if (refused !== null)
        return {
          outcomes: profiles.map((profile) => ({ profile, state: 'failed' as const, message: refused })),
        };
      return jobs.submitToProfiles(change, profiles);
    },
    'register-now': async ({ accountId }) => {
      const outcome = await jobs.register('user', accountId);
      if (!outcome) return { ok: false, message: t('worker.registrationRunning') };
      return {
        ok: outcome.ok,
        ...(outcome.ip === undefined ? {} : { ip: outcome.ip }),
        message: outcome.message,
      };
    },
    'retry-outbox': async () => ({ pending: (await jobs.deliverOutbox(true)).remaining.length }),
    'temporary-allow': async ({ type: _type, accountId, ...allow }, from) => {
      const refusal = await refusalOf(jobs, accountId, from, 'whitelist');
      if (refusal) return refusal;
      const suffix = publicSuffixIn(allow.domain);
      return suffix === null ? jobs.temporaryAllow(allow) : notAllowedForAWhile([suffix]);
    },
    unbreak: async ({ type: _type, accountId, ...request }, from) => {
      const refusal = await refusalOf(jobs, accountId, from, 'whitelist');
      if (refusal) return { ...refusal, allowed: [] };
      const suffixes = request.domains.flatMap(({ domain }) => publicSuffixIn(domain) ?? []);
      // The popup never offers one: a request naming one is refused whole, nothing allowed.
      if (suffixes.length > 0) return { ...notAllowedForAWhile(suffixes), allowed: [] };
      return jobs.unbreak(request);
    },
    'unbreak-review': async ({ id, keep, accountId }, from) =>
      // Letting the allows lapse changes no list; keeping them whitelists.
      (await refusalOf(jobs, accountId, from, keep ? 'whitelist' : null)) ?? jobs.reviewUnbreak({ id, keep }),
    'other-account-changes': ({ action, account, ids }) => jobs.otherAccountChanges(action, account, ids),
    'remove-account': async ({ accountId }) =>
      mayRemoveAccount(await jobs.policy(), accountId)
        ? jobs.removeAccount(accountId)
        : { removed: false, discarded: 0 },
    'registrable-domains': async ({ hosts }) => ({ domains: hosts.map(registrableDomainOrNull) }),
  };
}

/** The popup is `popup.html` (with a `?tabId=` for its detached view); any other page is a page. */
function requestFrom(sender: MessageSenderInfo, extensionBaseUrl: string): RequestFrom {
  const page = sender.url?.slice(extensionBaseUrl.length).split(/[?#]/)[0];
  return page === 'popup.html' ? 'popup' : 'page';
}

/** This extension as senders are checked against it: `runtime` (its id and base URL). */
interface OwnExtension {
  readonly id: string;
  getURL(path: '/'): string;
}

/**
 * The `runtime.onMessage` listener: answers messages from the extension's own pages only;
 * anything else, or anything that does not match the protocol, gets no answer at all.
 */
export function createMessageListener(handlers: RequestHandlers, self: OwnExtension) {
  return (message: unknown, sender: MessageSenderInfo): Promise<unknown> | undefined => {
    if (!isOwnExtensionPage(sender, self.id, self.getURL('/'))) return undefined;
    const parsed = requestSchema.safeParse(message);
    if (!parsed.success) return undefined;
    // The map gives each type its own handler; TypeScript cannot pair them through the union.
    const handle = handlers[parsed.data.type] as (request: Request, from: RequestFrom) => Promise<unknown>;
    return handle(parsed.data, requestFrom(sender, self.getURL('/')));
  };
}
