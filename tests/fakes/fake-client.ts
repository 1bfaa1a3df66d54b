/**
 * The one in-memory `DnsFilterApi` for tests: the options page, the worker and the popup take the
 * client as a dependency, so no module is mocked. It behaves like the service as the form
 * describes it (lib/api/forms.ts): profiles only where the form selects them, network labels
 * listed only where the form lists them; deleting something absent is refused ("not found"),
 * adding something present succeeds.
 *
 * Every method is wrapped the same way (the method list is `API_METHODS`), which records it
 * twice: `calls` as the service sees it (`whitelist/add example.com default`), `invocations`
 * with the arguments. Scripting: `failNext` (fails before the call takes effect), `failWith`
 * (every call fails until cleared), `loseAnswerNext` (applied, but the answer never arrives),
 * `hold` (calls wait until released, to see progress on screen).
 */
import { API_METHODS } from '@/lib/api/attempts';
import { mergeWithCatalogue } from '@/lib/api/categories';
import { ApiError } from '@/lib/api/errors';
import { type ApiForm, capabilitiesOf, scopeOf } from '@/lib/api/forms';
import type { ApiMethod, DayStats, DnsFilterApi, DomainListKind, NetworkEntry } from '@/lib/api/types';

export interface FakeState {
  profiles: string[];
  /** scope (profile, or `account` in Form B) -> blocked category ids */
  blocked: Record<string, Set<string>>;
  lists: Record<DomainListKind, Record<string, Set<string>>>;
  tlds: Record<string, Set<string>>;
  defaultBlock: Record<string, boolean>;
  /** `profile` only where the form selects profiles. */
  networks: NetworkEntry[];
  /** host -> blocked count, answered by `getStats` for any day */
  blockedToday: Record<string, number>;
}

export interface FakeClient extends DnsFilterApi {
  state: FakeState;
  /** Each call as the service sees it: action, then its inputs and scope. */
  calls: string[];
  invocations: { method: ApiMethod; args: unknown[] }[];
  failNext(method: ApiMethod, error: ApiError, times?: number): void;
  /** Every call fails with `error` until `failWith(null)`. */
  failWith(error: ApiError | null): void;
  loseAnswerNext(method: ApiMethod): void;
  /** Calls of `method` wait until the returned function is called. */
  hold(method: ApiMethod): () => void;
}

export const refused = (reason: string) => new ApiError('service', `Could not do it: ${reason}`, { reason });
export const offline = () => new ApiError('network', 'Could not do it: the service could not be reached.');
export const timedOut = () => new ApiError('timeout', 'Could not do it: no answer within 15 s.');

/** What one method does: the action as the service sees it, and its effect and answer. */
interface Answer<T> {
  action: string;
  run: () => T;
}
type Behaviours = {
  [M in ApiMethod]: (...args: Parameters<DnsFilterApi[M]>) => Answer<Awaited<ReturnType<DnsFilterApi[M]>>>;
};

const answer = <T>(action: string, run: () => T): Answer<T> => ({ action, run });

