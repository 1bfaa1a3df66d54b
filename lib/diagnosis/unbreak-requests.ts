/**
 * What the popup asks of the worker for "Unbreak this page" (unbreak.ts): the unbreak itself and
 * the review. Each resolves with an answer the popup can show, never rejects.
 */
import type { ChangeOutcome, RequestOf, UnbreakResponse } from '@/lib/messaging/protocol';
import { worker } from '@/lib/messaging/worker-client';
import { workerDidNotAnswer } from '@/lib/popup/worker-requests';

/** The unbreak, for the account the popup shows (`accountId`). */
export function askToUnbreak(request: Omit<RequestOf<'unbreak'>, 'type'>): Promise<UnbreakResponse> {
  return worker.unbreak(request).catch(() => ({ ...workerDidNotAnswer(), allowed: [] }));
}

/** `keep`: the entries the site loaded go on the whitelist for good; either way the review is done. */
export function askToReview(id: string, keep: boolean, accountId: string): Promise<ChangeOutcome> {
  return worker.reviewUnbreak(id, keep, accountId).catch(workerDidNotAnswer);
}
