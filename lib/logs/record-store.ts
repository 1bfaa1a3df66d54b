/**
 * The parsed raw log, kept compact so a dump of hundreds of megabytes can be browsed without
 * holding its text: one typed-array column per field, in fixed-size blocks (growing never copies),
 * and every domain, client IP and resolver stored once (interned) and referred to by number.
 *
 * A record costs 25 bytes of typed arrays plus its share of the distinct strings; a typical line is
 * ~100 bytes of text, so the view takes about a fifth of the download's size, outside the JS heap.
 *
 * Limits (why these numbers): `maxRecords` defaults to 2,000,000 lines, about 200 MB of log text
 * and 50 MB of columns, the largest day the view is meant for. `maxDistinct` defaults to 400,000
 * distinct domains/IPs/resolvers: each costs ~100 bytes of JS heap (string and map entry), so the
 * worst case (every line a new name) stays near 40 MB, inside the 150 MB heap goal. When either is
 * reached the store stops taking lines and says so; the full text can still be saved to a file.
 */
import { createScannedLine, type LogAction, scanLogLine } from './parse-line';

export const DEFAULT_MAX_RECORDS = 2_000_000;
export const DEFAULT_MAX_DISTINCT = 400_000;
/** Lines that do not follow the format keep their text (shortened) up to this many; later ones are only counted. */
export const DEFAULT_MAX_KEPT_UNRECOGNISED = 2_000;
const UNRECOGNISED_TEXT_LIMIT = 300;

const BLOCK_BITS = 16;
const BLOCK_SIZE = 1 << BLOCK_BITS;
const BLOCK_MASK = BLOCK_SIZE - 1;
/** Marks a number too large for 32 bits (kept exactly in a side map) or a text not kept. */
const NONE = 0xffffffff;

export const ACTION_ALLOWED = 0;
export const ACTION_BLOCKED = 1;
export const ACTION_UNRECOGNISED = 2;

const ACTION_OF_KIND = {
  allowed: ACTION_ALLOWED,
  blocked: ACTION_BLOCKED,
  unrecognised: ACTION_UNRECOGNISED,
};

export type AddResult = 'stored' | 'unrecognised' | 'full';
export type StoreFullReason = 'records' | 'distinct';

export interface LogRecord {
  index: number;
  kind: LogAction | 'unrecognised';
  /** `yyyy-mm-dd HH:MM:SS` (UTC arithmetic only: the log's own clock, no time zone applied). */
  dateTime: string;
  sequence: number;
  clientIp: string;
  clientNumber: number;
  domain: string;
  resolver: string;
  /** The text of an unrecognised line (shortened), or null when it was not kept. */
  text: string | null;
}

export interface RecordFilter {
  kind?: 'all' | LogAction | 'unrecognised';
  /** Case-insensitive substring of the domain. */
  domainContains?: string;
  /** Substring of the client IP (a full address or its start, e.g. `192.0.2.`). */
  clientIp?: string;
}

export interface RecordStoreLimits {
  maxRecords?: number;
  maxDistinct?: number;
  maxKeptUnrecognised?: number;
}

interface Block {
  seconds: Uint32Array;
  sequence: Uint32Array;
  clientNumber: Uint32Array;
  action: Uint8Array;
  clientIp: Uint32Array;
  domain: Uint32Array;
  resolver: Uint32Array;
}

function newBlock(): Block {
  return {
    seconds: new Uint32Array(BLOCK_SIZE),
    sequence: new Uint32Array(BLOCK_SIZE),
    clientNumber: new Uint32Array(BLOCK_SIZE),
    action: new Uint8Array(BLOCK_SIZE),
    clientIp: new Uint32Array(BLOCK_SIZE),
    domain: new Uint32Array(BLOCK_SIZE),
    resolver: new Uint32Array(BLOCK_SIZE),
  };
}

/**
 * A copy of `value` that does not point into the text it was cut from. V8 represents a substring
 * of 13+ characters as a view on its parent; interning such a view would keep every network chunk
 * it came from alive. A JSON round trip yields a fresh flat string of exactly this text (a
 * concat-and-slice copy stays a view on a new parent); it runs once per distinct value only.
 */
export function detachString(value: string): string {
  return value.length < 13 ? value : (JSON.parse(JSON.stringify(value)) as string);
}

/** Slots of the recent-values cache: a power of two, large enough for a day's busy names. */
const CACHE_SLOTS = 4096;

