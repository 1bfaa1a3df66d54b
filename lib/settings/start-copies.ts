/**
 * Firefox's start copies (docs/performance.md, "Firefox's start copies"): copies in
 * `storage.session` of the stored values the popup's first script reads (lib/popup/start-keys.ts).
 *
 * Why: a Firefox page's first `storage.local` call opens an IndexedDB connection on the page's
 * own thread, while the popup's modules load there; `storage.session` is held by the parent
 * process and answers without it. Chromium answers `storage.local` sooner, and keeps no copies.
 *
 * Storage stays the only place a value is written. A name's copy is made by the first script
 * that had to read storage for it, and forgotten by every write of the name, after the write
 * (./item.ts): so the next opening reads storage again. A copy made while a write was
 * under way is kept only if storage still holds what was copied once the copy is written.
 * `storage.session` is cleared when the browser closes.
 *
 * No zod and no WXT: the first script bundles this file.
 */

type Values = Record<string, unknown>;

export interface CopyArea {
  get(names: string[]): Promise<Values>;
  set(items: Values): Promise<void>;
  remove(names: string[]): Promise<void>;
}

/** The browsers whose popup reads its start values from copies first. */
const KEEPS_START_COPIES: Record<string, boolean> = { firefox: true, chrome: false };

export const keepsStartCopies = (browserName: string = import.meta.env.BROWSER): boolean =>
  KEEPS_START_COPIES[browserName] === true;

/** A copy's name in `storage.session`. */
export const copyName = (name: string): string => `startCopy:${name}`;

/** A copy: `{ value }` when storage holds the name, `{}` when it holds none. */
type Copy = { value?: unknown };
const copyOf = (values: Values, name: string): Copy => (name in values ? { value: values[name] } : {});
const sameCopy = (a: Copy, b: Copy) => JSON.stringify(a) === JSON.stringify(b);

/**
 * `names`' stored values: from their copies where `session` has them, from `readStored` for the
 * others, which are then copied (the copy is not waited for).
 */
export async function readThroughCopies(
  session: CopyArea,
  names: readonly string[],
  readStored: (names: string[]) => Promise<Values>,
): Promise<Values> {
  if (names.length === 0) return {};
  const copies = await session.get(names.map(copyName)).catch((): Values => ({}));
  const values: Values = {};
  const uncopied: string[] = [];
  for (const name of names) {
    const copy = copies[copyName(name)];
    if (typeof copy !== 'object' || copy === null) uncopied.push(name);
    else if ('value' in copy) values[name] = (copy as Copy).value;
  }
  if (uncopied.length === 0) return values;
  const stored = await readStored(uncopied);
  copy(session, uncopied, stored, readStored).catch(() => {});
  return { ...values, ...stored };
}

async function copy(
  session: CopyArea,
  names: string[],
  stored: Values,
  readStored: (names: string[]) => Promise<Values>,
): Promise<void> {
  await session.set(Object.fromEntries(names.map((name) => [copyName(name), copyOf(stored, name)])));
  // A write between the read and the copy forgot its copy before the copy was made: read again.
  const now = await readStored(names);
  const changed = names.filter((name) => !sameCopy(copyOf(now, name), copyOf(stored, name)));
  if (changed.length > 0) await session.remove(changed.map(copyName));
}

/** Forgets the copies of `names`, once a write of them to `storage.local` is done. */
export function forgetCopies(session: Pick<CopyArea, 'remove'>, names: readonly string[]): Promise<void> {
  return session.remove(names.map(copyName));
}
