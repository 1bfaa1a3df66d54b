/**
 * What the popup asks of the worker for "Unbreak this page" (unbreak.ts): the unbreak itself and
 * the review. Each resolves with an answer the popup can show, never rejects.
 */
import type { ChangeOutcome, UnbreakResponse } from '@/lib/messaging/protocol';
import { worker } from '@/lib/messaging/worker-client';
import { workerDidNotAnswer } from '@/lib/popup/worker-requests';
import type { UnbreakRequest } from './unbreak';

export function askToUnbreak(request: UnbreakRequest): Promise<UnbreakResponse> {
  return worker.unbreak(request).catch(() => ({ ...workerDidNotAnswer(), allowed: [] }));
}

/** `keep`: the entries the site loaded go on the whitelist for good; either way the review is done. */
export function askToReview(id: string, keep: boolean): Promise<ChangeOutcome> {
  return worker.reviewUnbreak(id, keep).catch(workerDidNotAnswer);
}
