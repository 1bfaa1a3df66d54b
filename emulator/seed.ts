/** The account and log days an emulator starts with, and returns to on `admin.reset()`. */
import type { FormACategory } from './categories.ts';
import type { DaySpec } from './logs.ts';
import { Account } from './state.ts';
import { addDays } from './validate.ts';

export type SeedName = 'demo' | 'empty';

export const DEMO_LOG_DAYS = 7;

interface DemoProfile {
  name: string;
  blocked: FormACategory[];
  whitelist: string[];
  blocklist: string[];
  tlds: string[];
}

const DEMO_PROFILES: DemoProfile[] = [
  {
    name: 'default',
    blocked: ['category_adult', 'category_advertising_tracking', 'category_malicious_blacklisted'],
    whitelist: ['allowed-demo.example', 'wikipedia.org'],
    blocklist: ['blocked-demo.example', 'tracker.example.net'],
    tlds: ['.zip'],
  },
  {
    name: 'kids1',
    blocked: [
      'category_adult',
      'category_adultmixed',
      'category_dating',
      'category_gambling',
      'category_drugs',
      'category_alcohol',
      'category_weapons',
      'category_hate_speech',
      'category_malicious_blacklisted',
      'category_proxy_vpn',
      'category_social_network',
    ],
    whitelist: ['khanacademy.org', 'scratch.mit.edu'],
    blocklist: ['roblox.com'],
    tlds: [],
  },
  {
    name: 'office',
    blocked: [
      'category_adult',
      'category_malicious_blacklisted',
      'category_torrents',
      'category_p2p_file_sharing',
      'category_gaming',
    ],
    whitelist: ['github.com'],
    blocklist: ['casino-demo.example'],
    tlds: ['.xyz'],
  },
  {
    name: 'guests',
    blocked: ['category_adult', 'category_malicious_blacklisted'],
    whitelist: [],
    blocklist: [],
    tlds: [],
  },
];

const DEMO_NETWORKS = [
  { ip: '203.0.113.50', label: 'Home Network', profile: 'default' },
  { ip: '198.51.100.23', label: 'Kids tablet hotspot', profile: 'kids1' },
  { ip: '192.0.2.10', label: 'Office', profile: 'office' },
  { ip: '192.0.2.11', label: 'Office backup line', profile: 'office' },
];

export function seedAccount(seed: SeedName): Account {
  const account = new Account();
  if (seed === 'empty') return account;
  for (const profile of DEMO_PROFILES) {
    if (profile.name !== 'default') account.addProfile(profile.name);
    for (const category of profile.blocked) account.setCategoryBlocked(category, true, profile.name);
    for (const domain of profile.whitelist) account.addDomain('whitelist', domain, profile.name);
    for (const domain of profile.blocklist) account.addDomain('blocklist', domain, profile.name);
    for (const tld of profile.tlds) account.addTld(tld, profile.name);
  }
  for (const network of DEMO_NETWORKS) account.addNetwork(network.ip, network.label, network.profile);
  return account;
}

export interface LogSeedOptions {
  seed: SeedName;
  today: string;
  /** 0 or absent: no big day. */
  bigDayMb?: number;
  bigStatsDay?: string;
}

/**
 * Demo seed: the `DEMO_LOG_DAYS` days ending at `today`. A big day, when asked for, is the day
 * before the oldest demo day so that it never hides one of them.
 */
export function seedLogDays(options: LogSeedOptions): DaySpec[] {
  const specs: DaySpec[] = [];
  if (options.seed === 'demo') {
    for (let offset = DEMO_LOG_DAYS - 1; offset >= 0; offset--) {
      specs.push({ kind: 'demo', date: addDays(options.today, -offset) });
    }
  }
  if (options.bigDayMb && options.bigDayMb > 0) {
    specs.push({
      kind: 'big',
      date: bigDayDate(options.today),
      targetBytes: Math.round(options.bigDayMb * 1024 * 1024),
    });
  }
  if (options.bigStatsDay) specs.push({ kind: 'big-stats', date: options.bigStatsDay });
  return specs;
}

export function bigDayDate(today: string): string {
  return addDays(today, -DEMO_LOG_DAYS);
}