export function createFakeClient(form: ApiForm = 'A', seed: Partial<FakeState> = {}): FakeClient {
  const state: FakeState = {
    profiles: ['default'],
    blocked: {},
    lists: { whitelist: {}, blocklist: {} },
    tlds: {},
    defaultBlock: {},
    networks: [],
    blockedToday: {},
    ...seed,
  };
  const { profileSelection, networkLabels } = capabilitiesOf(form);
  const scope = (profile: string | undefined) => scopeOf(form, profile);
  const setOf = <T>(record: Record<string, Set<T>>, key: string) => {
    record[key] ??= new Set<T>();
    return record[key];
  };
  const networkProfile = (profile: string | undefined) => (profileSelection ? scope(profile) : undefined);
  const sameNetwork = (entry: NetworkEntry, ip: string, profile: string | undefined) =>
    entry.ip === ip && (!profileSelection || entry.profile === networkProfile(profile));

  const behaviours: Behaviours = {
    listProfiles: () => answer('profiles/list', () => [...state.profiles]),
    addProfile: (name) =>
      answer(`profile/add ${name}`, () => {
        state.profiles.push(name);
      }),
    deleteProfile: (name) =>
      answer(`profile/delete ${name}`, () => {
        state.profiles = state.profiles.filter((profile) => profile !== name);
      }),
    listCategories: (profile) =>
      answer(`categories/list ${scope(profile)}`, () =>
        mergeWithCatalogue(
          form,
          [...setOf(state.blocked, scope(profile))].map((id) => ({ id, blocked: true })),
        ),
      ),
    setCategoryBlocked: (category, blocked, profile) =>
      answer(`category/${blocked ? 'block' : 'allow'} ${category} ${scope(profile)}`, () => {
        const set = setOf(state.blocked, scope(profile));
        if (blocked) set.add(category);
        else set.delete(category);
      }),
    listDomains: (list, profile) =>
      answer(`${list}/list ${scope(profile)}`, () => [...setOf(state.lists[list], scope(profile))]),
    listDomainsByProfile: (list) =>
      answer(`${list}/list`, () =>
        Object.fromEntries(Object.entries(state.lists[list]).map(([key, set]) => [key, [...set]])),
      ),
    addDomain: (list, domain, profile) =>
      answer(`${list}/add ${domain} ${scope(profile)}`, () => {
        setOf(state.lists[list], scope(profile)).add(domain);
      }),
    deleteDomain: (list, domain, profile) =>
      answer(`${list}/delete ${domain} ${scope(profile)}`, () => {
        if (!setOf(state.lists[list], scope(profile)).delete(domain)) throw refused('Domain not found');
      }),
    blockTld: (tld, profile) =>
      answer(`tld_blocklist/add ${tld} ${scope(profile)}`, () => {
        setOf(state.tlds, scope(profile)).add(tld);
      }),
    setDefaultBlock: (enabled, profile) =>
      answer(`default-block/${enabled ? 'enable' : 'disable'} ${scope(profile)}`, () => {
        state.defaultBlock[scope(profile)] = enabled;
      }),
    listNetworks: () =>
      answer('network/list', () =>
        state.networks.map(({ label, ...entry }) => (networkLabels && label ? { ...entry, label } : entry)),
      ),
    addNetwork: (entry) =>
      answer(`network/add ${entry.ip} ${scope(entry.profile)}`, () => {
        const profile = networkProfile(entry.profile);
        if (!state.networks.some((known) => sameNetwork(known, entry.ip, entry.profile))) {
          state.networks.push({
            ip: entry.ip,
            ...(profile ? { profile } : {}),
            ...(entry.label ? { label: entry.label } : {}),
          });
        }
      }),
    deleteNetwork: (entry) =>
      answer(`network/delete ${entry.ip} ${scope(entry.profile)}`, () => {
        const index = state.networks.findIndex((known) => sameNetwork(known, entry.ip, entry.profile));
        if (index === -1) throw refused('Network not found');
        state.networks.splice(index, 1);
      }),
    listLogDays: () => answer('logs/list', () => []),
    getStats: (date) =>
      answer(`logs/getstats ${date}`, (): DayStats => {
        const blocked = Object.fromEntries(
          Object.entries(state.blockedToday).map(([host, count]) => [`${host}.`, count]),
        );
        return {
          ips: {},
          reqtypes: {},
          action: {},
          blocks: {},
          domains: { [`${date} 09:00`]: { Allowed: {}, Blocked: blocked } },
        };
      }),
    getDump: (date) =>
      answer(`logs/getdump ${date}`, () => ({
        async *[Symbol.asyncIterator]() {},
      })),
    deleteLogDay: (date) => answer(`logs/delete ${date}`, () => undefined),
  };

  const calls: string[] = [];
  const invocations: FakeClient['invocations'] = [];
  const failures = new Map<ApiMethod, ApiError[]>();
  const lostAnswers = new Set<ApiMethod>();
  const holds = new Map<ApiMethod, Promise<void>>();
  let failEveryCall: ApiError | null = null;

  async function call(method: ApiMethod, args: unknown[]): Promise<unknown> {
    const { action, run } = (behaviours[method] as (...args: unknown[]) => Answer<unknown>)(...args);
    calls.push(action);
    invocations.push({ method, args });
    const signal = args.find(
      (arg): arg is { signal: AbortSignal } => typeof arg === 'object' && arg !== null && 'signal' in arg,
    )?.signal;
    await holds.get(method);
    if (signal?.aborted) throw new ApiError('aborted', 'Cancelled.');
    if (failEveryCall) throw failEveryCall;
    const failure = failures.get(method)?.shift();
    if (failure) throw failure;
    const result = run();
    if (lostAnswers.delete(method)) throw timedOut();
    return result;
  }

  const methods = Object.fromEntries(
    API_METHODS.map((method) => [method, (...args: unknown[]) => call(method, args)]),
  ) as Omit<DnsFilterApi, 'form'>;

  return {
    form,
    ...methods,
    state,
    calls,
    invocations,
    failNext(method, error, times = 1) {
      failures.set(method, [...(failures.get(method) ?? []), ...Array<ApiError>(times).fill(error)]);
    },
    failWith(error) {
      failEveryCall = error;
    },
    loseAnswerNext(method) {
      lostAnswers.add(method);
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
  };
}
