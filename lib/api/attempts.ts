/**
 * What each client method attempts, in words that complete "Could not …" (api.couldNot). Shared
 * by the input checks and the calls so a refusal and a service failure read the same way. Keyed
 * by the methods of `DnsFilterApi`: a method without wording does not compile.
 */
import { t } from '@/lib/i18n';
import type { ApiMethod, DomainListKind } from './types';

/** The list's name inside a sentence ("the whitelist"). */
export const listName = (list: DomainListKind) =>
  t(list === 'whitelist' ? 'common.whitelist' : 'common.blocklist');

export const attempts = {
  listProfiles: () => t('attempts.listProfiles'),
  addProfile: (name: string) => t('attempts.addProfile', { name }),
  deleteProfile: (name: string) => t('attempts.deleteProfile', { name }),
  listCategories: (profile?: string) =>
    profile === undefined ? t('attempts.listCategories') : t('attempts.listCategoriesOf', { profile }),
  setCategoryBlocked: (category: string, blocked: boolean, profile?: string) => {
    if (profile === undefined)
      return t(blocked ? 'attempts.blockCategory' : 'attempts.allowCategory', { category });
    return t(blocked ? 'attempts.blockCategoryFor' : 'attempts.allowCategoryFor', { category, profile });
  },
  listDomains: (list: DomainListKind, profile?: string) =>
    profile === undefined
      ? t('attempts.listDomains', { list: listName(list) })
      : t('attempts.listDomainsOf', { list: listName(list), profile }),
  listDomainsByProfile: (list: DomainListKind) => t('attempts.listDomains', { list: listName(list) }),
  addDomain: (list: DomainListKind, domain: string, profile?: string) =>
    profile === undefined
      ? t('attempts.addDomain', { domain, list: listName(list) })
      : t('attempts.addDomainOf', { domain, list: listName(list), profile }),
  deleteDomain: (list: DomainListKind, domain: string, profile?: string) =>
    profile === undefined
      ? t('attempts.deleteDomain', { domain, list: listName(list) })
      : t('attempts.deleteDomainOf', { domain, list: listName(list), profile }),
  blockTld: (tld: string, profile?: string) =>
    profile === undefined ? t('attempts.blockTld', { tld }) : t('attempts.blockTldFor', { tld, profile }),
  setDefaultBlock: (enabled: boolean, profile?: string) => {
    if (profile === undefined) return t(enabled ? 'attempts.defaultBlockOn' : 'attempts.defaultBlockOff');
    return t(enabled ? 'attempts.defaultBlockOnFor' : 'attempts.defaultBlockOffFor', { profile });
  },
  listNetworks: () => t('attempts.listNetworks'),
  addNetwork: (ip: string, profile?: string) =>
    profile === undefined ? t('attempts.addNetwork', { ip }) : t('attempts.addNetworkFor', { ip, profile }),
  deleteNetwork: (ip: string, profile?: string) =>
    profile === undefined
      ? t('attempts.deleteNetwork', { ip })
      : t('attempts.deleteNetworkFor', { ip, profile }),
  listLogDays: () => t('attempts.listLogDays'),
  getStats: (date: string) => t('attempts.getStats', { date }),
  getDump: (date: string) => t('attempts.getDump', { date }),
  deleteLogDay: (date: string) => t('attempts.deleteLogDay', { date }),
} satisfies Record<ApiMethod, (...args: never[]) => string>;

/** The client's methods at run time (test fakes wrap each one). */
export const API_METHODS = Object.keys(attempts) as ApiMethod[];
