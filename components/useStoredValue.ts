import { useEffect, useState } from 'preact/hooks';
import { type Followable, followStored } from '@/lib/settings/follow';

/** A stored item's value, following changes made elsewhere (the worker, another page); `initial` until it is read. */
export function useStoredValue<T>(item: Followable<T>, initial: T): T {
  const [value, setValue] = useState<T>(initial);
  useEffect(() => followStored(item, setValue), [item]);
  return value;
}
