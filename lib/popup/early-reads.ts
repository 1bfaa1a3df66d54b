/**
 * Storage reads started before a page's modules have loaded. The popup's modules take longer to
 * load and evaluate than one `storage.local` read takes to answer, so a small classic script
 * (entrypoints/popup-start.ts, first-script.ts, fetched first) asks at once for the keys the
 * previous opening read, and the storage items (lib/settings/validated-item.ts) take those
 * answers instead of asking again.
 * Each answer serves one read only: a later read of the same key goes to storage, as a value may
 * have changed since.
 *
 * Nothing here is trusted more than storage itself: the answers are raw stored values, checked by
 * the item that takes them. The remembered key names (in localStorage, which the page's own origin
 * alone can read) hold no secret: settings names and list scopes. No zod and no WXT here: the
 * classic script bundles this file on its own and must stay tiny.
 */
import { STORED_API_KEY } from '@/lib/account/key-fingerprint';
import { type MirrorArea, type MirrorCheck, readMirror } from './start-mirror';

/** The localStorage key holding the storage keys the last opening read (JSON array). */
export const EARLY_READ_KEYS_HINT = 'earlyReadKeys';
const GLOBAL_NAME = '__dnsFilterEarlyReads';
/** More keys than the popup reads means the hint is not ours: ignored. */
const MAX_KEYS = 32;

type StoredValues = Record<string, unknown>;

/** One batch of reads: its keys (storage.local keys, without WXT's `local:` prefix) and answers. */
export interface ReadBatch {
  keys: readonly string[];
  values: Promise<StoredValues>;
  /**
   * Where the start mirror is used (start-mirror.ts): what it and storage answered, to compare;
   * asks storage the first time (once). The API key is taken from storage's answer alone.
   */
  check?: () => Promise<MirrorCheck>;
  /**
   * The API key's fingerprint, as the mirror holds it (null: no key is set); undefined when the
   * values are storage's, or the key was not read.
   */
  keyFingerprint?: Promise<string | null | undefined>;
}

export interface EarlyReads extends ReadBatch {
  /**
   * Reads that wait for the tab: the keys `laterKeys` matches are not read with the others but
   * once the tab names them (the buckets of its site's cached lists, lib/cache/list-buckets.ts).
   */
  later?: LaterReads;
}

export interface LaterReads {
  matches(key: string): boolean;
  batch: Promise<ReadBatch>;
}

interface LocalStorageArea {
  get(keys: string[]): Promise<StoredValues>;
}

/** Where the popup reads its start values from: storage, and in Firefox first the start mirror. */
export interface StartAreas {
  local: LocalStorageArea;
  /** `storage.session`, where the start mirror is used (start-mirror.ts `startMirrorUsed`). */
  mirror?: Pick<MirrorArea, 'get'>;
}

interface HintStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** The remembered keys, or none when the hint is missing or not a short list of strings. */
export function hintedKeys(hints: Pick<HintStore, 'getItem'>): string[] {
  try {
    const parsed: unknown = JSON.parse(hints.getItem(EARLY_READ_KEYS_HINT) ?? '[]');
    if (!Array.isArray(parsed) || parsed.length > MAX_KEYS) return [];
    return parsed.filter((key): key is string => typeof key === 'string' && key.length > 0);
  } catch {
    return [];
  }
}

/**
 * How each browser answers one `storage.local.get` of several keys. Firefox reads them one after
 * another (an IndexedDB request each, awaited in turn, its events on the page's own thread, which
 * is busy loading the modules), so there each key is asked on its own, all at once; measured in
 * the real popup, its settings were read 7 ms sooner. Chromium answers any `get` in one message.
 * (docs/architecture.md, "Where the popup's time goes".)
 */
const KEYS_PER_GET: Record<string, 'one' | 'all'> = { firefox: 'one', chrome: 'all' };

/**
 * `get` asked for `keys` in the way this browser answers soonest (`KEYS_PER_GET`): once for all of
 * them, or once per key, concurrently. The answers, in asking order.
 */
export function askForKeys<Key, Answer>(
  keys: readonly Key[],
  get: (keys: Key[]) => Promise<Answer>,
  browserName: string = import.meta.env.BROWSER,
): Promise<Answer[]> {
  return KEYS_PER_GET[browserName] === 'one'
    ? Promise.all(keys.map((key) => get([key])))
    : get([...keys]).then((answer) => [answer]);
}

/**
 * `keys`' values, asked at once: the first script asks before it reads the tab, whose API costs
 * Firefox ~2 ms to set up on its first call (docs/architecture.md, "Where the popup's time goes").
 * With a mirror, its values when it holds every key; storage is asked only when it does not, or
 * for the comparison (`check`), which the page asks for once its first view is shown: asked
 * sooner, storage's calls and answers come before the verdict (docs/architecture.md, "The start
 * mirror"). The comparison needs no key's answer early, so it asks in one `get`
 * (`readStorage`'s `'together'`). A `get` that throws becomes a failed read.
 */
