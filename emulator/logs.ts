/**
 * The one log generator. A day's raw lines and its statistics both come from the same event
 * sequence, so `logs/getstats` always agrees with `logs/getdump`. Generation is deterministic
 * (seeded by the day) and lazy: nothing keeps a day's lines in memory.
 */
import { FORM_A_CATEGORIES, type FormACategory } from './categories.ts';

/** What the statistics object of `logs/getstats` holds (service-api.md, section 2). */
export interface DayStats {
  ips: Record<string, Record<string, number>>;
  reqtypes: Record<string, Record<string, number>>;
  action: Record<string, { Allowed: number; Blocked: number }>;
  blocks: Record<string, Record<string, number>>;
  domains: Record<string, { Allowed: Record<string, number>; Blocked: Record<string, number> }>;
}

export type RequestType = 'A' | 'AAAA' | 'HTTPS' | 'PTR';

export interface LogEvent {
  date: string;
  hour: number;
  /** `HH:MM:SS` */
  time: string;
  /** The first integer of a raw line; the spec does not name it, the emulator uses a response time. */
  responseMs: number;
  verdict: 'allowed' | 'blocked';
  clientIp: string;
  /** The integer after the client IP; the emulator uses the client's source port. */
  clientPort: number;
  /** Without trailing dot. */
  domain: string;
  resolver: string;
  requestType: RequestType;
  /** Set on every blocked event. */
  category?: FormACategory;
}

/**
 * How a day's traffic is made:
 * - `demo`: a few thousand plausible queries with a day/night rhythm;
 * - `big`: the same mix, sized so that the dump is about `targetBytes` long;
 * - `big-stats`: every hour, 5,000 distinct domains queried once each (stress for statistics views).
 */
export type DaySpec =
  | { kind: 'demo'; date: string }
  | { kind: 'big'; date: string; targetBytes: number }
  | { kind: 'big-stats'; date: string };

export const BIG_STATS_DOMAINS_PER_HOUR = 5000;

/** mulberry32: small, fast and good enough for plausible-looking traffic. */
export function createPrng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

type Weighted<T> = readonly (readonly [T, number])[];

function picker<T>(entries: Weighted<T>): (random: number) => T {
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  let cumulative = 0;
  const thresholds = entries.map(([, weight]) => {
    cumulative += weight / total;
    return cumulative;
  });
  return (random) => {
    for (let i = 0; i < entries.length; i++) if (random < thresholds[i]!) return entries[i]![0];
    return entries[entries.length - 1]![0];
  };
}

const ALLOWED_DOMAINS = picker<string>([
  ['www.google.com', 12],
  ['connectivitycheck.gstatic.com', 6],
  ['fonts.gstatic.com', 5],
  ['github.com', 4],
  ['api.github.com', 3],
  ['en.wikipedia.org', 4],
  ['upload.wikimedia.org', 2],
  ['www.bbc.co.uk', 3],
  ['news.bbc.co.uk', 2],
  ['cdn.jsdelivr.net', 3],
  ['www.youtube.com', 5],
  ['i.ytimg.com', 4],
  ['outlook.office365.com', 4],
  ['teams.microsoft.com', 3],
  ['time.apple.com', 2],
  ['gateway.icloud.com', 2],
  ['www.amazon.com', 2],
  ['m.media-amazon.com', 2],
  ['www.reddit.com', 2],
  ['slack.com', 2],
  ['zoom.us', 1],
  ['allowed-demo.example', 2],
  ['docs.example.org', 1],
  ['mail.example.org', 2],
  ['www.khanacademy.org', 1],
  ['scratch.mit.edu', 1],
  ['weather.example.com', 1],
]);

const BLOCKED: Weighted<readonly [FormACategory, string]> = [
  [['category_advertising_tracking', 'ads.example.net'], 10],
  [['category_advertising_tracking', 'doubleclick.net'], 8],
  [['category_advertising_tracking', 'pixel.adnetwork.example'], 5],
  [['category_advertising_tracking', 'metrics.tracker.example'], 4],
  [['category_advertising_tracking', 'tracker.example.net'], 3],
  [['category_malicious_blacklisted', 'blocked-demo.example'], 3],
  [['category_malicious_blacklisted', 'phish-login.example'], 1],
  [['category_malicious_blacklisted', 'malware-cdn.example.net'], 1],
  [['category_adult', 'adult-content.example'], 1],
  [['category_gambling', 'casino-demo.example'], 1],
  [['category_social_network', 'www.tiktok.com'], 2],
  [['category_social_network', 'www.facebook.com'], 2],
  [['category_gaming', 'roblox.com'], 2],
  [['category_torrents', 'tracker.torrent-demo.example'], 1],
  [['category_proxy_vpn', 'free-vpn.example'], 1],
  [['category_dating', 'dating-demo.example'], 1],
];
const BLOCKED_DOMAINS = picker(BLOCKED);

const CLIENTS = picker<string>([
  ['192.168.1.20', 8],
  ['192.168.1.21', 5],
  ['192.168.1.35', 4],
  ['192.168.1.50', 3],
  ['192.168.1.101', 2],
  ['10.0.0.12', 2],
  ['10.0.0.40', 1],
]);
const CLIENT_LIST = ['192.168.1.20', '192.168.1.21', '192.168.1.35', '192.168.1.50', '10.0.0.12'];

const REQUEST_TYPES = picker<RequestType>([
  ['A', 55],
  ['AAAA', 25],
  ['HTTPS', 15],
  ['PTR', 5],
]);

const RESOLVERS = ['185.228.168.168', '185.228.169.168'] as const;
const BIG_STATS_TYPES = ['A', 'AAAA', 'HTTPS'] as const;