class Interner {
  readonly values: string[] = [];
  private readonly ids = new Map<string, number>();
  /**
   * A direct-mapped cache from a hash of the text (computed in place) to a value id. A hit is confirmed by comparing the text in place, so the common case (a name seen
   * before) allocates nothing, which keeps the garbage collector quiet while a big log streams;
   * a miss falls back to cutting the string and the map.
   */
  private readonly recent = new Int32Array(CACHE_SLOTS).fill(-1);

  /** The number of `text.slice(start, end)`, or -1 when it is new and `room` is false. */
  idAt(text: string, start: number, end: number, room: boolean): number {
    const length = end - start;
    // FNV-1a over the characters: every character counts, so names that differ in one digit
    // (two resolvers, neighbouring client IPs) get their own slots.
    let hash = 0x811c9dc5;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
    const slot = (hash ^ (hash >>> 15)) & (CACHE_SLOTS - 1);
    const cached = this.recent[slot] as number;
    if (cached >= 0) {
      const value = this.values[cached] as string;
      if (value.length === length && text.startsWith(value, start)) return cached;
    }
    const id = this.idOf(text.slice(start, end), room);
    if (id >= 0) this.recent[slot] = id;
    return id;
  }

  /** The number of `value`, or -1 when it is new and `room` is false. */
  idOf(value: string, room: boolean): number {
    const known = this.ids.get(value);
    if (known !== undefined) return known;
    if (!room) return -1;
    const copy = detachString(value);
    const id = this.values.length;
    this.values.push(copy);
    this.ids.set(copy, id);
    return id;
  }

  get size(): number {
    return this.values.length;
  }
}

