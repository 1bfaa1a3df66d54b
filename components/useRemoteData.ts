import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { adviceFor } from '@/lib/api/advice';
import { failureText } from './useRemoteAction';

export type RemoteData<T> =
  | { state: 'loading'; data?: T }
  | { state: 'ready'; data: T }
  | { state: 'failed'; message: string; advice?: string; data?: T };

/**
 * Loads data from the service when a dependency changes, cancelling the previous load so a slow
 * answer for an old profile never overwrites the new one. `update` edits the loaded data in place
 * after a successful change, without a reload.
 */
export function useRemoteData<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]) {
  const [data, setData] = useState<RemoteData<T>>({ state: 'loading' });
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  // A reload keeps showing the current data until the new answer arrives; a change of
  // dependencies (another profile) must not show the old profile's data meanwhile.
  const keepDataOnce = useRef(false);

  useEffect(() => {
    const controller = new AbortController();
    const keep = keepDataOnce.current;
    keepDataOnce.current = false;
    setData((current) =>
      keep && current.data !== undefined ? { state: 'loading', data: current.data } : { state: 'loading' },
    );
    loadRef.current(controller.signal).then(
      (value) => {
        if (!controller.signal.aborted) setData({ state: 'ready', data: value });
      },
      (error: unknown) => {
        if (!controller.signal.aborted)
          setData({ state: 'failed', message: failureText(error), advice: adviceFor(error) });
      },
    );
    return () => controller.abort();
  }, [...deps, generation]);

  const reload = useCallback(() => {
    keepDataOnce.current = true;
    setGeneration((value) => value + 1);
  }, []);
  const update = useCallback((change: (current: T) => T) => {
    setData((current) =>
      current.state === 'ready' ? { state: 'ready', data: change(current.data) } : current,
    );
  }, []);

  return { data, reload, update };
}
