/**
 * One failure, one message: what went wrong (the ApiError's message) and one short line of advice
 * that fits the kind of failure. A refused key points at the key; a service out of reach points
 * at the connection and the address; a failing service says nothing on this side needs changing.
 * The advice is data (the table below), so every surface that shows a failure says the same.
 */

import { type PlainKey, t } from '@/lib/i18n';
import { type ApiErrorKind, isApiError } from './errors';

/** The kinds a person can tell apart by what they should do about them. */
export type FailureKind =
  | Exclude<ApiErrorKind, 'network'>
  /** No answer at all (offline, DNS, connection refused). */
  | 'unreachable'
  /** The browser has not given the extension a permission the call needs. */
  | 'permission'
  /**
   * A failure passed on in words only (the worker's answer to a registration or a queued change):
   * its kind is not known here, and its message already says what happened.
   */
  | 'relayed'
  /** A fault inside the extension, not an ApiError. */
  | 'internal';

/** Advice per kind; null where the message already says what to do (or nothing is to be done). */
const ADVICE: Record<FailureKind, PlainKey | null> = {
  'bad-key': 'advice.badKey',
  service: 'advice.refused',
  unreachable: 'advice.unreachable',
  timeout: 'advice.timeout',
  unexpected: 'advice.unexpected',
  server: 'advice.server',
  'too-large': 'advice.tooLarge',
  permission: 'advice.permission',
  relayed: null,
  // The message names the field and what it needs.
  'invalid-input': null,
  // The user stopped it.
  aborted: null,
  // The message already asks to try again.
  internal: null,
};

export function failureKindOf(error: unknown): FailureKind {
  if (!isApiError(error)) return 'internal';
  if (error.kind === 'network') return 'unreachable';
  if (error.kind === 'invalid-input' && error.details.permission !== undefined) return 'permission';
  // A refusal from the transport carries the HTTP status it came with (and the service's text).
  if (
    error.kind === 'service' &&
    error.details.httpStatus === undefined &&
    error.details.reason === undefined
  )
    return 'relayed';
  return error.kind;
}

/** The advice line for a failure, or undefined when its message says enough. */
export function adviceFor(error: unknown): string | undefined {
  const key = ADVICE[failureKindOf(error)];
  return key === null ? undefined : t(key);
}
