/**
 * `createApiClient`: checks the configuration and every input before any call, then hands the
 * normalised values to the adapter of the configured form.
 */
import { t } from '@/lib/i18n';
import {
  normaliseDomainInput,
  quoteInput,
  type Validation,
  validateApiKey,
  validateBaseUrl,
  validateCategoryId,
  validateDate,
  validateIpv4,
  validateNetworkLabel,
  validateProfileName,
  validateProfileReference,
  validateTld,
} from '@/lib/validation';
import { attempts } from './attempts';
import { ApiError } from './errors';
import { createFormAApi } from './form-a';
import { createFormBApi } from './form-b';
import { createTransport, DEFAULT_MAX_JSON_BYTES, DEFAULT_TIMEOUT_MS, type Transport } from './transport';
import type { ApiClientConfig, ApiForm, DnsFilterApi, DomainListKind } from './types';

/** What each form of the API can do, for the UI to offer only what works. */
export const FORM_CAPABILITIES: Readonly<
  Record<ApiForm, { profileSelection: boolean; tldBlocking: boolean }>
> = {
  A: { profileSelection: true, tldBlocking: true },
  B: { profileSelection: false, tldBlocking: false },
};

/** Base path of each form, appended to the origin. */
export const API_PATHS: Readonly<Record<ApiForm, string>> = { A: '/api', B: '/api/v1/' };

function configValue(check: Validation, field: string): string {
  if (check.ok) return check.value;
  throw new ApiError('invalid-input', check.message, { field });
}

const positiveOr = (value: number | undefined, fallback: number) =>
  value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;

/**
 * Throws ApiError 'invalid-input' (details.field: `baseUrl`, `key` or `form`) when the
 * configuration cannot work; every method then rejects only with ApiError.
 */
export function createApiClient(config: ApiClientConfig): DnsFilterApi {
  if (config.form !== 'A' && config.form !== 'B') {
    throw new ApiError('invalid-input', t('api.chooseForm'), { field: 'form' });
  }
  const transport = createTransport({
    origin: configValue(validateBaseUrl(config.baseUrl), 'baseUrl'),
    key: configValue(validateApiKey(config.key), 'key'),
    form: config.form,
    fetch: config.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    timeoutMs: positiveOr(config.timeoutMs, DEFAULT_TIMEOUT_MS),
    maxJsonBytes: positiveOr(config.maxJsonBytes, DEFAULT_MAX_JSON_BYTES),
  });
  const adapter = config.form === 'A' ? createFormAApi(transport) : createFormBApi(transport);
  return withInputChecks(adapter, transport);
}