export function createRecordStore(limits: RecordStoreLimits = {}) {
  const maxRecords = limits.maxRecords ?? DEFAULT_MAX_RECORDS;
  const maxDistinct = limits.maxDistinct ?? DEFAULT_MAX_DISTINCT;
  const maxKeptUnrecognised = limits.maxKeptUnrecognised ?? DEFAULT_MAX_KEPT_UNRECOGNISED;

  const blocks: Block[] = [];
  const domains = new Interner();
  const clientIps = new Interner();
  const resolvers = new Interner();
  const unrecognisedTexts: string[] = [];
  /** Exact values of the rare numbers that do not fit in 32 bits, by `index * 2 + column`. */
  const bigNumbers = new Map<number, number>();
  const counts = { allowed: 0, blocked: 0, unrecognised: 0 };
  let size = 0;
  let fullReason: StoreFullReason | null = null;
  // The date part repeats on every line; converting it once per distinct value saves a Date.UTC per line.
  let lastDate = '';
  let lastDateSeconds = 0;
  // Filled in place for every line: the parse allocates only the strings it keeps.
  const scanned = createScannedLine();

  const distinctCount = () => domains.size + clientIps.size + resolvers.size;

  /** The block that holds record number `size`, created when a new block starts. */
  function currentBlock(): Block {
    const blockIndex = size >>> BLOCK_BITS;
    let block = blocks[blockIndex];
    if (block === undefined) {
      block = newBlock();
      blocks.push(block);
    }
    return block;
  }

  function storeNumber(column: Uint32Array, offset: number, value: number, key: number) {
    if (value < NONE) column[offset] = value;
    else {
      column[offset] = NONE;
      bigNumbers.set(key, value);
    }
  }

  function addLine(line: string): AddResult {
    if (fullReason !== null) return 'full';
    if (size >= maxRecords) {
      fullReason = 'records';
      return 'full';
    }
    const ok = scanLogLine(line, scanned);
    const block = currentBlock();
    const offset = size & BLOCK_MASK;
    if (!ok) {
      block.action[offset] = ACTION_UNRECOGNISED;
      block.seconds[offset] = 0;
      if (unrecognisedTexts.length < maxKeptUnrecognised) {
        block.domain[offset] = unrecognisedTexts.length;
        unrecognisedTexts.push(detachString(line.slice(0, UNRECOGNISED_TEXT_LIMIT)));
      } else block.domain[offset] = NONE;
      counts.unrecognised++;
      size++;
      return 'unrecognised';
    }
    const room = distinctCount() + 3 <= maxDistinct;
    const text = scanned.text;
    const domainId = domains.idAt(text, scanned.domainStart, scanned.domainEnd, room);
    const ipId = clientIps.idAt(text, scanned.ipStart, scanned.ipEnd, room);
    const resolverId = resolvers.idAt(text, scanned.resolverStart, scanned.resolverEnd, room);
    if (domainId < 0 || ipId < 0 || resolverId < 0) {
      fullReason = 'distinct';
      return 'full';
    }
    const date = scanned.date;
    if (date !== lastDate) {
      lastDate = date;
      lastDateSeconds = Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10)) / 1000;
    }
    block.seconds[offset] = lastDateSeconds + scanned.hours * 3600 + scanned.minutes * 60 + scanned.seconds;
    storeNumber(block.sequence, offset, scanned.sequence, size * 2);
    storeNumber(block.clientNumber, offset, scanned.clientNumber, size * 2 + 1);
    const blocked = scanned.blocked;
    block.action[offset] = blocked ? ACTION_BLOCKED : ACTION_ALLOWED;
    if (blocked) counts.blocked++;
    else counts.allowed++;
    block.clientIp[offset] = ipId;
    block.domain[offset] = domainId;
    block.resolver[offset] = resolverId;
    size++;
    return 'stored';
  }

  function numberAt(column: Uint32Array, offset: number, key: number): number {
    const value = column[offset] ?? 0;
    return value === NONE ? (bigNumbers.get(key) ?? NONE) : value;
  }

  function record(index: number): LogRecord | null {
    if (index < 0 || index >= size) return null;
    const block = blocks[index >>> BLOCK_BITS] as Block;
    const offset = index & BLOCK_MASK;
    const action = block.action[offset];
    if (action === ACTION_UNRECOGNISED) {
      const textId = block.domain[offset] ?? NONE;
      return {
        index,
        kind: 'unrecognised',
        dateTime: '',
        sequence: 0,
        clientIp: '',
        clientNumber: 0,
        domain: '',
        resolver: '',
        text: textId === NONE ? null : (unrecognisedTexts[textId] ?? null),
      };
    }
    return {
      index,
      kind: action === ACTION_BLOCKED ? 'blocked' : 'allowed',
      dateTime: new Date((block.seconds[offset] ?? 0) * 1000).toISOString().slice(0, 19).replace('T', ' '),
      sequence: numberAt(block.sequence, offset, index * 2),
      clientIp: clientIps.values[block.clientIp[offset] ?? 0] ?? '',
      clientNumber: numberAt(block.clientNumber, offset, index * 2 + 1),
      domain: domains.values[block.domain[offset] ?? 0] ?? '',
      resolver: resolvers.values[block.resolver[offset] ?? 0] ?? '',
      text: null,
    };
  }

  /** One flag per distinct value: matching names once is far cheaper than once per line. */
  function matchTable(values: readonly string[], needle: string): Uint8Array | null {
    if (needle === '') return null;
    const table = new Uint8Array(values.length);
    for (let i = 0; i < values.length; i++) {
      if ((values[i] as string).toLowerCase().includes(needle)) table[i] = 1;
    }
    return table;
  }

  /**
   * Indices of the records from `from` on that pass `filter`, in log order. Called with the
   * previous end as `from` while a load is running, so each new batch is scanned once.
   */
  function matching(filter: RecordFilter, from = 0): Uint32Array {
    const kind = filter.kind ?? 'all';
    const wantedAction = kind === 'all' ? -1 : ACTION_OF_KIND[kind];
    const domainTable = matchTable(domains.values, (filter.domainContains ?? '').trim().toLowerCase());
    const ipTable = matchTable(clientIps.values, (filter.clientIp ?? '').trim().toLowerCase());
    // A text filter can only match parsed lines.
    const textFiltered = domainTable !== null || ipTable !== null;
    let out = new Uint32Array(Math.min(Math.max(size - from, 0), 1 << 16));
    let found = 0;
    for (let index = Math.max(from, 0); index < size; index++) {
      const block = blocks[index >>> BLOCK_BITS] as Block;
      const offset = index & BLOCK_MASK;
      const action = block.action[offset] as number;
      if (wantedAction >= 0 && action !== wantedAction) continue;
      if (textFiltered) {
        if (action === ACTION_UNRECOGNISED) continue;
        if (domainTable !== null && domainTable[block.domain[offset] as number] !== 1) continue;
        if (ipTable !== null && ipTable[block.clientIp[offset] as number] !== 1) continue;
      }
      if (found === out.length) {
        const grown = new Uint32Array(Math.min(out.length * 2, size));
        grown.set(out);
        out = grown;
      }
      out[found++] = index;
    }
    return out.subarray(0, found);
  }

  return {
    addLine,
    record,
    matching,
    get size() {
      return size;
    },
    get counts(): Readonly<typeof counts> {
      return counts;
    },
    /** Why the store stopped taking lines, or null while it takes them. */
    get fullReason(): StoreFullReason | null {
      return fullReason;
    },
  };
}

export type RecordStore = ReturnType<typeof createRecordStore>;
