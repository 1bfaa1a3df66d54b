/**
 * The worker's side of the protocol: who may ask (only this extension's own pages), what may be
 * asked (only messages `requestSchema` accepts), and one handler per request type. Anything else
 * gets no answer at all and starts no job. entrypoints/background wires this to
 * `runtime.onMessage` and to the worker's jobs.
 */
import { registrableDomain } from '@/lib/filtering/domain';
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

export function createRequestHandlers(jobs: WorkerJobs): RequestHandlers {
  return {
    'submit-change': ({ change }) => jobs.submit(change),
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
    'temporary-allow': ({ type: _type, ...allow }) => jobs.temporaryAllow(allow),
    unbreak: ({ type: _type, ...request }) => jobs.unbreak(request),
    'unbreak-review': ({ id, keep }) => jobs.reviewUnbreak({ id, keep }),
    'other-account-changes': ({ action, account, ids }) => jobs.otherAccountChanges(action, account, ids),
    'remove-account': ({ accountId }) => jobs.removeAccount(accountId),
    'registrable-domains': async ({ hosts }) => ({ domains: hosts.map(registrableDomain) }),
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
