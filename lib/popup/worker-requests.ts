/**
 * What the popup asks of the worker: one-click changes, "send now" on the outbox, and temporary
 * allows. Each resolves with an answer the popup can show, never rejects.
 */
import type { Membership } from '@/lib/cache/list-changes';
import { t } from '@/lib/i18n';
import type { ChangeOutcome, ListChange, RequestOf, TemporaryAllowResponse } from '@/lib/messaging/protocol';
import { loadWorker } from './worker';

/** What the temporary allow sends: an allow for a while, or keeping the domain for good. */
export type AllowRequest = RequestOf<'temporary-allow' | 'submit-change'>;

/** The outcome shown when the worker gave no answer a page could read: nothing was changed. */
export function workerDidNotAnswer(): ChangeOutcome {
  return { state: 'failed', message: t('popup.workerNoAnswer') };
}

/** The outcome shown when the popup no longer knows the account it shows: nothing was sent. */
export function accountChanged(): ChangeOutcome {
  return { state: 'failed', message: t('popup.accountChanged') };
}

/** Sends `{ type: 'submit-change' }` to the worker's outbox, for the account the popup shows. */
export function submitChange(
  change: ListChange,
  sentWith: Omit<RequestOf<'submit-change'>, 'type' | 'change'>,
): Promise<ChangeOutcome> {
  return loadWorker()
    .then((worker) => worker.submitChange(change, sentWith))
    .catch(workerDidNotAnswer);
}

/** How many changes still wait after the worker tried them now; null when it did not answer. */
export function retryOutbox(): Promise<number | null> {
  return loadWorker()
    .then((worker) => worker.retryOutbox())
    .then(
      ({ pending }) => pending,
      () => null,
    );
}

/** Sends a request to the worker and reads its answer; never rejects. */
export function askWorkerToAllow(request: AllowRequest): Promise<TemporaryAllowResponse> {
  return loadWorker()
    .then((worker) => worker.ask(request))
    .catch(workerDidNotAnswer);
}

/**
 * Whitelists `domain` for `durationMs`; the worker puts it back where it was (`before`) after.
 * `accountId`: the account the popup shows.
 */
export function temporaryAllowRequest(
  domain: string,
  profile: string | undefined,
  durationMs: number,
  membership: Membership | null,
  accountId: string,
): AllowRequest {
  return {
    type: 'temporary-allow',
    domain,
    ...(profile === undefined ? {} : { profile }),
    durationMs,
    before: membership ?? 'none',
    accountId,
  };
}

/** Keeps a temporarily allowed domain on the whitelist for good: an ordinary one-click change. */
export function keepAllowedRequest(
  domain: string,
  profile: string | undefined,
  accountId: string,
): AllowRequest {
  return {
    type: 'submit-change',
    change: {
      op: 'add',
      list: 'whitelist',
      domain,
      ...(profile === undefined ? {} : { profile }),
      source: 'popup',
    },
    accountId,
  };
}
