import { IsolatedText } from './IsolatedText';
import type { ActionStatus } from './useRemoteAction';

/** A live region: screen readers announce progress and outcomes without moving focus. */
export function StatusMessage({ status, label }: { status: ActionStatus; label?: string }) {
  const text = status.state === 'idle' ? '' : status.message;
  return (
    <p role="status" aria-label={label} class={`status status-${status.state}`} aria-live="polite">
      <IsolatedText text={text} />
    </p>
  );
}
