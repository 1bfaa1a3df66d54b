/**
 * An in-memory service for the worker's tests. Like the real one, deleting something that is
 * not there is refused ("not found"), and `add` of something present succeeds. A scripted
 * failure can happen before the call takes effect (`failNext`) or after it (`loseAnswerNext`:
 * applied by the service, but the answer never arrives).
 */
import type { CurrentAccount } from '@/lib/account/current';
import { type AccountIdentity, identityOf } from '@/lib/account/identity';
import { ApiError } from '@/lib/api/errors';
import type { ApiForm, DnsFilterApi, DomainListKind } from '@/lib/api/types';

type Method = 'listProfiles' | 'listDomains' | 'addDomain' | 'deleteDomain' | 'addNetwork' | 'deleteNetwork';

export interface FakeService extends DnsFilterApi {
  lists: Record<DomainListKind, Map<string, Set<string>>>;
  networks: { ip: string; profile: string; label?: string }[];
  profiles: string[];
  calls: string[];
  failNext(method: Method, error: ApiError, times?: number): void;
  loseAnswerNext(method: Method): void;
}

export const refused = (reason: string) => new ApiError('service', `Could not do it: ${reason}`, { reason });
export const offline = () => new ApiError('network', 'Could not do it: the service could not be reached.');
export const timedOut = () => new ApiError('timeout', 'Could not do it: no answer within 15 s.');

export function createFakeService(form: ApiForm = 'A'): FakeService {
  const lists: FakeService['lists'] = { whitelist: new Map(), blocklist: new Map() };
  const networks: FakeService['networks'] = [];
  const calls: string[] = [];
  const failures = new Map<Method, ApiError[]>();
  const lostAnswers = new Set<Method>();
  const scope = (profile?: string) => (form === 'B' ? 'account' : (profile ?? 'default'));
  const setOf = (list: DomainListKind, profile?: string) => {
    const key = scope(profile);
    if (!lists[list].has(key)) lists[list].set(key, new Set());
    return lists[list].get(key)!;
  };

  async function call<T>(method: Method, description: string, body: () => T): Promise<T> {
    calls.push(description);
    const failure = failures.get(method)?.shift();
    if (failure) throw failure;
    const result = body();
    if (lostAnswers.delete(method)) throw timedOut();
    return result;
  }
  const unused = () => Promise.reject(new Error('not used by the worker'));

  const service: FakeService = {
    form,
    lists,
    networks,
    profiles: ['default'],
    calls,
    failNext(method, error, times = 1) {
      failures.set(method, [...(failures.get(method) ?? []), ...Array<ApiError>(times).fill(error)]);
    },
    loseAnswerNext(method) {
      lostAnswers.add(method);
    },
    listProfiles: () => call('listProfiles', 'profiles/list', () => [...service.profiles]),
    listDomains: (list, profile) =>
      call('listDomains', `${list}/list ${scope(profile)}`, () => [...setOf(list, profile)]),
    addDomain: (list, domain, profile) =>
      call('addDomain', `${list}/add ${domain} ${scope(profile)}`, () => {
        setOf(list, profile).add(domain);
      }),
    deleteDomain: (list, domain, profile) =>
      call('deleteDomain', `${list}/delete ${domain} ${scope(profile)}`, () => {
        if (!setOf(list, profile).delete(domain)) throw refused('Domain not found');
      }),
    addNetwork: (entry) =>
      call('addNetwork', `network/add ${entry.ip} ${scope(entry.profile)}`, () => {
        const profile = scope(entry.profile);
        if (!networks.some((n) => n.ip === entry.ip && n.profile === profile)) {
          networks.push({ ip: entry.ip, profile, ...(entry.label ? { label: entry.label } : {}) });
        }
      }),
    deleteNetwork: (entry) =>
      call('deleteNetwork', `network/delete ${entry.ip} ${scope(entry.profile)}`, () => {
        const index = networks.findIndex(
          (n) => n.ip === entry.ip && (form === 'B' || n.profile === scope(entry.profile)),
        );
        if (index === -1) throw refused('Network not found');
        networks.splice(index, 1);
      }),
    addProfile: unused,
    deleteProfile: unused,
    listCategories: unused,
    setCategoryBlocked: unused,
    listDomainsByProfile: unused,
    blockTld: unused,
    setDefaultBlock: unused,
    listNetworks: unused,
    listLogDays: unused,
    getStats: unused,
    getDump: unused,
    deleteLogDay: unused,
  };
  return service;
}

/** An account for the tests: a fixed identity (lib/account/identity.ts) and its client. */
export function testAccount(
  form: ApiForm = 'A',
  keyFingerprint = '0123456789abcdef',
  origin = 'https://my.cleanbrowsing.org',
): AccountIdentity {
  return identityOf({ origin, form, keyFingerprint });
}

/** `getAccount` for worker deps: the account `identity` (by default the service's form's) with `service` as its client. */
export function accountOf(
  service: DnsFilterApi | null,
  identity: AccountIdentity = testAccount(service?.form ?? 'A'),
): () => Promise<CurrentAccount> {
  return async () => ({ identity, client: service });
}
