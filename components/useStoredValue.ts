import { useEffect, useState } from 'preact/hooks';
import { type Followable, followStored } from '@/lib/settings/follow';

/**
 * A stored value, following changes made elsewhere (the worker, another page), with a setter for
 * what the page shows until the next stored change (a choice shown before its write is done).
 * `initial` until the first read; `unreadable`, when given, if that read fails.
 */
export function useStoredState<T, I = T>(
  item: Followable<T>,
  initial: I,
  unreadable?: T,
): [T | I, (value: T) => void] {
  const [value, setValue] = useState<T | I>(initial);
  useEffect(
    () => followStored(item, setValue, unreadable === undefined ? undefined : () => setValue(unreadable)),
    [item, unreadable],
  );
  return [value, setValue];
}

/** A stored item's value, following changes made elsewhere (the worker, another page); `initial` until it is read. */
export function useStoredValue<T, I = T>(item: Followable<T>, initial: I): T | I {
  return useStoredState(item, initial)[0];
}
