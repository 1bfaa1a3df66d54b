/**
 * The extension pages' client of the background worker: one function per request, all sent
 * through `ask`, which checks the answer with the schema its request promises
 * (protocol.ts `responseSchemas`). The answer is a trust boundary like any other.
 */
import { browser } from 'wxt/browser';
import type * as z from 'zod/mini';
import { type ListChange, type Request, type RequestOf, type ResponseOf, responseSchemas } from './protocol';

/** How a message reaches the worker: `runtime.sendMessage`; tests pass a stand-in. */
type SendMessage = (message: Request) => Promise<unknown>;

/**
 * A request that got no answer a page can use: the worker could not be reached ('no-answer'), or
 * its answer does not match the protocol ('not-understood'). Pages say which to the user.
 */
export class WorkerUnanswered extends Error {
  constructor(readonly reason: 'no-answer' | 'not-understood') {
    super(
      reason === 'no-answer' ? 'The worker did not answer' : 'The worker’s answer does not fit the protocol',
    );
    this.name = 'WorkerUnanswered';
  }
}

export function createWorkerClient(send: SendMessage = (message) => browser.runtime.sendMessage(message)) {
  /** Sends `request`; resolves with the worker's checked answer, rejects with `WorkerUnanswered`. */
  async function ask<R extends Request>(request: R): Promise<ResponseOf<R['type']>> {
    let answer: unknown;
    try {
      answer = await send(request);
    } catch {
      throw new WorkerUnanswered('no-answer');
    }
    const schema: z.ZodMiniType = responseSchemas[request.type];
    const parsed = schema.safeParse(answer);
    if (!parsed.success) throw new WorkerUnanswered('not-understood');
    return parsed.data as ResponseOf<R['type']>;
  }

  return {
    ask,
    /**
     * Hands a list change to the worker's outbox, which delivers it or queues it, if the account
     * the page shows (`accountId`) is still the active one. `publicSuffixConfirmed`: the user
     * typed the domain, a public suffix, to confirm it.
     */
    submitChange: (change: ListChange, sentWith: Omit<RequestOf<'submit-change'>, 'type' | 'change'>) =>
      ask({ type: 'submit-change', change, ...sentWith }),
    /** The same list change for several profiles (lib/profile-groups): one outcome per profile. */
    submitToProfiles: (request: Omit<RequestOf<'submit-to-profiles'>, 'type'>) =>
      ask({ type: 'submit-to-profiles', ...request }),
    /** Runs a dynamic IP registration now, for the account `accountId` or the active one. */
    registerNow: (accountId?: string) =>
      ask(accountId === undefined ? { type: 'register-now' } : { type: 'register-now', accountId }),
    /** Removes an account and everything of it (after the page's confirmation). */
    removeAccount: (accountId: string) => ask({ type: 'remove-account', accountId }),
    /** Sends the waiting outbox changes now, ignoring their backoff. */
    retryOutbox: () => ask({ type: 'retry-outbox' }),
    /** Whitelists a domain for a while. */
    temporaryAllow: (allow: Omit<RequestOf<'temporary-allow'>, 'type'>) =>
      ask({ type: 'temporary-allow', ...allow }),
    /** "Unbreak this page": allows the chosen entries of the page for a while. */
    unbreak: (request: Omit<RequestOf<'unbreak'>, 'type'>) => ask({ type: 'unbreak', ...request }),
    /** The review of an unbreak: keep what the site loaded (`keep`), or let it all lapse. */
    reviewUnbreak: (id: string, keep: boolean, accountId: string) =>
      ask({ type: 'unbreak-review', id, keep, accountId }),
    /** Keeps (until that account is configured again) or discards changes waiting for another account. */
    otherAccountChanges: (action: 'keep' | 'discard', account: string, ids: readonly string[]) =>
      ask({ type: 'other-account-changes', action, account, ids: [...ids] }),
    /** The registrable domain of each host, in order. */
    registrableDomains: (hosts: readonly string[]) => ask({ type: 'registrable-domains', hosts: [...hosts] }),
  };
}

type WorkerClient = ReturnType<typeof createWorkerClient>;

/** This page's client of the worker. */
export const worker: WorkerClient = createWorkerClient();
