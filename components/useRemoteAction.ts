import { useCallback, useRef, useState } from 'preact/hooks';
import { adviceFor } from '@/lib/api/advice';
import { isApiError } from '@/lib/api/errors';
import { t } from '@/lib/i18n';

export type ActionStatus =
  | { state: 'idle' }
  | { state: 'running'; message: string }
  | { state: 'done'; message: string }
  /** `advice`: one line that fits the kind of failure (lib/api/advice.ts), shown under the message. */
  | { state: 'failed'; message: string; advice?: string };

/** Text for any failure, safe to show: ApiError messages are written for users and carry no key. */
export function failureText(error: unknown): string {
  if (isApiError(error)) return error.message;
  return t('common.genericFailure');
}

/** The status of a failed action: its message and the advice for its kind. */
export function failedStatus(error: unknown): Extract<ActionStatus, { state: 'failed' }> {
  return { state: 'failed', message: failureText(error), advice: adviceFor(error) };
}

/**
 * Runs one remote action at a time and keeps its progress and outcome for a status region.
 * Failures never throw into the component, so what the user typed stays where it is.
 */
export function useRemoteAction() {
  const [status, setStatus] = useState<ActionStatus>({ state: 'idle' });
  const running = useRef(false);
  const run = useCallback(
    async <T>(
      progress: string,
      action: () => Promise<T>,
      success: (result: T) => string,
    ): Promise<T | undefined> => {
      if (running.current) return undefined;
      running.current = true;
      setStatus({ state: 'running', message: progress });
      try {
        const result = await action();
        setStatus({ state: 'done', message: success(result) });
        return result;
      } catch (error) {
        setStatus(failedStatus(error));
        return undefined;
      } finally {
        running.current = false;
      }
    },
    [],
  );
  return { status, run, setStatus, busy: status.state === 'running' };
}
