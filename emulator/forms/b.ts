/**
 * Form B (`/api/v1/`): short parameter names and no profile selection. Its lists, categories
 * and default-block flag are those of the account's `default` profile, so both forms see one
 * account; its networks are the account's, whatever profile holds them.
 */
import { FORM_B_CATEGORIES, type FormBCategory, isFormBCategory } from '../categories.ts';
import { fail } from '../failure.ts';
import { DEFAULT_PROFILE } from '../state.ts';
import {
  type ActionHandler,
  domainParam,
  json,
  LIST_KINDS,
  labelParam,
  logActions,
  required,
  SUCCESS,
} from './common.ts';

const FORM_B_IDS = Object.keys(FORM_B_CATEGORIES) as FormBCategory[];

function categoryParam(params: URLSearchParams) {
  const category = required(params, 'category');
  if (!isFormBCategory(category)) fail(400, `Invalid category; expected one of ${FORM_B_IDS.join(', ')}`);
  return FORM_B_CATEGORIES[category];
}

function domainListActions(): Record<string, ActionHandler> {
  const actions: Record<string, ActionHandler> = {};
  for (const list of LIST_KINDS) {
    actions[`${list}/add`] = (params, { account }) => {
      account.addDomain(list, domainParam(params, 'domain'), DEFAULT_PROFILE);
      return SUCCESS;
    };
    actions[`${list}/delete`] = (params, { account }) => {
      account.deleteDomain(list, domainParam(params, 'domain'), DEFAULT_PROFILE);
      return SUCCESS;
    };
    actions[`${list}/list`] = (_params, { account }) =>
      json({ domains: account.domains(list, DEFAULT_PROFILE) });
  }
  return actions;
}

export const formBActions: Record<string, ActionHandler> = {
  'network/list': (_params, { account }) =>
    json({
      networks: account.listNetworks().map(({ ip, label, profile }) => ({ ip, label: label ?? '', profile })),
    }),
  'network/add': (params, { account }) => {
    account.addNetwork(required(params, 'ip'), labelParam(params), undefined);
    return SUCCESS;
  },
  'network/delete': (params, { account }) => {
    account.deleteNetwork(required(params, 'ip'), undefined);
    return SUCCESS;
  },

  'categories/list': (_params, { account }) => {
    const blocked = new Set(account.blockedCategories(DEFAULT_PROFILE));
    return json({
      categories: FORM_B_IDS.map((category) => ({
        category,
        blocked: blocked.has(FORM_B_CATEGORIES[category]),
      })),
    });
  },
  'category/block': (params, { account }) => {
    account.setCategoryBlocked(categoryParam(params), true, DEFAULT_PROFILE);
    return SUCCESS;
  },
  'category/allow': (params, { account }) => {
    account.setCategoryBlocked(categoryParam(params), false, DEFAULT_PROFILE);
    return SUCCESS;
  },

  'profiles/list': (_params, { account }) => json({ profiles: account.profileNames() }),
  'profile/add': (params, { account }) => {
    account.addProfile(required(params, 'name'));
    return SUCCESS;
  },
  'profile/delete': (params, { account }) => {
    account.deleteProfile(required(params, 'name'));
    return SUCCESS;
  },

  'default-block/enable': (_params, { account }) => {
    account.setDefaultBlock(true, DEFAULT_PROFILE);
    return SUCCESS;
  },
  'default-block/disable': (_params, { account }) => {
    account.setDefaultBlock(false, DEFAULT_PROFILE);
    return SUCCESS;
  },

  ...domainListActions(),
  ...logActions,
};
