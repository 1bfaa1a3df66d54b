/**
 * Reading a stored value and then following it: the one way pages show what storage holds and
 * keep showing it while the worker, another page or a restored backup changes it.
 */

/**
 * What can be read and then followed: a storage item, or a value read from several items
 * (`followableRead`). `watch` calls back on every change with the new value, or with none when
 * the value must be read again; it returns the unwatch function.
 */
export interface Followable<T> {
  getValue(): Promise<T>;
  watch(callback: (...change: [value: T] | []) => void): () => void;
}

/**
 * Calls back with the stored value, then with every change, until the returned function is
 * called. A change seen while a read is on its way is newer than what that read brings, so that
 * read is then dropped; of two reads on their way, the later one wins. A failed first read is
 * left unsaid (or calls `onReadFailed`): the next change still comes.
 */
export function followStored<T>(
  source: Followable<T>,
  onValue: (value: T) => void,
  onReadFailed?: () => void,
): () => void {
  let live = true;
  let latest = 0;
  const read = (first: boolean) => {
    const attempt = ++latest;
    source.getValue().then(
      (value) => {
        if (live && attempt === latest) onValue(value);
      },
      () => {
        if (first && live && attempt === latest) onReadFailed?.();
      },
    );
  };
  read(true);
  const unwatch = source.watch((...change) => {
    if (change.length === 0) {
      read(false);
      return;
    }
    // Any read still on its way is older than this change.
    latest++;
    onValue(change[0]);
  });
  return () => {
    live = false;
    unwatch();
  };
}

/**
 * A value made from several items (a client built from the key and the connection, say): `read`
 * gives it, and it is read again whenever one of `items` changes.
 */
export function followableRead<T>(
  items: readonly Pick<Followable<unknown>, 'watch'>[],
  read: () => Promise<T>,
): Followable<T> {
  return {
    getValue: read,
    watch(callback) {
      const unwatches = items.map((item) => item.watch(() => callback()));
      return () => {
        for (const unwatch of unwatches) unwatch();
      };
    },
  };
}
