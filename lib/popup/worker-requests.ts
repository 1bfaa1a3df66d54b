/**
 * What the popup asks of the worker: one-click changes, "send now" on the outbox, and temporary
 * allows. Each resolves with an answer the popup can show, never rejects.
 */
import type { Membership } from '@/lib/cache/list-changes';
import { t } from '@/lib/i18n';
import { askWorker } from '@/lib/messaging/ask-worker';
import {
  type ChangeOutcome,
  changeOutcomeSchema,
  type ListChange,
  type Request,
  retryOutboxResponseSchema,
  type TemporaryAllowResponse,
  temporaryAllowResponseSchema,
} from '@/lib/messaging/protocol';

/** The outcome shown when the worker gave no answer a page could read: nothing was changed. */
export function workerDidNotAnswer(): ChangeOutcome {
  return { state: 'failed', message: t('popup.workerNoAnswer') };
}

/** Sends `{ type: 'submit-change' }` to the worker's outbox. */
export async function submitChange(change: ListChange): Promise<ChangeOutcome> {
  return (await askWorker({ type: 'submit-change', change }, changeOutcomeSchema)) ?? workerDidNotAnswer();
}

/** How many changes still wait after the worker tried them now; null when it did not answer. */
export async function retryOutbox(): Promise<number | null> {
  return (await askWorker({ type: 'retry-outbox' }, retryOutboxResponseSchema))?.pending ?? null;
}

/** Sends a request to the worker and reads its answer; never rejects. */
export async function askWorkerToAllow(request: Request): Promise<TemporaryAllowResponse> {
  const schema = request.type === 'temporary-allow' ? temporaryAllowResponseSchema : changeOutcomeSchema;
  return (await askWorker(request, schema)) ?? workerDidNotAnswer();
}

/** Whitelists `domain` for `durationMs`; the worker puts it back where it was (`before`) after. */
export function temporaryAllowRequest(
  domain: string,
  profile: string | undefined,
  durationMs: number,
  membership: Membership | null,
): Request {
  return {
    type: 'temporary-allow',
    domain,
    ...(profile === undefined ? {} : { profile }),
    durationMs,
    before: membership ?? 'none',
  };
}

/** Keeps a temporarily allowed domain on the whitelist for good: an ordinary one-click change. */
export function keepAllowedRequest(domain: string, profile: string | undefined): Request {
  return {
    type: 'submit-change',
    change: {
      op: 'add',
      list: 'whitelist',
      domain,
      ...(profile === undefined ? {} : { profile }),
      source: 'popup',
    },
  };
}
