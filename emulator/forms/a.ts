/** Form A (`/api`): snake_case parameter names, profile selection, map-shaped lists. */
import { FORM_A_CATEGORIES, isFormACategory } from '../categories.ts';
import { fail } from '../failure.ts';
import { normaliseTld } from '../validate.ts';
import {
  type ActionHandler,
  domainParam,
  json,
  LIST_KINDS,
  labelParam,
  logActions,
  optional,
  required,
  SUCCESS,
} from './common.ts';

const profileParam = (params: URLSearchParams) => optional(params, 'profile_name');

function categoryParam(params: URLSearchParams) {
  const category = required(params, 'category_name');
  return isFormACategory(category)
    ? category
    : fail(400, `Invalid category; expected one of ${FORM_A_CATEGORIES.join(', ')}`);
}

function domainListActions(): Record<string, ActionHandler> {
  const actions: Record<string, ActionHandler> = {};
  for (const list of LIST_KINDS) {
    actions[`${list}/add`] = (params, { account }) => {
      account.addDomain(list, domainParam(params, 'domain_name'), profileParam(params));
      return SUCCESS;
    };
    actions[`${list}/delete`] = (params, { account }) => {
      account.deleteDomain(list, domainParam(params, 'domain_name'), profileParam(params));
      return SUCCESS;
    };
    actions[`${list}/list`] = (params, { account }) => {
      const profile = profileParam(params);
      const names = profile === undefined ? account.profileNames() : [profile];
      return json({ [list]: Object.fromEntries(names.map((name) => [name, account.domains(list, name)])) });
    };
  }
  return actions;
}

export const formAActions: Record<string, ActionHandler> = {
  'category/block': (params, { account }) => {
    account.setCategoryBlocked(categoryParam(params), true, profileParam(params));
    return SUCCESS;
  },
  'category/allow': (params, { account }) => {
    account.setCategoryBlocked(categoryParam(params), false, profileParam(params));
    return SUCCESS;
  },
  'categories/list': (params, { account }) =>
    json({ categories: account.blockedCategories(profileParam(params)) }),

  'profile/add': (params, { account }) => {
    account.addProfile(required(params, 'profile_name'));
    return SUCCESS;
  },
  'profile/delete': (params, { account }) => {
    account.deleteProfile(required(params, 'profile_name'));
    return SUCCESS;
  },
  'profiles/list': (_params, { account }) => json({ profiles: account.profileNames() }),

  ...domainListActions(),

  'tld_blocklist/add': (params, { account }) => {
    const tld = normaliseTld(required(params, 'tld')) ?? fail(400, 'Invalid TLD: expected a form like .xyz');
    account.addTld(tld, profileParam(params));
    return SUCCESS;
  },

  'default-block/enable': (params, { account }) => {
    account.setDefaultBlock(true, required(params, 'profile_name'));
    return SUCCESS;
  },
  'default-block/disable': (params, { account }) => {
    account.setDefaultBlock(false, required(params, 'profile_name'));
    return SUCCESS;
  },

  'network/add': (params, { account }) => {
    account.addNetwork(required(params, 'ip_address'), labelParam(params), profileParam(params) ?? 'default');
    return SUCCESS;
  },
  'network/delete': (params, { account }) => {
    account.deleteNetwork(required(params, 'ip_address'), profileParam(params) ?? 'default');
    return SUCCESS;
  },
  'network/list': (params, { account }) => {
    const profile = profileParam(params);
    if (profile !== undefined) account.requireProfile(profile);
    const names = profile === undefined ? account.profileNames() : [profile];
    const networks = account.listNetworks();
    return json({
      networks: Object.fromEntries(
        names.map((name) => [name, networks.filter((n) => n.profile === name).map((n) => n.ip)]),
      ),
    });
  },

  ...logActions,
};
