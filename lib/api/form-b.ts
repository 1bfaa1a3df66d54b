/**
 * Form B (`{baseUrl}/api/v1/`): parameter names `name`, `category`, `domain`, `ip`, `label`,
 * `date`; 21 actions. The API has no profile selection (decisions.md), so every `profile`
 * argument is ignored and lists are the whole account's. It has no TLD blocking either.
 */
import { t } from '@/lib/i18n';
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

/** The key of `listDomainsByProfile` in Form B, where lists belong to the account. */
export const ACCOUNT_SCOPE = 'account';

export function createFormBApi(transport: Transport): DnsFilterApi {
  async function succeed(
    action: string,
    params: Record<string, string | undefined>,
    attempted: string,
    opts: CallOptions | undefined,
  ): Promise<void> {
    await transport.call({ action, params, attempted, signal: opts?.signal }, successBodySchema);
  }

  async function listDomains(list: DomainListKind, opts: CallOptions | undefined): Promise<string[]> {
    const listing = await transport.call(
      { action: `${list}/list`, attempted: attempts.listDomains(list), signal: opts?.signal },
      domainListResponseSchema(list),
    );
    return allDomains(listing);
  }

  return {
    form: 'B',

    listProfiles: (opts) =>
      transport.call(
        { action: 'profiles/list', attempted: attempts.listProfiles(), signal: opts?.signal },
        profilesResponseSchema,
      ),
    addProfile: (name, opts) => succeed('profile/add', { name }, attempts.addProfile(name), opts),
    deleteProfile: (name, opts) => succeed('profile/delete', { name }, attempts.deleteProfile(name), opts),

    async listCategories(_profile, opts) {
      const reported = await transport.call(
        { action: 'categories/list', attempted: attempts.listCategories(), signal: opts?.signal },
        categoriesResponseSchema,
      );
      return mergeWithCatalogue('B', reported);
    },
    setCategoryBlocked: (category, blocked, _profile, opts) =>
      succeed(
        blocked ? 'category/block' : 'category/allow',
        { category },
        attempts.setCategoryBlocked(describeCategory('B', category).label, blocked),
        opts,
      ),

    listDomains: (list, _profile, opts) => listDomains(list, opts),
    listDomainsByProfile: async (list, opts) => ({ [ACCOUNT_SCOPE]: await listDomains(list, opts) }),
    addDomain: (list, domain, _profile, opts) =>
      succeed(`${list}/add`, { domain }, attempts.addDomain(list, domain), opts),
    deleteDomain: (list, domain, _profile, opts) =>
      succeed(`${list}/delete`, { domain }, attempts.deleteDomain(list, domain), opts),

    async blockTld(tld) {
      throw transport.error('invalid-input', attempts.blockTld(tld), t('api.noTldInFormB'), { field: 'tld' });
    },
    setDefaultBlock: (enabled, _profile, opts) =>
      succeed(
        enabled ? 'default-block/enable' : 'default-block/disable',
        {},
        attempts.setDefaultBlock(enabled),
        opts,
      ),

    listNetworks: (opts) =>
      transport.call(
        { action: 'network/list', attempted: attempts.listNetworks(), signal: opts?.signal },
        networksResponseSchema,
      ),
    addNetwork: (entry, opts) =>
      succeed('network/add', { ip: entry.ip, label: entry.label }, attempts.addNetwork(entry.ip), opts),
    deleteNetwork: (entry, opts) =>
      succeed('network/delete', { ip: entry.ip }, attempts.deleteNetwork(entry.ip), opts),

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

/** The account's entries; a per-profile answer is merged, since Form B cannot tell profiles apart. */
function allDomains(listing: DomainListing): string[] {
  if (listing.kind === 'flat') return listing.domains;
  return [...new Set(Object.values(listing.byProfile).flat())];
}
