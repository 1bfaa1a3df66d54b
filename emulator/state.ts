/**
 * The account as the service holds it: profiles with their category settings, domain lists,
 * TLD blocklist and default-block flag, plus the registered networks. Every operation validates
 * its input and throws ServiceFailure; the forms only translate parameter names and shapes.
 */
import { FORM_A_CATEGORIES, type FormACategory } from './categories.ts';
import { fail } from './failure.ts';
import { isIPv4, isProfileName } from './validate.ts';

export const DEFAULT_PROFILE = 'default';

export type DomainList = 'whitelist' | 'blocklist';

interface Profile {
  blockedCategories: Set<FormACategory>;
  whitelist: string[];
  blocklist: string[];
  tlds: string[];
  defaultBlock: boolean;
}

export interface Network {
  ip: string;
  label?: string;
  profile: string;
}

export interface ProfileSnapshot {
  blockedCategories: FormACategory[];
  whitelist: string[];
  blocklist: string[];
  tlds: string[];
  defaultBlock: boolean;
}

export interface AccountSnapshot {
  profiles: Record<string, ProfileSnapshot>;
  networks: Network[];
}

function newProfile(): Profile {
  // docs/service-api.md: a new profile starts with default-block disabled.
  return { blockedCategories: new Set(), whitelist: [], blocklist: [], tlds: [], defaultBlock: false };
}

export class Account {
  /** Insertion order is the listing order; `default` is always first. */
  private readonly profiles = new Map<string, Profile>([[DEFAULT_PROFILE, newProfile()]]);
  /** Keyed by IP: one address is matched to one profile, account-wide. */
  private readonly networks = new Map<string, Network>();

  profileNames(): string[] {
    return [...this.profiles.keys()];
  }

  /** `name` undefined means the default profile. */
  requireProfile(name: string | undefined): Profile {
    const profileName = name ?? DEFAULT_PROFILE;
    const profile = this.profiles.get(profileName);
    if (profile) return profile;
    if (!isProfileName(profileName)) fail(400, 'Invalid profile name');
    return fail(404, `Profile not found: ${profileName}`);
  }

  addProfile(name: string): void {
    if (!isProfileName(name)) {
      fail(400, 'Invalid profile name: use 4 to 64 letters or digits');
    }
    if (this.profiles.has(name)) fail(409, `Profile already exists: ${name}`);
    this.profiles.set(name, newProfile());
  }

  deleteProfile(name: string): void {
    if (name === DEFAULT_PROFILE) fail(409, 'The default profile cannot be deleted');
    this.requireProfile(name);
    this.profiles.delete(name);
    for (const [ip, network] of this.networks) if (network.profile === name) this.networks.delete(ip);
  }

  blockedCategories(profileName?: string): FormACategory[] {
    const profile = this.requireProfile(profileName);
    return FORM_A_CATEGORIES.filter((category) => profile.blockedCategories.has(category));
  }

  setCategoryBlocked(category: FormACategory, blocked: boolean, profileName?: string): void {
    const profile = this.requireProfile(profileName);
    if (blocked) profile.blockedCategories.add(category);
    else profile.blockedCategories.delete(category);
  }

  domains(list: DomainList, profileName?: string): string[] {
    return [...this.requireProfile(profileName)[list]];
  }

  /** Idempotent. A domain may sit in both lists: the service lets the whitelist win. */
  addDomain(list: DomainList, domain: string, profileName?: string): void {
    const entries = this.requireProfile(profileName)[list];
    if (!entries.includes(domain)) entries.push(domain);
  }

  replaceDomains(list: DomainList, domains: readonly string[], profileName?: string): void {
    this.requireProfile(profileName)[list] = [...new Set(domains)];
  }

  /** Removing an absent entry succeeds: the end state is what the caller asked for. */
  deleteDomain(list: DomainList, domain: string, profileName?: string): void {
    const profile = this.requireProfile(profileName);
    profile[list] = profile[list].filter((entry) => entry !== domain);
  }

  addTld(tld: string, profileName?: string): void {
    const profile = this.requireProfile(profileName);
    if (!profile.tlds.includes(tld)) profile.tlds.push(tld);
  }

  setDefaultBlock(enabled: boolean, profileName?: string): void {
    this.requireProfile(profileName).defaultBlock = enabled;
  }

  listNetworks(): Network[] {
    return [...this.networks.values()].map((network) => ({ ...network }));
  }

  /**
   * Registering an address already present is a success (docs/service-api.md); a label given again
   * replaces the stored one. `profileName` undefined (Form B) keeps an existing entry's profile.
   */
  addNetwork(ip: string, label: string | undefined, profileName: string | undefined): void {
    if (!isIPv4(ip)) fail(400, 'Invalid IP address: only IPv4 addresses can be registered');
    if (profileName !== undefined) this.requireProfile(profileName);
    const existing = this.networks.get(ip);
    if (existing) {
      if (profileName !== undefined && existing.profile !== profileName) {
        fail(409, `IP address ${ip} is already registered to profile ${existing.profile}`);
      }
      if (label !== undefined) existing.label = label;
      return;
    }
    this.networks.set(ip, { ip, profile: profileName ?? DEFAULT_PROFILE, ...(label ? { label } : {}) });
  }

  /** `profileName` undefined (Form B) removes the address whichever profile holds it. */
  deleteNetwork(ip: string, profileName: string | undefined): void {
    if (!isIPv4(ip)) fail(400, 'Invalid IP address');
    if (profileName !== undefined) this.requireProfile(profileName);
    const existing = this.networks.get(ip);
    if (!existing) return;
    if (profileName !== undefined && existing.profile !== profileName) {
      fail(409, `IP address ${ip} is registered to profile ${existing.profile}`);
    }
    this.networks.delete(ip);
  }

  snapshot(): AccountSnapshot {
    const profiles: Record<string, ProfileSnapshot> = {};
    for (const [name, profile] of this.profiles) {
      profiles[name] = {
        blockedCategories: this.blockedCategories(name),
        whitelist: [...profile.whitelist],
        blocklist: [...profile.blocklist],
        tlds: [...profile.tlds],
        defaultBlock: profile.defaultBlock,
      };
    }
    return { profiles, networks: this.listNetworks() };
  }
}