function withInputChecks(api: DnsFilterApi, transport: Transport): DnsFilterApi {
  const usesProfiles = FORM_CAPABILITIES[api.form].profileSelection;

  /** The normalised input, or a rejection naming the field, before anything is sent. */
  function checked(check: Validation, field: string, attempted: string): string {
    if (check.ok) return check.value;
    throw transport.error('invalid-input', attempted, check.message, { field });
  }

  /** Form B ignores profiles, so nothing is checked there. */
  function profileArg(profile: string | undefined, attempted: string): string | undefined {
    if (!usesProfiles || profile === undefined) return undefined;
    return checked(validateProfileReference(profile), 'profile', attempted);
  }

  function listArg(list: DomainListKind, attempted: string): DomainListKind {
    // The list kind becomes part of the action name: anything else would call another action.
    if (list === 'whitelist' || list === 'blocklist') return list;
    throw transport.error('invalid-input', attempted, t('api.chooseList'), {
      field: 'list',
    });
  }

  const shown = (input: unknown) => quoteInput(String(input));
  const shownProfile = (profile: string | undefined) =>
    usesProfiles && profile !== undefined ? shown(profile) : undefined;

  return {
    form: api.form,

    listProfiles: async (opts) => api.listProfiles(opts),
    async addProfile(name, opts) {
      const valid = checked(validateProfileName(name), 'name', attempts.addProfile(shown(name)));
      return api.addProfile(valid, opts);
    },
    async deleteProfile(name, opts) {
      const valid = checked(validateProfileReference(name), 'name', attempts.deleteProfile(shown(name)));
      return api.deleteProfile(valid, opts);
    },

    async listCategories(profile, opts) {
      return api.listCategories(profileArg(profile, attempts.listCategories(shownProfile(profile))), opts);
    },
    async setCategoryBlocked(category, blocked, profile, opts) {
      const attempted = attempts.setCategoryBlocked(shown(category), blocked === true, shownProfile(profile));
      const id = checked(validateCategoryId(category), 'category', attempted);
      return api.setCategoryBlocked(id, blocked === true, profileArg(profile, attempted), opts);
    },

    async listDomains(list, profile, opts) {
      const attempted = attempts.listDomains(list, shownProfile(profile));
      return api.listDomains(listArg(list, attempted), profileArg(profile, attempted), opts);
    },
    async listDomainsByProfile(list, opts) {
      return api.listDomainsByProfile(listArg(list, attempts.listDomains(list)), opts);
    },
    async addDomain(list, domain, profile, opts) {
      const attempted = attempts.addDomain(list, shown(domain), shownProfile(profile));
      const valid = checked(normaliseDomainInput(domain), 'domain', attempted);
      return api.addDomain(listArg(list, attempted), valid, profileArg(profile, attempted), opts);
    },
    async deleteDomain(list, domain, profile, opts) {
      const attempted = attempts.deleteDomain(list, shown(domain), shownProfile(profile));
      const valid = checked(normaliseDomainInput(domain), 'domain', attempted);
      return api.deleteDomain(listArg(list, attempted), valid, profileArg(profile, attempted), opts);
    },

    async blockTld(tld, profile, opts) {
      const attempted = attempts.blockTld(shown(tld), shownProfile(profile));
      const valid = checked(validateTld(tld), 'tld', attempted);
      return api.blockTld(valid, profileArg(profile, attempted), opts);
    },
    async setDefaultBlock(enabled, profile, opts) {
      const attempted = attempts.setDefaultBlock(enabled === true, shownProfile(profile));
      return api.setDefaultBlock(enabled === true, profileArg(profile, attempted), opts);
    },

    async listNetworks(opts) {
      const profile = profileArg(opts?.profile, attempts.listNetworks());
      return api.listNetworks({
        ...(opts?.signal ? { signal: opts.signal } : {}),
        ...(profile ? { profile } : {}),
      });
    },
    async addNetwork(entry, opts) {
      const attempted = attempts.addNetwork(shown(entry?.ip), shownProfile(entry?.profile));
      const ip = checked(validateIpv4(entry?.ip), 'ip', attempted);
      // A blank label means "no label": the API's label is optional.
      const label =
        entry.label === undefined || entry.label.trim() === ''
          ? undefined
          : checked(validateNetworkLabel(entry.label), 'label', attempted);
      return api.addNetwork({ ip, label, profile: profileArg(entry.profile, attempted) }, opts);
    },
    async deleteNetwork(entry, opts) {
      const attempted = attempts.deleteNetwork(shown(entry?.ip), shownProfile(entry?.profile));
      const ip = checked(validateIpv4(entry?.ip), 'ip', attempted);
      return api.deleteNetwork({ ip, profile: profileArg(entry.profile, attempted) }, opts);
    },

    listLogDays: async (opts) => api.listLogDays(opts),
    async getStats(date, opts) {
      return api.getStats(checked(validateDate(date), 'date', attempts.getStats(shown(date))), opts);
    },
    async getDump(date, opts) {
      return api.getDump(checked(validateDate(date), 'date', attempts.getDump(shown(date))), opts);
    },
    async deleteLogDay(date, opts) {
      return api.deleteLogDay(checked(validateDate(date), 'date', attempts.deleteLogDay(shown(date))), opts);
    },
  };
}