function readKeys(areas: StartAreas, keys: readonly string[]): ReadBatch {
  if (!areas.mirror || keys.length === 0) return { keys, values: readStorage(areas.local, keys) };
  let asked: Promise<StoredValues> | undefined;
  const stored = (way: ReadWay) => {
    asked ??= readStorage(areas.local, keys, way);
    return asked;
  };
  const mirrored = readMirror(areas.mirror, keys);
  const values = mirrored.then((fromMirror) => fromMirror?.values ?? stored('soonest'));
  values.catch(() => {});
  const check = () =>
    mirrored.then((fromMirror) =>
      stored('together')
        .then(
          (answer) => answer,
          () => null,
        )
        .then((fromStorage) => ({ keys, mirrored: fromMirror?.records ?? null, stored: fromStorage })),
    );
  const keyFingerprint = mirrored.then((fromMirror) => fromMirror?.keyFingerprint);
  return { keys, values, check, keyFingerprint };
}

/**
 * How `readStorage` asks: `'soonest'` as this browser answers each key soonest (`askForKeys`),
 * for answers someone waits for; `'together'` in one `get`, the fewest calls, for answers nothing
 * waits for (each call costs Firefox's page a little of its own thread).
 */
export type ReadWay = 'soonest' | 'together';

/** `keys`' raw values in storage, asked as `way` says. A `get` that throws becomes a failed read. */
export function readStorage(
  area: LocalStorageArea,
  keys: readonly string[],
  way: ReadWay = 'soonest',
): Promise<StoredValues> {
  let values: Promise<StoredValues>;
  try {
    values =
      keys.length === 0
        ? Promise.resolve({})
        : way === 'together'
          ? area.get([...keys])
          : askForKeys(keys, (some) => area.get(some)).then(
              (answers): StoredValues => Object.assign({}, ...answers),
            );
  } catch (error) {
    values = Promise.reject(error);
  }
  // Handled here too: the modules may never take it (a popup closed at once).
  values.catch(() => {});
  return values;
}

/**
 * Starts reading the remembered keys (none on a first opening: it then only records them). With
 * `later`, the remembered keys it matches are left to it: `keysFor` names, from them, the keys to
 * read instead once the tab is known (resolving to none when it is not).
 */
export function startEarlyReads(
  areas: StartAreas,
  hints: Pick<HintStore, 'getItem'>,
  later?: {
    matches(key: string): boolean;
    keysFor(remembered: readonly string[]): Promise<readonly string[]>;
  },
): EarlyReads {
  const remembered = hintedKeys(hints);
  const keys = later ? remembered.filter((key) => !later.matches(key)) : remembered;
  const reads: EarlyReads = readKeys(areas, keys);
  if (!later) return reads;
  const batch = later.keysFor(remembered.filter(later.matches)).then(
    (laterKeys) => readKeys(areas, laterKeys),
    (): ReadBatch => ({ keys: [], values: Promise.resolve({}) }),
  );
  return { ...reads, later: { matches: later.matches, batch } };
}

/** Where the classic script leaves its reads for the modules (a page global, set once). */
export function publishEarlyReads(reads: EarlyReads, scope: object = globalThis): void {
  Object.defineProperty(scope, GLOBAL_NAME, { value: reads, configurable: true });
}

type ReadNow = (keys: string[]) => Promise<Map<string, unknown>>;

export interface EarlyReadSource {
  /**
   * The stored values of `keys` (WXT keys, `local:name`): the early answers for the keys read
   * early and not yet taken (each is taken once), the others from `readNow`, started at once. A
   * failed early read is made good by `readNow`. Missing values are undefined.
   */
  read(keys: readonly string[], readNow: ReadNow): Promise<Map<string, unknown>>;
  /** The storage keys (without WXT's `local:` prefix) read so far, in the order first asked. */
  readSoFar(): readonly string[];
  /** Saves `keys` (from `readSoFar`) as the next opening's hint, when they differ. Never throws. */
  remember(hints: HintStore, keys: readonly string[]): void;
  /** What the start mirror and storage answered, per batch, where the mirror is used. */
  mirrorChecks(): Promise<MirrorCheck[]>;
  /**
   * Settles once storage has answered the early batch's comparison read (at once where the mirror
   * is not used): a write of one of its keys before that would pass for a change the mirror missed.
   */
  comparedReadDone(): Promise<void>;
  /**
   * The API key's fingerprint from the start mirror (null: no key is set), once it has answered;
   * undefined when the mirror did not answer for it (storage's answer brings the key itself).
   */
  keyFingerprint(): Promise<string | null | undefined>;
}

const LOCAL = 'local:';
const driverKey = (key: string) => key.slice(LOCAL.length);

/**
 * The page's early reads, when a classic script started them (the popup); otherwise every read
 * goes straight to `readNow`, and nothing is recorded.
 */
