/** Form A category identifiers (service-api.md, section 2), in the spec's order. */
export const FORM_A_CATEGORIES = [
  'category_adult',
  'category_adultmixed',
  'category_advertising_tracking',
  'category_torrents',
  'category_p2p_file_sharing',
  'category_proxy_vpn',
  'category_gaming',
  'category_gambling',
  'category_dating',
  'category_social_network',
  'category_search_engine',
  'category_online_radio',
  'category_weapons',
  'category_malicious_blacklisted',
  'category_video_streaming',
  'category_drugs',
  'category_alcohol',
  'category_lingerie',
  'category_hate_speech',
  'category_academic_fraud',
] as const;

export type FormACategory = (typeof FORM_A_CATEGORIES)[number];

/**
 * Form B's ten identifiers, each mapped onto the Form A category of the same meaning. Form B
 * has no profiles, so the emulator stores its category settings in the `default` profile under
 * these Form A ids: a change made through one form is visible through the other.
 */
export const FORM_B_CATEGORIES = {
  adult: 'category_adult',
  malware: 'category_malicious_blacklisted',
  gambling: 'category_gambling',
  gaming: 'category_gaming',
  social: 'category_social_network',
  torrents: 'category_torrents',
  vpn: 'category_proxy_vpn',
  drugs: 'category_drugs',
  weapons: 'category_weapons',
  streaming: 'category_video_streaming',
} as const satisfies Record<string, FormACategory>;

export type FormBCategory = keyof typeof FORM_B_CATEGORIES;

export function isFormACategory(value: string): value is FormACategory {
  return (FORM_A_CATEGORIES as readonly string[]).includes(value);
}

export function isFormBCategory(value: string): value is FormBCategory {
  return Object.hasOwn(FORM_B_CATEGORIES, value);
}
