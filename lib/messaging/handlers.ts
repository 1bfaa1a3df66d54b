/**
 * The worker's side of the protocol: who may ask (only this extension's own pages), what may be
 * asked (only messages `requestSchema` accepts), and one handler per request type. Anything else
 * gets no answer at all and starts no job. entrypoints/background wires this to
 * `runtime.onMessage` and to the worker's jobs.
 */

import { listText } from '@/lib/diagnosis/unbreak-review';
import { isPublicSuffix, normaliseDomainInput, registrableDomainOrNull } from '@/lib/filtering/domain';
import { t } from '@/lib/i18n';
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
  type TemporaryAllowResponse,
  type UnbreakResponse,
} from './protocol';

/** One handler per request type: a new request type does not compile until the worker answers it. */
type RequestHandlers = {
  [K in RequestType]: (request: RequestOf<K>) => Promise<ResponseOf<K>>;
};

/** The worker's jobs that requests start (entrypoints/background/jobs.ts). */
export interface WorkerJobs {
  submit(change: ListChange): Promise<ChangeOutcome>;
  /** Null when a registration is running already. */
  register(
    trigger: 'user',
    accountId?: string,
  ): Promise<{ ok: boolean; ip?: string; message: string } | null>;
  deliverOutbox(force: boolean): Promise<{ remaining: readonly unknown[] }>;
  temporaryAllow(request: Omit<RequestOf<'temporary-allow'>, 'type'>): Promise<TemporaryAllowResponse>;
  /** Removes an account of this browser and everything of it (lib/accounts/forget.ts). */
  removeAccount(accountId: string): Promise<RemoveAccountResponse>;
  /** "Unbreak this page": allows the chosen entries for a while (lib/diagnosis/unbreak.ts). */
  unbreak(request: Omit<RequestOf<'unbreak'>, 'type'>): Promise<UnbreakResponse>;
  /** The review of an unbreak: keep what the site loaded, or let it all lapse. */
  reviewUnbreak(request: { id: string; keep: boolean }): Promise<ChangeOutcome>;
  /** Keeps or discards changes waiting for an account that is not the one configured now. */
  otherAccountChanges(
    action: RequestOf<'other-account-changes'>['action'],
    account: string,
    ids: readonly string[],
  ): Promise<{ count: number }>;
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
  message: t('worker.publicSuffix.notAllowed', { domains: listText(suffixes) }),
});

export function createRequestHandlers(jobs: WorkerJobs): RequestHandlers {
  return {
    'submit-change': async ({ change, publicSuffixConfirmed }) => {
      const suffix = change.op === 'add' && !publicSuffixConfirmed ? publicSuffixIn(change.domain) : null;
      if (suffix !== null)
        return { state: 'failed', message: t('worker.publicSuffix.notAdded', { domain: suffix }) };
      return jobs.submit(change);
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
    'temporary-allow': async ({ type: _type, ...allow }) => {
      const suffix = publicSuffixIn(allow.domain);
      return suffix === null ? jobs.temporaryAllow(allow) : notAllowedForAWhile([suffix]);
    },
    unbreak: async ({ type: _type, ...request }) => {
      const suffixes = request.domains.flatMap(({ domain }) => publicSuffixIn(domain) ?? []);
      // The popup never offers one: a request naming one is refused whole, nothing allowed.
      if (suffixes.length > 0) return { ...notAllowedForAWhile(suffixes), allowed: [] };
      return jobs.unbreak(request);
    },
    'unbreak-review': ({ id, keep }) => jobs.reviewUnbreak({ id, keep }),
    'other-account-changes': ({ action, account, ids }) => jobs.otherAccountChanges(action, account, ids),
    'remove-account': ({ accountId }) => jobs.removeAccount(accountId),
    'registrable-domains': async ({ hosts }) => ({ domains: hosts.map(registrableDomainOrNull) }),
  };
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
    const handle = handlers[parsed.data.type] as (request: Request) => Promise<unknown>;
    return handle(parsed.data);
  };
}