/** Share of each hour in a day's traffic: quiet nights, busy working hours and evenings. */
const HOURLY_WEIGHT = [
  0.3, 0.2, 0.15, 0.1, 0.1, 0.15, 0.4, 0.8, 1.2, 1.4, 1.5, 1.4, 1.3, 1.4, 1.5, 1.4, 1.3, 1.3, 1.5, 1.7, 1.8,
  1.6, 1.1, 0.6,
];
const DEMO_QUERIES_PER_DAY = 2400;
const BLOCKED_SHARE = 0.14;
/** Mean length of a demo raw line including its line break, measured on the generator. */
export const MEAN_LINE_BYTES = 104;

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);

export function hourKey(date: string, hour: number): string {
  return `${date} ${pad2(hour)}:00`;
}

function reversePointer(ip: string): string {
  return `${ip.split('.').reverse().join('.')}.in-addr.arpa`;
}

function queriesPerHour(spec: DaySpec, hour: number, random: () => number): number {
  switch (spec.kind) {
    case 'demo': {
      const share = HOURLY_WEIGHT[hour]! / HOURLY_WEIGHT.reduce((a, b) => a + b, 0);
      return Math.max(1, Math.round(DEMO_QUERIES_PER_DAY * share * (0.8 + 0.4 * random())));
    }
    case 'big':
      return Math.max(1, Math.ceil(spec.targetBytes / MEAN_LINE_BYTES / 24));
    case 'big-stats':
      return BIG_STATS_DOMAINS_PER_HOUR;
  }
}

/** All events of a day, in time order. */
export function* generateDay(spec: DaySpec): Generator<LogEvent> {
  const random = createPrng(hashString(`${spec.kind}|${spec.date}`));
  for (let hour = 0; hour < 24; hour++) {
    const count = queriesPerHour(spec, hour, random);
    for (let i = 0; i < count; i++) {
      // Spread the hour's queries evenly with jitter; this stays in time order without sorting.
      const second = Math.floor(((i + random()) * 3600) / count);
      const time = `${pad2(hour)}:${pad2(Math.floor(second / 60))}:${pad2(second % 60)}`;
      const responseMs = 1 + Math.floor(random() * random() * 400);
      const clientPort = 1024 + Math.floor(random() * 64511);
      const resolver = RESOLVERS[random() < 0.5 ? 0 : 1];
      const event: LogEvent = {
        date: spec.date,
        hour,
        time,
        responseMs,
        verdict: 'allowed',
        clientIp: '',
        clientPort,
        domain: '',
        resolver,
        requestType: 'A',
        category: undefined,
      };
      if (spec.kind === 'big-stats') {
        event.clientIp = CLIENT_LIST[i % CLIENT_LIST.length]!;
        event.domain = `host${i}.site${i % 997}.bench.example`;
        event.requestType = BIG_STATS_TYPES[i % BIG_STATS_TYPES.length]!;
        if (i % 8 === 0) {
          event.verdict = 'blocked';
          event.category = FORM_A_CATEGORIES[(i / 8) % FORM_A_CATEGORIES.length];
        }
      } else {
        event.clientIp = CLIENTS(random());
        event.requestType = REQUEST_TYPES(random());
        if (event.requestType === 'PTR') {
          event.domain = reversePointer(event.clientIp);
        } else if (random() < BLOCKED_SHARE) {
          const [category, domain] = BLOCKED_DOMAINS(random());
          event.verdict = 'blocked';
          event.category = category;
          event.domain = domain;
        } else {
          event.domain = ALLOWED_DOMAINS(random());
        }
      }
      yield event;
    }
  }
}

/** One raw line in the format of service-api.md, section 2 (without line break). */
export function formatLine(e: LogEvent): string {
  return `${e.date} ${e.time} ${e.responseMs} pass-through: ${e.verdict}: ${e.clientIp}: ${e.clientPort}: ${e.domain}. (${e.resolver})`;
}

export function emptyStats(): DayStats {
  return { ips: {}, reqtypes: {}, action: {}, blocks: {}, domains: {} };
}

function increment(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

export function accumulate(stats: DayStats, e: LogEvent): void {
  const key = hourKey(e.date, e.hour);
  let action = stats.action[key];
  if (!action) {
    action = { Allowed: 0, Blocked: 0 };
    stats.action[key] = action;
    stats.ips[key] = {};
    stats.reqtypes[key] = {};
    stats.blocks[key] = {};
    stats.domains[key] = { Allowed: {}, Blocked: {} };
  }
  const blocked = e.verdict === 'blocked';
  if (blocked) action.Blocked++;
  else action.Allowed++;
  increment(stats.ips[key]!, e.clientIp);
  increment(stats.reqtypes[key]!, e.requestType);
  if (blocked && e.category) increment(stats.blocks[key]!, e.category);
  const domains = stats.domains[key]!;
  increment(blocked ? domains.Blocked : domains.Allowed, `${e.domain}.`);
}

/**
 * Statistics by one pass over the generator. It yields to the event loop now and then so that a
 * big day does not stall the server while it is being counted.
 */
export async function computeStats(spec: DaySpec): Promise<DayStats> {
  const stats = emptyStats();
  let sinceYield = 0;
  for (const event of generateDay(spec)) {
    accumulate(stats, event);
    if (++sinceYield === 20_000) {
      sinceYield = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return stats;
}

/** The day's dump as text chunks of about `chunkBytes`, generated only as they are pulled. */
export function* dumpChunks(spec: DaySpec, chunkBytes = 64 * 1024): Generator<string> {
  let chunk = '';
  for (const event of generateDay(spec)) {
    chunk += `${formatLine(event)}\n`;
    if (chunk.length >= chunkBytes) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk.length > 0) yield chunk;
}
