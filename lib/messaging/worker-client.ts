/**
 * The extension pages' client of the background worker: one function per request (protocol.ts
 * says what each asks and answers), all sent through `ask`, which checks the answer with the
 * schema its request promises (`responseSchemas`). The answer is a trust boundary like any other.
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
    submitChange: (change: ListChange, sentWith: Omit<RequestOf<'submit-change'>, 'type' | 'change'>) =>
      ask({ type: 'submit-change', change, ...sentWith }),
    submitToProfiles: (request: Omit<RequestOf<'submit-to-profiles'>, 'type'>) =>
      ask({ type: 'submit-to-profiles', ...request }),
    registerNow: (accountId?: string) =>
      ask(accountId === undefined ? { type: 'register-now' } : { type: 'register-now', accountId }),
    removeAccount: (accountId: string) => ask({ type: 'remove-account', accountId }),
    retryOutbox: () => ask({ type: 'retry-outbox' }),
    temporaryAllow: (allow: Omit<RequestOf<'temporary-allow'>, 'type'>) =>
      ask({ type: 'temporary-allow', ...allow }),
    unbreak: (request: Omit<RequestOf<'unbreak'>, 'type'>) => ask({ type: 'unbreak', ...request }),
    reviewUnbreak: (id: string, keep: boolean, accountId: string) =>
      ask({ type: 'unbreak-review', id, keep, accountId }),
    otherAccountChanges: (action: 'keep' | 'discard', account: string, ids: readonly string[]) =>
      ask({ type: 'other-account-changes', action, account, ids: [...ids] }),
    registrableDomains: (hosts: readonly string[]) => ask({ type: 'registrable-domains', hosts: [...hosts] }),
  };
}

/** This page's client of the worker. */
export const worker = createWorkerClient();
