/**
 * Form A (`{baseUrl}/api`): parameter names `profile_name`, `category_name`, `domain_name`,
 * `ip_address`, `tld`, `label`, `date`; 22 actions. Inputs arrive already validated (client.ts).
 */
import { attempts } from './attempts';
import { describeCategory, mergeWithCatalogue } from './categories';
import {
  categoriesResponseSchema,
  type DomainListing,
  domainListResponseSchema,
  logDaysResponseSchema,
  networksResponseSchema,
  profilesResponseSchema,
  statsResponseSchema,
  successBodySchema,
} from './schemas';
import type { Transport } from './transport';
import type { CallOptions, DnsFilterApi, DomainListKind } from './types';

/** The profile whose entries `listDomains` shows when none is given. */
export const DEFAULT_PROFILE = 'default';

export function createFormAApi(transport: Transport): DnsFilterApi {
  async function succeed(
    action: string,
    params: Record<string, string | undefined>,
    attempted: string,
    opts: CallOptions | undefined,
  ): Promise<void> {
    await transport.call({ action, params, attempted, signal: opts?.signal }, successBodySchema);
  }

  function listing(list: DomainListKind, profile: string | undefined, opts: CallOptions | undefined) {
    return transport.call(
      {
        action: `${list}/list`,
        params: { profile_name: profile },
        attempted: attempts.listDomains(list, profile),
        signal: opts?.signal,
      },
      domainListResponseSchema(list),
    );
  }

  return {
    form: 'A',

    listProfiles: (opts) =>
      transport.call(
        { action: 'profiles/list', attempted: attempts.listProfiles(), signal: opts?.signal },
        profilesResponseSchema,
      ),
    addProfile: (name, opts) =>
      succeed('profile/add', { profile_name: name }, attempts.addProfile(name), opts),
    deleteProfile: (name, opts) =>
      succeed('profile/delete', { profile_name: name }, attempts.deleteProfile(name), opts),

    async listCategories(profile, opts) {
      const reported = await transport.call(
        {
          action: 'categories/list',
          params: { profile_name: profile },
          attempted: attempts.listCategories(profile),
          signal: opts?.signal,
        },
        categoriesResponseSchema,
      );
      return mergeWithCatalogue('A', reported);
    },
    setCategoryBlocked: (category, blocked, profile, opts) =>
      succeed(
        blocked ? 'category/block' : 'category/allow',
        { category_name: category, profile_name: profile },
        attempts.setCategoryBlocked(describeCategory('A', category).label, blocked, profile),
        opts,
      ),

    async listDomains(list, profile, opts) {
      // Without profile_name the service answers for every profile; the interface promises `default`.
      const chosen = profile ?? DEFAULT_PROFILE;
      return domainsOf(await listing(list, chosen, opts), chosen);
    },
    async listDomainsByProfile(list, opts) {
      const result = await listing(list, undefined, opts);
      // A flat list for "all profiles" can only be the default profile's.
      return result.kind === 'by-profile' ? result.byProfile : { [DEFAULT_PROFILE]: result.domains };
    },
    addDomain: (list, domain, profile, opts) =>
      succeed(
        `${list}/add`,
        { domain_name: domain, profile_name: profile },
        attempts.addDomain(list, domain, profile),
        opts,
      ),
    deleteDomain: (list, domain, profile, opts) =>
      succeed(
        `${list}/delete`,
        { domain_name: domain, profile_name: profile },
        attempts.deleteDomain(list, domain, profile),
        opts,
      ),

    blockTld: (tld, profile, opts) =>
      succeed('tld_blocklist/add', { tld, profile_name: profile }, attempts.blockTld(tld, profile), opts),
    setDefaultBlock: (enabled, profile, opts) =>
      // profile_name is required by these two actions.
      succeed(
        enabled ? 'default-block/enable' : 'default-block/disable',
        { profile_name: profile ?? DEFAULT_PROFILE },
        attempts.setDefaultBlock(enabled, profile),
        opts,
      ),

    listNetworks: (opts) =>
      transport.call(
        {
          action: 'network/list',
          ...(opts?.profile === undefined ? {} : { params: { profile_name: opts.profile } }),
          attempted: attempts.listNetworks(),
          signal: opts?.signal,
        },
        networksResponseSchema,
      ),
    addNetwork: (entry, opts) =>
      succeed(
        'network/add',
        { ip_address: entry.ip, profile_name: entry.profile, label: entry.label },
        attempts.addNetwork(entry.ip, entry.profile),
        opts,
      ),
    deleteNetwork: (entry, opts) =>
      succeed(
        'network/delete',
        { ip_address: entry.ip, profile_name: entry.profile },
        attempts.deleteNetwork(entry.ip, entry.profile),
        opts,
      ),

    listLogDays: (opts) =>
      transport.call(
        { action: 'logs/list', attempted: attempts.listLogDays(), signal: opts?.signal },
        logDaysResponseSchema,
      ),
    getStats: (date, opts) =>
      transport.call(
        {
          action: 'logs/getstats',
          params: { date },
          attempted: attempts.getStats(date),
          signal: opts?.signal,
        },
        statsResponseSchema,
      ),
    getDump: (date, opts) =>
      transport.stream({
        action: 'logs/getdump',
        params: { date },
        attempted: attempts.getDump(date),
        signal: opts?.signal,
      }),
    deleteLogDay: (date, opts) => succeed('logs/delete', { date }, attempts.deleteLogDay(date), opts),
  };
}

/** The entries of one profile; a profile the service does not mention has none. */
export function domainsOf(listing: DomainListing, profile: string): string[] {
  if (listing.kind === 'flat') return listing.domains;
  return Object.hasOwn(listing.byProfile, profile) ? (listing.byProfile[profile] ?? []) : [];
}
