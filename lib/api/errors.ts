/**
 * Every failure the API client can produce. The UI shows `message` as plain text; it never
 * contains the API key (the transport scrubs it before an error is built).
 */
import type { Validation } from '@/lib/validation/result';

export type ApiErrorKind =
  /** The service answered with a failure body; `reason` is its text, verbatim. */
  | 'service'
  /** The service rejected the key. */
  | 'bad-key'
  /** The request never got an answer (offline, DNS, refused, dropped connection). */
  | 'network'
  /** No answer within the client's time limit. */
  | 'timeout'
  /** An answer that is not the expected JSON (HTML page, malformed JSON, wrong shape); names the HTTP code. */
  | 'unexpected'
  /** The service answered 5xx or 429: busy or failing for now, whatever the body says; retried. */
  | 'server'
  /** An answer larger than the client accepts. */
  | 'too-large'
  /** The user's input was refused before any call was made. */
  | 'invalid-input'
  /** The caller cancelled (AbortSignal). */
  | 'aborted';

export interface ApiErrorDetails {
  /** What was being attempted, in words a user understands ("add example.com to the whitelist"). */
  attempted?: string;
  /** Service failure text (kind 'service' / 'bad-key'). */
  reason?: string;
  /** HTTP status code, when an answer arrived. */
  httpStatus?: number;
  /** Which input field was refused (kind 'invalid-input'). */
  field?: string;
  /** Kind 'invalid-input': the browser did not grant this host permission (a match pattern). */
  permission?: string;
  /** Kind 'server': how long the service asked to wait (Retry-After), in milliseconds. */
  retryAfterMs?: number;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly details: ApiErrorDetails;

  constructor(kind: ApiErrorKind, message: string, details: ApiErrorDetails = {}) {
    super(message);
    this.kind = kind;
    this.details = details;
  }
}

/** The value of a passed check; a failed one throws ApiError 'invalid-input' naming `field`. */
export function validOrThrow<T>(check: Validation<T>, field: string): T {
  if (check.ok) return check.value;
  throw new ApiError('invalid-input', check.message, { field });
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/** Failures worth retrying: the service may answer later. A refusal will not change by itself. */
export function isTransientKind(kind: string | undefined): boolean {
  return (
    kind === 'network' ||
    kind === 'timeout' ||
    kind === 'unexpected' ||
    kind === 'server' ||
    kind === 'aborted'
  );
}
