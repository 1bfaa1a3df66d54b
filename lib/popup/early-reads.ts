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

/** The localStorage key holding the storage keys the last opening read (JSON array). */
export const EARLY_READ_KEYS_HINT = 'earlyReadKeys';
const GLOBAL_NAME = '__dnsFilterEarlyReads';
/** More keys than the popup reads means the hint is not ours: ignored. */
const MAX_KEYS = 32;

type StoredValues = Record<string, unknown>;

export interface EarlyReads {
  /** storage.local keys (without WXT's `local:` prefix) whose answer is on its way. */
  keys: readonly string[];
  values: Promise<StoredValues>;
}

interface LocalStorageArea {
  get(keys: string[]): Promise<StoredValues>;
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

/** Starts reading the remembered keys (none on a first opening: it then only records them). */
export function startEarlyReads(area: LocalStorageArea, hints: Pick<HintStore, 'getItem'>): EarlyReads {
  const keys = hintedKeys(hints);
  const values = keys.length === 0 ? Promise.resolve({}) : Promise.resolve().then(() => area.get(keys));
  // Handled here too: the modules may never take it (a popup closed at once).
  values.catch(() => {});
  return { keys, values };
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
  /** Saves the keys read so far as the next opening's hint (when they differ). Never throws. */
  remember(hints: HintStore): void;
}

const LOCAL = 'local:';
const driverKey = (key: string) => key.slice(LOCAL.length);

/**
 * The page's early reads, when a classic script started them (the popup); otherwise every read
 * goes straight to `readNow`, and nothing is recorded.
 */
export function createEarlyReadSource(scope: object = globalThis): EarlyReadSource {
  const reads = (scope as Record<string, EarlyReads | undefined>)[GLOBAL_NAME];
  if (!reads) return { read: (keys, readNow) => readNow([...keys]), remember: () => {} };
  const waiting = new Set(reads.keys);
  const asked = new Set<string>();
  const early = reads.values.then(
    (values) => values,
    () => null,
  );
  return {
    async read(keys, readNow) {
      for (const key of keys) if (key.startsWith(LOCAL)) asked.add(driverKey(key));
      const taken = keys.filter((key) => key.startsWith(LOCAL) && waiting.delete(driverKey(key)));
      if (taken.length === 0) return readNow([...keys]);
      const rest = keys.filter((key) => !taken.includes(key));
      const [answered, others] = await Promise.all([early, rest.length > 0 ? readNow(rest) : new Map()]);
      const fromEarly =
        answered === null
          ? await readNow(taken)
          : new Map(taken.map((key) => [key, answered[driverKey(key)]] as const));
      return new Map([...fromEarly, ...others]);
    },
    remember(hints) {
      try {
        const keys = JSON.stringify([...asked].slice(0, MAX_KEYS));
        if (hints.getItem(EARLY_READ_KEYS_HINT) !== keys) hints.setItem(EARLY_READ_KEYS_HINT, keys);
      } catch {
        // No localStorage (disabled by policy, or full): the next opening reads as usual.
      }
    },
  };
}
