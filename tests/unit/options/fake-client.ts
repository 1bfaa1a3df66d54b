/**
 * An in-memory DnsFilterApi for component tests: the components take the client as a dependency,
 * so no module is mocked. `failNext` makes the next call of a method fail with the given error;
 * `hold` keeps calls of a method waiting until released, to see progress on screen.
 */
import { mergeWithCatalogue } from '@/lib/api/categories';
import { ApiError } from '@/lib/api/errors';
import type { ApiForm, DnsFilterApi, DomainListKind, NetworkEntry } from '@/lib/api/types';

type Method = keyof Omit<DnsFilterApi, 'form'>;

export interface FakeState {
  profiles: string[];
  blocked: Record<string, Set<string>>;
  lists: Record<DomainListKind, Record<string, Set<string>>>;
  tlds: Record<string, Set<string>>;
  defaultBlock: Record<string, boolean>;
  networks: NetworkEntry[];
}

export interface FakeClient extends DnsFilterApi {
  state: FakeState;
  calls: { method: Method; args: unknown[] }[];
  failNext(method: Method, error: ApiError, times?: number): void;
  /** Calls of `method` wait until the returned function is called. */
  hold(method: Method): () => void;
}

export function createFakeClient(form: ApiForm, seed: Partial<FakeState> = {}): FakeClient {
  const state: FakeState = {
    profiles: ['default'],
    blocked: {},
    lists: { whitelist: {}, blocklist: {} },
    tlds: {},
    defaultBlock: {},
    networks: [],
    ...seed,
  };
  const calls: FakeClient['calls'] = [];
  const failures = new Map<Method, ApiError[]>();
  const holds = new Map<Method, Promise<void>>();
  const scope = (profile: string | undefined) => (form === 'B' ? 'account' : (profile ?? 'default'));
  const setOf = <T>(record: Record<string, Set<T>>, key: string) => {
    record[key] ??= new Set<T>();
    return record[key];
  };

  async function call<T>(method: Method, args: unknown[], body: () => T): Promise<T> {
    calls.push({ method, args });
    const signal = args.find(
      (arg): arg is { signal: AbortSignal } => typeof arg === 'object' && arg !== null && 'signal' in arg,
    )?.signal;
    await holds.get(method);
    if (signal?.aborted) throw new ApiError('aborted', 'Cancelled.');
    const failure = failures.get(method)?.shift();
    if (failure) throw failure;
    return body();
  }

  return {
    form,
    state,
    calls,
    failNext(method, error, times = 1) {
      failures.set(method, [...(failures.get(method) ?? []), ...Array(times).fill(error)]);
    },
    hold(method) {
      let release = () => {};
      holds.set(
        method,
        new Promise<void>((resolve) => {
          release = () => {
            holds.delete(method);
            resolve();
          };
        }),
      );
      return release;
    },
    listProfiles: (...args) => call('listProfiles', args, () => [...state.profiles]),
    addProfile: (name, ...rest) =>
      call('addProfile', [name, ...rest], () => {
        state.profiles.push(name);
      }),
    deleteProfile: (name, ...rest) =>
      call('deleteProfile', [name, ...rest], () => {
        state.profiles = state.profiles.filter((profile) => profile !== name);
      }),
    listCategories: (profile, ...rest) =>
      call('listCategories', [profile, ...rest], () =>
        mergeWithCatalogue(
          form,
          [...setOf(state.blocked, scope(profile))].map((id) => ({ id, blocked: true })),
        ),
      ),
    setCategoryBlocked: (category, blocked, profile, ...rest) =>
      call('setCategoryBlocked', [category, blocked, profile, ...rest], () => {
        const set = setOf(state.blocked, scope(profile));
        if (blocked) set.add(category);
        else set.delete(category);
      }),
    listDomains: (list, profile, ...rest) =>
      call('listDomains', [list, profile, ...rest], () => [...setOf(state.lists[list], scope(profile))]),
    listDomainsByProfile: (list, ...rest) =>
      call('listDomainsByProfile', [list, ...rest], () =>
        Object.fromEntries(Object.entries(state.lists[list]).map(([key, set]) => [key, [...set]])),
      ),
    addDomain: (list, domain, profile, ...rest) =>
      call('addDomain', [list, domain, profile, ...rest], () => {
        setOf(state.lists[list], scope(profile)).add(domain);
      }),
    deleteDomain: (list, domain, profile, ...rest) =>
      call('deleteDomain', [list, domain, profile, ...rest], () => {
        setOf(state.lists[list], scope(profile)).delete(domain);
      }),
    blockTld: (tld, profile, ...rest) =>
      call('blockTld', [tld, profile, ...rest], () => {
        setOf(state.tlds, scope(profile)).add(tld);
      }),
    setDefaultBlock: (enabled, profile, ...rest) =>
      call('setDefaultBlock', [enabled, profile, ...rest], () => {
        state.defaultBlock[scope(profile)] = enabled;
      }),
    listNetworks: (...args) =>
      call('listNetworks', args, () => state.networks.map((entry) => ({ ...entry }))),
    addNetwork: (entry, ...rest) =>
      call('addNetwork', [entry, ...rest], () => {
        const profile = form === 'A' ? (entry.profile ?? 'default') : undefined;
        if (!state.networks.some((n) => n.ip === entry.ip && n.profile === profile)) {
          state.networks.push({
            ip: entry.ip,
            ...(form === 'B' && entry.label ? { label: entry.label } : {}),
            ...(profile ? { profile } : {}),
          });
        }
      }),
    deleteNetwork: (entry, ...rest) =>
      call('deleteNetwork', [entry, ...rest], () => {
        state.networks = state.networks.filter(
          (n) => !(n.ip === entry.ip && (form === 'B' || n.profile === (entry.profile ?? 'default'))),
        );
      }),
    listLogDays: (...args) => call('listLogDays', args, () => []),
    getStats: (date, ...rest) =>
      call('getStats', [date, ...rest], () => ({
        ips: {},
        reqtypes: {},
        action: {},
        blocks: {},
        domains: {},
      })),
    getDump: (date, ...rest) =>
      call('getDump', [date, ...rest], () => ({
        async *[Symbol.asyncIterator]() {},
      })),
    deleteLogDay: (date, ...rest) => call('deleteLogDay', [date, ...rest], () => undefined),
  };
}
