/**
 * What each method attempts, in words that complete "Could not …". Shared by the input checks
 * and the adapters so a refusal and a service failure read the same way.
 */
import type { DomainListKind } from './types';

const ofProfile = (profile: string | undefined) => (profile === undefined ? '' : ` of profile ${profile}`);
const forProfile = (profile: string | undefined) => (profile === undefined ? '' : ` for profile ${profile}`);

export const attempts = {
  listProfiles: () => 'list the profiles',
  addProfile: (name: string) => `create the profile ${name}`,
  deleteProfile: (name: string) => `delete the profile ${name}`,
  listCategories: (profile?: string) => `list the categories${ofProfile(profile)}`,
  setCategoryBlocked: (label: string, blocked: boolean, profile?: string) =>
    `${blocked ? 'block' : 'allow'} the category ${label}${forProfile(profile)}`,
  listDomains: (list: DomainListKind, profile?: string) => `list the ${list}${ofProfile(profile)}`,
  addDomain: (list: DomainListKind, domain: string, profile?: string) =>
    `add ${domain} to the ${list}${ofProfile(profile)}`,
  deleteDomain: (list: DomainListKind, domain: string, profile?: string) =>
    `remove ${domain} from the ${list}${ofProfile(profile)}`,
  blockTld: (tld: string, profile?: string) => `block the top-level domain ${tld}${forProfile(profile)}`,
  setDefaultBlock: (enabled: boolean, profile?: string) =>
    `turn ${enabled ? 'on' : 'off'} default block${forProfile(profile)}`,
  listNetworks: () => 'list the networks',
  addNetwork: (ip: string, profile?: string) => `register the network ${ip}${forProfile(profile)}`,
  deleteNetwork: (ip: string, profile?: string) => `remove the network ${ip}${forProfile(profile)}`,
  listLogDays: () => 'list the log days',
  getStats: (date: string) => `load the statistics of ${date}`,
  getDump: (date: string) => `download the raw log of ${date}`,
  deleteLogDay: (date: string) => `delete the raw log of ${date}`,
};
