/**
 * Storage answers the popup's first script asked for before its modules loaded
 * (lib/popup/first-script.ts): the page's one global. Each answer serves one read only, the first
 * of its key: a later read goes to storage, as the value may have changed since.
 *
 * No zod and no WXT: the first script bundles this file on its own.
 */

export type StoredValues = Record<string, unknown>;

/** One `storage.local.get`: the names asked for and their answer. */
export interface AnswerBatch {
  names: readonly string[];
  values: Promise<StoredValues>;
}

/** What the first script leaves for the modules. */
export interface EarlyAnswers {
  /** The tab's reading (lib/popup/read-tab.ts), typed loosely here: this file knows no tabs. */
  tab: Promise<unknown>;
  /** The keys every first view reads (lib/popup/start-keys.ts). */
  first: AnswerBatch;
  /** The keys that depend on the first answers and the tab: the site's list buckets, the notes. */
  later: Promise<AnswerBatch>;
}

const GLOBAL_NAME = '__dnsFilterPopupStart';

/** Leaves `answers` for the modules (the first script). */
export function publishEarlyAnswers(answers: EarlyAnswers, scope: object = globalThis): void {
  // Handled here too: the modules may never take them (a popup closed at once).
  answers.tab.catch(() => {});
  answers.first.values.catch(() => {});
  answers.later.then((batch) => batch.values.catch(() => {})).catch(() => {});
  Object.defineProperty(scope, GLOBAL_NAME, { value: answers, configurable: true });
}

interface Waiting {
  names: Set<string>;
  values: Promise<StoredValues | null>;
}

const waiting = (batch: AnswerBatch): Waiting => ({
  names: new Set(batch.names),
  values: batch.values.catch(() => null),
});

let first: Waiting | undefined;
let later: Promise<Waiting | null> | undefined;

/**
 * Takes the first script's answers, if it left any (the popup's module, once, at its start):
 * storage reads take them from now on. Returns its reading of the tab, if any.
 */
export function useEarlyAnswers(scope: object = globalThis): Promise<unknown> | undefined {
  const answers = (scope as Record<string, EarlyAnswers | undefined>)[GLOBAL_NAME];
  if (!answers) return undefined;
  Reflect.deleteProperty(scope, GLOBAL_NAME);
  first = waiting(answers.first);
  later = answers.later.then(waiting, () => null);
  return answers.tab;
}

/**
 * Forgets the answers not taken yet: the popup's first view is set, and what it reads after may
 * have changed since the first script asked (a list bucket it did not need then, say).
 */
export function dropEarlyAnswers(): void {
  first = undefined;
  later = undefined;
}

/** Forgets the answers for `names`, which this page is writing: a read after the write must see it. */
export function forgetEarly(names: readonly string[]): void {
  for (const name of names) first?.names.delete(name);
  void later?.then((batch) => {
    for (const name of names) batch?.names.delete(name);
  });
}

/**
 * `names`' stored values: the early answers for the names an early batch holds and no read has
 * taken yet, `readNow` for the others (started as soon as they are known). A batch that failed
 * leaves its names to `readNow`.
 */
export async function readWithEarly(
  names: readonly string[],
  readNow: (names: string[]) => Promise<StoredValues>,
): Promise<StoredValues> {
  if (!first || !later) return readNow([...names]);
  const fromFirst = names.filter((name) => first?.names.delete(name));
  let others = names.filter((name) => !fromFirst.includes(name));
  let fromLater: string[] = [];
  let laterBatch: Waiting | null = null;
  // Names not in the first batch may be in the later one, whose names come right after the tab.
  if (others.length > 0) {
    laterBatch = await later;
    fromLater = others.filter((name) => laterBatch?.names.delete(name));
    others = others.filter((name) => !fromLater.includes(name));
  }
  const take = async (batch: Waiting | null, taken: string[]): Promise<StoredValues> => {
    if (taken.length === 0) return {};
    const answer = batch ? await batch.values : null;
    return answer === null ? readNow(taken) : Object.fromEntries(taken.map((name) => [name, answer[name]]));
  };
  const parts = await Promise.all([
    take(first, fromFirst),
    take(laterBatch, fromLater),
    others.length > 0 ? readNow(others) : {},
  ]);
  return Object.assign({}, ...parts);
}
