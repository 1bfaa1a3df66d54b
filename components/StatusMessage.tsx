import type { ComponentChildren } from 'preact';
import { IsolatedText } from './IsolatedText';
import { WarningIcon } from './icons/Icon';
import type { ActionStatus } from './useRemoteAction';

/** One failure: what went wrong (it names what was attempted), then the advice for its kind. */
function FailureBody({
  message,
  advice,
  children,
}: {
  message: string;
  advice?: string;
  children?: ComponentChildren;
}) {
  return (
    <>
      <WarningIcon />
      <div class="message-body">
        <p class="message-title">
          <IsolatedText text={message} />
        </p>
        {advice ? <p class="message-advice">{advice}</p> : null}
        {children ? <div class="message-actions">{children}</div> : null}
      </div>
    </>
  );
}

/**
 * A live region: screen readers announce progress and outcomes without moving focus. A failure is
 * shown once, here, beside the control that caused it, with advice that fits its kind.
 */
export function StatusMessage({ status, label }: { status: ActionStatus; label?: string }) {
  const failed = status.state === 'failed';
  return (
    <div
      role="status"
      aria-label={label}
      class={`status status-${status.state}${failed ? ' message message-failed' : ''}`}
      aria-live="polite"
    >
      {status.state === 'failed' ? (
        <FailureBody message={status.message} advice={status.advice} />
      ) : status.state === 'idle' ? null : (
        <IsolatedText text={status.message} />
      )}
    </div>
  );
}

/**
 * Data that could not be loaded: the failure with its advice, and what to do about it (a button
 * that loads it again). Same look as a failed action's status.
 */
export function FailureNotice({
  message,
  advice,
  alert = false,
  children,
}: {
  message: string;
  advice?: string;
  /** Announce it at once (role alert): for a failure that replaces the whole view. */
  alert?: boolean;
  children?: ComponentChildren;
}) {
  return (
    <div class="message message-failed load-failed" role={alert ? 'alert' : undefined}>
      <FailureBody message={message} advice={advice}>
        {children}
      </FailureBody>
    </div>
  );
}
