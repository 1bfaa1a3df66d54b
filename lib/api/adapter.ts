/**
 * The one adapter for both forms of the API: checks every input before any call, then sends the
 * action with the parameter names of the form's description (forms.ts). Callers never see
 * `domain_name` or `category_name`. Where the forms really differ (listing domains, listing them
 * by profile, TLD blocking, default block) the description's list shapes and capabilities decide.
 */
import type * as z from 'zod/mini';
import { t } from '@/lib/i18n';
import {
  normaliseDomainInput,
  quoteInput,
  type Validation,
  validateCategoryId,
  validateDate,
  validateIpv4,
  validateNetworkLabel,
  validateProfileName,
  validateProfileReference,
  validateTld,
} from '@/lib/validation';
import { attempts } from './attempts';
import { describeCategory, mergeWithCatalogue } from './categories';
import { ACCOUNT_SCOPE, type ApiForm, DEFAULT_PROFILE, describeForm } from './forms';
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

type Params = Record<string, string | undefined>;

export function createFormAdapter(form: ApiForm, transport: Transport): DnsFilterApi {
  const { params: names, capabilities } = describeForm(form);
  const usesProfiles = capabilities.profileSelection;

  /** The normalised input, or a rejection naming the field, before anything is sent. */
  function checked(check: Validation, field: string, attempted: string): string {
    if (check.ok) return check.value;
    throw transport.error('invalid-input', attempted, check.message, { field });
  }

  /** A form without profile selection ignores profiles, so nothing is checked there. */
  function profileArg(profile: string | undefined, attempted: string): string | undefined {
    if (!usesProfiles || profile === undefined) return undefined;
    return checked(validateProfileReference(profile), 'profile', attempted);
  }

  function listArg(list: DomainListKind, attempted: string): DomainListKind {
    // The list kind becomes part of the action name: anything else would call another action.
    if (list === 'whitelist' || list === 'blocklist') return list;
    throw transport.error('invalid-input', attempted, t('api.chooseList'), { field: 'list' });
  }

  const shown = (input: unknown) => quoteInput(String(input));
  const shownProfile = (profile: string | undefined) =>
    usesProfiles && profile !== undefined ? shown(profile) : undefined;

  /** The profile parameter under the form's name; none where the form cannot select a profile. */
  const profileParam = (profile: string | undefined): Params =>
    names.profile === undefined ? {} : { [names.profile]: profile };

  const send = <S extends z.ZodMiniType>(
    action: string,
    params: Params,
    attempted: string,
    opts: CallOptions | undefined,
    schema: S,
  ) => transport.call({ action, params, attempted, signal: opts?.signal }, schema);

  async function succeed(action: string, params: Params, attempted: string, opts: CallOptions | undefined) {
    await send(action, params, attempted, opts, successBodySchema);
  }

  const listing = (list: DomainListKind, profile: string | undefined, opts: CallOptions | undefined) =>
    send(
      `${list}/list`,
      profileParam(profile),
      attempts.listDomains(list, profile),
      opts,
      domainListResponseSchema(list),
    );

  /** addDomain and deleteDomain: the same checks and parameters, another action. */
  const changeDomain =
    (op: 'add' | 'delete') =>
    async (list: DomainListKind, domain: string, profile?: string, opts?: CallOptions) => {
      const wording = op === 'add' ? attempts.addDomain : attempts.deleteDomain;
      const attempted = wording(list, shown(domain), shownProfile(profile));
      const valid = checked(normaliseDomainInput(domain), 'domain', attempted);
      const kind = listArg(list, attempted);
      const chosen = profileArg(profile, attempted);
      return succeed(
        `${kind}/${op}`,
        { [names.domain]: valid, ...profileParam(chosen) },
        wording(kind, valid, chosen),
        opts,
      );
    };

  return {
    form,

    listProfiles: async (opts) =>
      send('profiles/list', {}, attempts.listProfiles(), opts, profilesResponseSchema),
    async addProfile(name, opts) {
      const valid = checked(validateProfileName(name), 'name', attempts.addProfile(shown(name)));
      return succeed('profile/add', { [names.profileName]: valid }, attempts.addProfile(valid), opts);
    },
    async deleteProfile(name, opts) {
      const valid = checked(validateProfileReference(name), 'name', attempts.deleteProfile(shown(name)));
      return succeed('profile/delete', { [names.profileName]: valid }, attempts.deleteProfile(valid), opts);
    },

    async listCategories(profile, opts) {
      const chosen = profileArg(profile, attempts.listCategories(shownProfile(profile)));
      const reported = await send(
        'categories/list',
        profileParam(chosen),
        attempts.listCategories(chosen),
        opts,
        categoriesResponseSchema,
      );
      return mergeWithCatalogue(form, reported);
    },
    async setCategoryBlocked(category, blocked, profile, opts) {
      const block = blocked === true;
      const attempted = attempts.setCategoryBlocked(shown(category), block, shownProfile(profile));
      const id = checked(validateCategoryId(category), 'category', attempted);
      const chosen = profileArg(profile, attempted);
      return succeed(
        block ? 'category/block' : 'category/allow',
        { [names.category]: id, ...profileParam(chosen) },
        attempts.setCategoryBlocked(describeCategory(form, id).label, block, chosen),
        opts,
      );
    },

    async listDomains(list, profile, opts) {
      const attempted = attempts.listDomains(list, shownProfile(profile));
      const kind = listArg(list, attempted);
      const chosen = profileArg(profile, attempted);
      if (!usesProfiles) return allDomains(await listing(kind, undefined, opts));
      // Without a profile the service answers for every profile; the interface promises `default`.
      const scope = chosen ?? DEFAULT_PROFILE;
      return domainsOf(await listing(kind, scope, opts), scope);
    },
    async listDomainsByProfile(list, opts) {
      const kind = listArg(list, attempts.listDomainsByProfile(list));
      const result = await listing(kind, undefined, opts);
      if (!usesProfiles) return { [ACCOUNT_SCOPE]: allDomains(result) };
      // A flat list for "all profiles" can only be the default profile's.
      return result.kind === 'by-profile' ? result.byProfile : { [DEFAULT_PROFILE]: result.domains };
    },
    addDomain: changeDomain('add'),
    deleteDomain: changeDomain('delete'),

    async blockTld(tld, profile, opts) {
      const attempted = attempts.blockTld(shown(tld), shownProfile(profile));
      const valid = checked(validateTld(tld), 'tld', attempted);
      const chosen = profileArg(profile, attempted);
      if (!capabilities.tldBlocking || names.tld === undefined) {
        throw transport.error('invalid-input', attempts.blockTld(valid), t('api.noTldInFormB'), {
          field: 'tld',
        });
      }
      return succeed(
        'tld_blocklist/add',
        { [names.tld]: valid, ...profileParam(chosen) },
        attempts.blockTld(valid, chosen),
        opts,
      );
    },
    async setDefaultBlock(enabled, profile, opts) {
      const on = enabled === true;
      const chosen = profileArg(profile, attempts.setDefaultBlock(on, shownProfile(profile)));
      // Per profile, profile_name is required by these two actions (Form B has no profile parameter).
      return succeed(
        on ? 'default-block/enable' : 'default-block/disable',
        profileParam(chosen ?? DEFAULT_PROFILE),
        attempts.setDefaultBlock(on, chosen),
        opts,
      );
    },

    async listNetworks(opts) {
      const profile = profileArg(opts?.profile, attempts.listNetworks());
      return send(
        'network/list',
        profileParam(profile),
        attempts.listNetworks(),
        opts,
        networksResponseSchema,
      );
    },
    async addNetwork(entry, opts) {
      const attempted = attempts.addNetwork(shown(entry?.ip), shownProfile(entry?.profile));
      const ip = checked(validateIpv4(entry?.ip), 'ip', attempted);
      // A blank label means "no label": the API's label is optional.
      const label =
        entry.label === undefined || entry.label.trim() === ''
          ? undefined
          : checked(validateNetworkLabel(entry.label), 'label', attempted);
      const profile = profileArg(entry.profile, attempted);
      return succeed(
        'network/add',
        { [names.ip]: ip, ...profileParam(profile), [names.label]: label },
        attempts.addNetwork(ip, profile),
        opts,
      );
    },
    async deleteNetwork(entry, opts) {
      const attempted = attempts.deleteNetwork(shown(entry?.ip), shownProfile(entry?.profile));
      const ip = checked(validateIpv4(entry?.ip), 'ip', attempted);
      const profile = profileArg(entry.profile, attempted);
      return succeed(
        'network/delete',
        { [names.ip]: ip, ...profileParam(profile) },
        attempts.deleteNetwork(ip, profile),
        opts,
      );
    },

    listLogDays: async (opts) => send('logs/list', {}, attempts.listLogDays(), opts, logDaysResponseSchema),
    async getStats(date, opts) {
      const valid = checked(validateDate(date), 'date', attempts.getStats(shown(date)));
      return send(
        'logs/getstats',
        { [names.date]: valid },
        attempts.getStats(valid),
        opts,
        statsResponseSchema,
      );
    },
    async getDump(date, opts) {
      const valid = checked(validateDate(date), 'date', attempts.getDump(shown(date)));
      return transport.stream({
        action: 'logs/getdump',
        params: { [names.date]: valid },
        attempted: attempts.getDump(valid),
        signal: opts?.signal,
      });
    },
    async deleteLogDay(date, opts) {
      const valid = checked(validateDate(date), 'date', attempts.deleteLogDay(shown(date)));
      return succeed('logs/delete', { [names.date]: valid }, attempts.deleteLogDay(valid), opts);
    },
  };
}

/** The entries of one profile; a profile the service does not mention has none. */
function domainsOf(listing: DomainListing, profile: string): string[] {
  if (listing.kind === 'flat') return listing.domains;
  return Object.hasOwn(listing.byProfile, profile) ? (listing.byProfile[profile] ?? []) : [];
}

/** The account's entries; a per-profile answer is merged, since the account has no profiles to tell apart. */
function allDomains(listing: DomainListing): string[] {
  if (listing.kind === 'flat') return listing.domains;
  return [...new Set(Object.values(listing.byProfile).flat())];
}
