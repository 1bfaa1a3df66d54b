/**
 * The form-neutral interface the UI and the worker use: the one list of the client's methods.
 * The adapter (adapter.ts) implements it for both forms; callers never see `domain_name` or
 * `category_name`. Adding a method here asks for its wording (attempts.ts), its call
 * (adapter.ts) and its behaviour in the test fake, and nothing else.
 *
 * Every method rejects only with `ApiError` (lib/api/errors.ts).
 * `profile` arguments are ignored in a form without profile selection (Form B: the whole
 * account, see docs/service-api.md).
 */
import type { ApiForm } from './forms';

export type { ApiForm } from './forms';

export type DomainListKind = 'whitelist' | 'blocklist';

export interface CategoryState {
  /** Identifier of the form (`category_adult` in Form A, `adult` in Form B); unknown ids are kept. */
  id: string;
  blocked: boolean;
}

export interface NetworkEntry {
  ip: string;
  /** Form A's network/list gives no labels. */
  label?: string;
  /** Form A: the profile whose list held it; Form B: the `profile` field, when given. */
  profile?: string;
}

/** `logs/getstats`: each key maps an hour key `yyyy-mm-dd HH:MM` to counts. */
export interface DayStats {
  ips: Record<string, Record<string, number>>;
  reqtypes: Record<string, Record<string, number>>;
  action: Record<string, { Allowed?: number; Blocked?: number }>;
  blocks: Record<string, Record<string, number>>;
  domains: Record<string, { Allowed?: Record<string, number>; Blocked?: Record<string, number> }>;
}

export interface DumpChunk {
  /** Complete lines (without the line break) received since the previous chunk. */
  lines: string[];
  /** Bytes of body received so far, for progress. */
  bytesReceived: number;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface DnsFilterApi {
  readonly form: ApiForm;

  listProfiles(opts?: CallOptions): Promise<string[]>;
  addProfile(name: string, opts?: CallOptions): Promise<void>;
  deleteProfile(name: string, opts?: CallOptions): Promise<void>;

  /** Every category of the form with its state (Form A's list names only blocked ones). */
  listCategories(profile?: string, opts?: CallOptions): Promise<CategoryState[]>;
  setCategoryBlocked(category: string, blocked: boolean, profile?: string, opts?: CallOptions): Promise<void>;

  /** Form A: the given profile's entries (`default` when omitted); Form B: the account's. */
  listDomains(list: DomainListKind, profile?: string, opts?: CallOptions): Promise<string[]>;
  /** Form A: every profile's entries in one call (`whitelist/list` without profile); Form B: `{ account: domains }`. */
  listDomainsByProfile(list: DomainListKind, opts?: CallOptions): Promise<Record<string, string[]>>;
  addDomain(list: DomainListKind, domain: string, profile?: string, opts?: CallOptions): Promise<void>;
  deleteDomain(list: DomainListKind, domain: string, profile?: string, opts?: CallOptions): Promise<void>;

  blockTld(tld: string, profile?: string, opts?: CallOptions): Promise<void>;
  setDefaultBlock(enabled: boolean, profile?: string, opts?: CallOptions): Promise<void>;

  /** Form A: one profile's networks when `profile` is given (`profile_name`), else all; Form B: the account's. */
  listNetworks(opts?: CallOptions & { profile?: string }): Promise<NetworkEntry[]>;
  addNetwork(entry: { ip: string; label?: string; profile?: string }, opts?: CallOptions): Promise<void>;
  deleteNetwork(entry: { ip: string; profile?: string }, opts?: CallOptions): Promise<void>;

  /** Newest first. */
  listLogDays(opts?: CallOptions): Promise<string[]>;
  getStats(date: string, opts?: CallOptions): Promise<DayStats>;
  /** Streams the raw log; never buffers the whole body. A JSON failure body rejects with ApiError. */
  getDump(date: string, opts?: CallOptions): Promise<AsyncIterable<DumpChunk>>;
  deleteLogDay(date: string, opts?: CallOptions): Promise<void>;
}

/** The name of one client method (`'addDomain'` …). */
export type ApiMethod = Exclude<keyof DnsFilterApi, 'form'>;

export interface ApiClientConfig {
  /** Origin of the service, e.g. `https://my.cleanbrowsing.org` (https, or http on loopback only). */
  baseUrl: string;
  form: ApiForm;
  key: string;
  fetch?: typeof fetch;
  /** Per call; default 15 s. For getDump it bounds the wait for the response headers and each chunk. */
  timeoutMs?: number;
  /** Largest JSON answer accepted (default 10 MB, see transport.ts); the raw log is streamed, not capped. */
  maxJsonBytes?: number;
}
