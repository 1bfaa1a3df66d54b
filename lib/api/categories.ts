/**
 * The category catalogue of each form (service-api.md, "Category identifiers"). Form A's
 * categories/list names only the blocked ones, so the client needs the full list to show the
 * allowed ones too. Descriptions are the spec's; Form B's ids carry the matching Form A meaning.
 */
import { t } from '@/lib/i18n';
import type { ApiForm } from './types';

export interface CategoryInfo {
  id: string;
  /** Short name for a checkbox or a table row. */
  label: string;
  /** The spec's meaning of the category. */
  description: string;
}

/**
 * Form A's catalogue names every meaning the spec gives a category; their names and descriptions
 * are in locales/*.yml (`category.*`).
 */
const FORM_A = [
  { id: 'category_adult', meaning: 'adult' },
  { id: 'category_adultmixed', meaning: 'adultMixed' },
  { id: 'category_advertising_tracking', meaning: 'advertising' },
  { id: 'category_torrents', meaning: 'torrents' },
  { id: 'category_p2p_file_sharing', meaning: 'p2p' },
  { id: 'category_proxy_vpn', meaning: 'proxyVpn' },
  { id: 'category_gaming', meaning: 'gaming' },
  { id: 'category_gambling', meaning: 'gambling' },
  { id: 'category_dating', meaning: 'dating' },
  { id: 'category_social_network', meaning: 'social' },
  { id: 'category_search_engine', meaning: 'search' },
  { id: 'category_online_radio', meaning: 'radio' },
  { id: 'category_weapons', meaning: 'weapons' },
  { id: 'category_malicious_blacklisted', meaning: 'malicious' },
  { id: 'category_video_streaming', meaning: 'streaming' },
  { id: 'category_drugs', meaning: 'drugs' },
  { id: 'category_alcohol', meaning: 'alcohol' },
  { id: 'category_lingerie', meaning: 'lingerie' },
  { id: 'category_hate_speech', meaning: 'hateSpeech' },
  { id: 'category_academic_fraud', meaning: 'academicFraud' },
] as const;

type Meaning = (typeof FORM_A)[number]['meaning'];

export interface CatalogueEntry {
  id: string;
  meaning: Meaning;
  /** A name other than the meaning's own (Form B calls "malicious" `malware`). */
  name?: 'malware';
}

const FORM_B: readonly CatalogueEntry[] = [
  { id: 'adult', meaning: 'adult' },
  { id: 'malware', meaning: 'malicious', name: 'malware' },
  { id: 'gambling', meaning: 'gambling' },
  { id: 'gaming', meaning: 'gaming' },
  { id: 'social', meaning: 'social' },
  { id: 'torrents', meaning: 'torrents' },
  { id: 'vpn', meaning: 'proxyVpn' },
  { id: 'drugs', meaning: 'drugs' },
  { id: 'weapons', meaning: 'weapons' },
  { id: 'streaming', meaning: 'streaming' },
];

export const CATEGORY_CATALOGUE: Readonly<Record<ApiForm, readonly CatalogueEntry[]>> = {
  A: FORM_A,
  B: FORM_B,
};

/**
 * A name for a category the catalogue does not know (one the provider added): its id read as
 * words, `category_new_thing` → "New thing", so no table shows an internal id.
 */
function humanCategoryName(id: string): string {
  const words = id
    .replace(/^category_/i, '')
    .replace(/[_-]+/g, ' ')
    .trim();
  return words ? words[0]!.toLocaleUpperCase() + words.slice(1) : id;
}

/** The catalogue entry in the user's language, or a plain entry named after the id for a category the spec does not list. */
export function describeCategory(form: ApiForm, id: string): CategoryInfo {
  // Statistics may name a category by the other form's id: its meaning is the same.
  const entry =
    CATEGORY_CATALOGUE[form].find((candidate) => candidate.id === id) ??
    Object.values(CATEGORY_CATALOGUE)
      .flat()
      .find((candidate) => candidate.id === id);
  if (!entry) return { id, label: humanCategoryName(id), description: '' };
  return {
    id,
    label: t(`category.name.${entry.name ?? entry.meaning}`),
    description: t(`category.about.${entry.meaning}`),
  };
}

/**
 * The name of a category known by its id alone (a queued change keeps no form): Form A's ids
 * start with `category_`, Form B's do not (docs/service-api.md).
 */
export function categoryLabel(id: string): string {
  return describeCategory(id.startsWith('category_') ? 'A' : 'B', id).label;
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
  const ids = new Set([...CATEGORY_CATALOGUE[form].map((entry) => entry.id), ...states.keys()]);
  return [...ids].map((id) => ({ id, blocked: states.get(id) ?? false }));
}
