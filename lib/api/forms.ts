/**
 * The two forms of the service's API as data (docs/service-api.md, "Form A" and "Form B"): where
 * each is served, what its parameters are called, and what it can do. The adapter (adapter.ts), the transport, the settings backup and the UI read this
 * table instead of comparing form names, so a difference between the forms lives here once.
 *
 * Pure data without imports: the popup and every settings read load this module.
 */

/** The profile every account has, used by Form A whenever a request names none. */
export const DEFAULT_PROFILE = 'default';

/** The scope of everything in Form B, which cannot select a profile: the whole account. */
export const ACCOUNT_SCOPE = 'account';

export interface FormDescription {
  /** Base path, appended to the origin. */
  path: string;
  /** The query parameter carrying each input; `profile` and `tld` only where the form has them. */
  params: {
    /** The profile an action applies to (optional on most actions). */
    profile?: string;
    /** The profile that profile/add and profile/delete create or remove. */
    profileName: string;
    category: string;
    domain: string;
    ip: string;
    label: string;
    tld?: string;
    date: string;
  };
  capabilities: {
    /**
     * Actions and lists can be aimed at one profile (whitelist/list answers per profile,
     * default-block names its profile); otherwise they act on, and list, the whole account.
     */
    profileSelection: boolean;
    /** tld_blocklist/add exists. */
    tldBlocking: boolean;
    /** network/list answers entries `{ip, label, profile}`, not profile -> addresses without labels. */
    networkLabels: boolean;
  };
}

export const FORMS = {
  A: {
    path: '/api',
    params: {
      profile: 'profile_name',
      profileName: 'profile_name',
      category: 'category_name',
      domain: 'domain_name',
      ip: 'ip_address',
      label: 'label',
      tld: 'tld',
      date: 'date',
    },
    capabilities: {
      profileSelection: true,
      tldBlocking: true,
      networkLabels: false,
    },
  },
  B: {
    path: '/api/v1/',
    params: {
      profileName: 'name',
      category: 'category',
      domain: 'domain',
      ip: 'ip',
      label: 'label',
      date: 'date',
    },
    capabilities: {
      profileSelection: false,
      tldBlocking: false,
      networkLabels: true,
    },
  },
} as const satisfies Record<string, FormDescription>;

/** `'A' | 'B'`: the one declaration of the form names. */
export type ApiForm = keyof typeof FORMS;

/** The form names, for a schema (`z.enum(API_FORMS)`) or a loop. */
export const API_FORMS = Object.keys(FORMS) as [ApiForm, ...ApiForm[]];

export const isApiForm = (value: unknown): value is ApiForm =>
  typeof value === 'string' && Object.hasOwn(FORMS, value);

export const describeForm = (form: ApiForm): FormDescription => FORMS[form];

export const capabilitiesOf = (form: ApiForm): FormDescription['capabilities'] => FORMS[form].capabilities;

/**
 * The scope a profile-aimed request really acts on: the profile (`default` when none is named)
 * where the form can select one, else the whole account.
 */
export const scopeOf = (form: ApiForm, profile: string | undefined): string =>
  FORMS[form].capabilities.profileSelection ? (profile ?? DEFAULT_PROFILE) : ACCOUNT_SCOPE;

/** The profile to send: the given one where the form can select profiles, else none. */
export const profileFor = (form: ApiForm, profile: string | undefined): string | undefined =>
  FORMS[form].capabilities.profileSelection ? profile : undefined;

/**
 * Data kept per scope: a profile in Form A, the whole account in Form B. The form is part of the
 * key so switching forms never mixes the two accounts' views.
 */
export const scopeKey = (form: ApiForm, profile: string | undefined): string =>
  `${form}:${scopeOf(form, profile)}`;