export function createEarlyReadSource(scope: object = globalThis): EarlyReadSource {
  const reads = (scope as Record<string, EarlyReads | undefined>)[GLOBAL_NAME];
  if (!reads) {
    return {
      read: (keys, readNow) => readNow([...keys]),
      readSoFar: () => [],
      remember: () => {},
      mirrorChecks: async () => [],
      comparedReadDone: async () => {},
      keyFingerprint: async () => undefined,
    };
  }
  const waiting = new Set(reads.keys);
  const asked = new Set<string>();
  const settled = (values: Promise<StoredValues>) =>
    values.then(
      (answered) => answered,
      () => null,
    );
  const early = settled(reads.values);
  // Where the start mirror answered, storage is asked for the same keys only once the comparison
  // is wanted (`mirrorChecks`, after the first view) or a write waits for it (`comparedReadDone`):
  // asked as soon as the modules were in, its calls and answers cost Firefox's popup 1 to 3 ms
  // before its verdict (docs/architecture.md, "The start mirror"). It brings the API key, which
  // is never in the mirror (start-mirror.ts): the key waits for it without asking for it; only a
  // call to the service needs the key, and none comes before the first view.
  let askComparison = () => {};
  const comparisonAsked = new Promise<void>((resolve) => {
    askComparison = resolve;
  });
  const earlyCheck = reads.check && comparisonAsked.then(reads.check);
  // Where the mirror did not answer the batch, storage did, the key included.
  const earlyStored = earlyCheck
    ? (reads.keyFingerprint ?? Promise.resolve(undefined)).then((mirrored) =>
        mirrored === undefined ? early : earlyCheck.then(({ stored }) => stored),
      )
    : early;
  const fromStorageOnly = (key: string) => key === `${LOCAL}${STORED_API_KEY}`;
  const later = reads.later;
  /** The later batch, once the tab has named its keys; its keys wait like the early ones. */
  const laterBatch = later?.batch.then(({ keys, values, check }) => ({
    waiting: new Set(keys),
    values: settled(values),
    check: check && comparisonAsked.then(check),
  }));

  /** `taken` from one batch's answer, or from storage when that batch failed. */
  async function fromBatch(taken: string[], answer: Promise<StoredValues | null>, readNow: ReadNow) {
    const answered = await answer;
    return answered === null
      ? readNow(taken)
      : new Map(taken.map((key) => [key, answered[driverKey(key)]] as const));
  }

  return {
    async read(keys, readNow) {
      for (const key of keys) if (key.startsWith(LOCAL)) asked.add(driverKey(key));
      const taken = keys.filter((key) => key.startsWith(LOCAL) && waiting.delete(driverKey(key)));
      let rest = keys.filter((key) => !taken.includes(key));
      // Keys the later batch may hold wait for the tab's answer (it comes before the modules need it).
      let takenLater: string[] = [];
      let laterValues: Promise<StoredValues | null> = Promise.resolve(null);
      if (laterBatch && rest.some((key) => key.startsWith(LOCAL) && later?.matches(driverKey(key)))) {
        const batch = await laterBatch;
        takenLater = rest.filter((key) => key.startsWith(LOCAL) && batch.waiting.delete(driverKey(key)));
        rest = rest.filter((key) => !takenLater.includes(key));
        laterValues = batch.values;
      }
      if (taken.length === 0 && takenLater.length === 0) return readNow([...keys]);
      const takenStored = taken.filter(fromStorageOnly);
      const takenEarly = taken.filter((key) => !fromStorageOnly(key));
      const [fromStored, fromEarly, fromLater, others] = await Promise.all([
        takenStored.length > 0 ? fromBatch(takenStored, earlyStored, readNow) : new Map(),
        takenEarly.length > 0 ? fromBatch(takenEarly, early, readNow) : new Map(),
        takenLater.length > 0 ? fromBatch(takenLater, laterValues, readNow) : new Map(),
        rest.length > 0 ? readNow(rest) : new Map(),
      ]);
      return new Map([...fromStored, ...fromEarly, ...fromLater, ...others]);
    },
    readSoFar: () => [...asked],
    keyFingerprint: () => reads.keyFingerprint ?? Promise.resolve(undefined),
    comparedReadDone() {
      askComparison();
      return earlyCheck ? earlyCheck.then(() => {}) : Promise.resolve();
    },
    async mirrorChecks() {
      askComparison();
      const laterCheck = (await laterBatch)?.check;
      return Promise.all([earlyCheck, laterCheck].filter((check) => check !== undefined));
    },
    remember(hints, keys) {
      try {
        const hint = JSON.stringify(keys.slice(0, MAX_KEYS));
        if (hints.getItem(EARLY_READ_KEYS_HINT) !== hint) hints.setItem(EARLY_READ_KEYS_HINT, hint);
      } catch {
        // No localStorage (disabled by policy, or full): the next opening reads as usual.
      }
    },
  };
}
