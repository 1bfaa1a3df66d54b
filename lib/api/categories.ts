/**
 * The category catalogue of each form (service-api.md, "Category identifiers"). Form A's
 * categories/list names only the blocked ones, so the client needs the full list to show the
 * allowed ones too. Descriptions are the spec's; Form B's ids carry the matching Form A meaning.
 */
import type { ApiForm } from './types';

export interface CategoryInfo {
  id: string;
  /** Short name for a checkbox or a table row. */
  label: string;
  /** The spec's meaning of the category. */
  description: string;
}

const FORM_A: readonly CategoryInfo[] = [
  { id: 'category_adult', label: 'Adult', description: 'pornography and adult content' },
  { id: 'category_adultmixed', label: 'Mixed adult content', description: 'mixed adult content' },
  {
    id: 'category_advertising_tracking',
    label: 'Advertising and tracking',
    description: 'advertising and tracking domains',
  },
  { id: 'category_torrents', label: 'Torrents', description: 'torrent trackers' },
  {
    id: 'category_p2p_file_sharing',
    label: 'Peer-to-peer file sharing',
    description: 'peer-to-peer file sharing',
  },
  { id: 'category_proxy_vpn', label: 'Proxy and VPN', description: 'VPN and proxy bypass services' },
  { id: 'category_gaming', label: 'Gaming', description: 'online gaming platforms' },
  { id: 'category_gambling', label: 'Gambling', description: 'gambling and betting sites' },
  { id: 'category_dating', label: 'Dating', description: 'dating websites and apps' },
  { id: 'category_social_network', label: 'Social networks', description: 'social networking sites' },
  { id: 'category_search_engine', label: 'Search engines', description: 'search engines' },
  { id: 'category_online_radio', label: 'Online radio', description: 'online radio and podcasts' },
  { id: 'category_weapons', label: 'Weapons', description: 'weapons-related content' },
  {
    id: 'category_malicious_blacklisted',
    label: 'Malicious',
    description: 'malware, phishing, malicious domains',
  },
  { id: 'category_video_streaming', label: 'Video streaming', description: 'video streaming platforms' },
  { id: 'category_drugs', label: 'Drugs', description: 'drug-related content' },
  { id: 'category_alcohol', label: 'Alcohol', description: 'alcohol-related content' },
  { id: 'category_lingerie', label: 'Lingerie', description: 'lingerie and swimwear' },
  { id: 'category_hate_speech', label: 'Hate speech', description: 'hate speech and extremism' },
  {
    id: 'category_academic_fraud',
    label: 'Academic fraud',
    description: 'academic fraud and cheating services',
  },
];

const FORM_B: readonly CategoryInfo[] = [
  { id: 'adult', label: 'Adult', description: 'pornography and adult content' },
  { id: 'malware', label: 'Malware', description: 'malware, phishing, malicious domains' },
  { id: 'gambling', label: 'Gambling', description: 'gambling and betting sites' },
  { id: 'gaming', label: 'Gaming', description: 'online gaming platforms' },
  { id: 'social', label: 'Social networks', description: 'social networking sites' },
  { id: 'torrents', label: 'Torrents', description: 'torrent trackers' },
  { id: 'vpn', label: 'Proxy and VPN', description: 'VPN and proxy bypass services' },
  { id: 'drugs', label: 'Drugs', description: 'drug-related content' },
  { id: 'weapons', label: 'Weapons', description: 'weapons-related content' },
  { id: 'streaming', label: 'Video streaming', description: 'video streaming platforms' },
];

export const CATEGORY_CATALOGUE: Readonly<Record<ApiForm, readonly CategoryInfo[]>> = {
  A: FORM_A,
  B: FORM_B,
};

/** The catalogue entry, or a plain entry named after the id for a category the spec does not list. */
export function describeCategory(form: ApiForm, id: string): CategoryInfo {
  return CATEGORY_CATALOGUE[form].find((info) => info.id === id) ?? { id, label: id, description: '' };
}

/**
 * Every category of the form in catalogue order, with the state the service reported (a
 * category it does not mention is allowed), followed by any id the service reported that the
 * catalogue lacks: a category added by the provider must stay visible and usable.
 */
export function mergeWithCatalogue(
  form: ApiForm,
  reported: readonly { id: string; blocked: boolean }[],
): { id: string; blocked: boolean }[] {
  const states = new Map(reported.map((entry) => [entry.id, entry.blocked]));
  const known = CATEGORY_CATALOGUE[form].map((info) => ({
    id: info.id,
    blocked: states.get(info.id) ?? false,
  }));
  const knownIds = new Set(known.map((entry) => entry.id));
  const unknown = [...states].filter(([id]) => !knownIds.has(id)).map(([id, blocked]) => ({ id, blocked }));
  return [...known, ...unknown];
}
