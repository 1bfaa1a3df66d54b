/**
 * Several accounts in one browser: list, add, rename, remove and choose the active one. Pages
 * call `createAccounts(deps)`; the worker follows storage (alarms, menu, badge, deliveries).
 *
 * What belongs to an account (docs/architecture.md, "Several accounts"): its key, service origin
 * and API form, its dynamic IP settings and last outcome, its raw-log guard, its chosen profiles
 * and the records the service cannot give back (lib/accounts/store.ts ACCOUNT_ITEMS); and, by its
 * identity (lib/identity/identity.ts), its queued changes, caches, registered addresses and
 * temporary allows. Every page and the worker's "current account" is the active one.
 */

import { ApiError, validOrThrow } from '@/lib/api/errors';
import type { ApiForm } from '@/lib/api/forms';
import { t } from '@/lib/i18n';
import { type AccountIdentity, accountIdentity } from '@/lib/identity/identity';
import {
  checkDynamicIpDraft,
  type DynamicIpDraft,
  lookupPermissionOrigins,
} from '@/lib/network/settings-form';
import {
  changeSettingsKeepingHostPermissions,
  type HostPermissionsApi,
} from '@/lib/permissions/host-permission';
import { confirmKeyDestination, type KeyDestinationQuestion } from '@/lib/permissions/key-destination';
import { forgetRememberedNames } from '@/lib/popup/remembered-names';
import { type Followable, followableRead } from '@/lib/settings/follow';
import {
  accountKeysItem,
  accountsItem,
  apiKeyItem,
  connectionItem,
  type DynamicIpSettings,
  dynamicIpSettingsItem,
  MAX_ACCOUNTS,
  outboxItem,
  type RegistrationOutcome,
  registrationOutcomeItem,
} from '@/lib/settings/storage';
import { pageLocalStorage } from '@/lib/theme/first-paint';
import { validateAccountName, validateApiKey, validateBaseUrl } from '@/lib/validation';
import {
  type AccountsState,
  activateAccount,
  addParkedAccount,
  displayName,
  forgetUnreadableAccounts,
  hostOf,
  identitiesOnlyOf,
  readAccounts,
  type StoredAccount,
  updateAccounts,
  writeAccountValue,
} from './store';

export type { DynamicIpDraft };
export { MAX_ACCOUNTS };

/** One account as pages show it. Never carries the key. */
export interface AccountSummary {
  /** Stable and random; what every function here takes. */
  id: string;
  /** The name the user gave, or the service's host. */
  name: string;
  /** True when the user named it (false: `name` is the host). */
  named: boolean;
  /** `https://my.cleanbrowsing.org` */
  baseUrl: string;
  host: string;
  form: ApiForm;
  active: boolean;
  hasKey: boolean;
  /** The identity its queued changes, caches and temporary allows carry (lib/identity/identity.ts). */
  identity: AccountIdentity;
  /**
   * Its identity and those of keys or addresses it had before, when no other account has them:
   * what its removal forgets, the waiting changes of them included.
   */
  ownIdentities: readonly string[];
  dynamicIp: DynamicIpSettings;
  /** The last dynamic IP registration of this account; null before the first. */
  lastRegistration: RegistrationOutcome | null;
}

export interface AccountsView {
  activeId: string;
  /** In the order they were added. */
  accounts: AccountSummary[];
  /** Accounts stored in a shape this version cannot read, left out of `accounts` (./store.ts). */
  unreadable: number;
}

async function summaryOf(account: StoredAccount, state: AccountsState): Promise<AccountSummary> {
  return {
    id: account.id,
    name: displayName(account),
    named: account.name !== undefined,
    baseUrl: account.connection.baseUrl,
    host: hostOf(account.connection.baseUrl),
    form: account.connection.form,
    active: account.active,
    hasKey: account.key !== '',
    identity: await accountIdentity(account),
    ownIdentities: await identitiesOnlyOf(state, account.id),
    dynamicIp: account.dynamicIp,
    lastRegistration: account.registrationOutcome,
  };
}

const invalid = (field: string, message: string) => new ApiError('invalid-input', message, { field });

/** Every account and which one is active. */
export async function listAccounts(): Promise<AccountsView> {
  const state = await readAccounts();
  return {
    activeId: state.activeId,
    accounts: await Promise.all(state.accounts.map((account) => summaryOf(account, state))),
    unreadable: state.unreadable,
  };
}

/** The accounts, read again whenever one of them or the active one changes (for `useStoredValue`). */
export const followedAccounts: Followable<AccountsView> = followableRead(
  [accountsItem, accountKeysItem, apiKeyItem, connectionItem, dynamicIpSettingsItem, registrationOutcomeItem],
  listAccounts,
);

/**
 * Makes `id` the account every page, the menu, the shortcuts and the badge act on (the popup's
 * switcher needs nothing else of `createAccounts`).
 */
export async function switchAccount(id: string): Promise<void> {
  if (!(await activateAccount(id))) throw invalid('account', t('accounts.gone'));
}

/**
 * Changes waiting in the outbox that removing account `id` discards: those of its identity and of
 * any it had before, unless another account has that identity too (./forget.ts).
 */
export async function countWaitingChanges(id: string): Promise<number> {
  const [state, outbox] = await Promise.all([readAccounts(), outboxItem.getValue()]);
  const discarded = new Set(await identitiesOnlyOf(state, id));
  return outbox.filter((entry) => discarded.has(entry.account)).length;
}

/**
 * A name the user typed, trimmed; refused when `validateAccountName` refuses it (as an imported
 * name is, lib/backup/parse.ts) or when it is another account's name.
 */
export function checkAccountName(input: string, others: readonly Pick<AccountSummary, 'name'>[]): string {
  const name = validOrThrow(validateAccountName(input), 'name');
  const taken = others.find((other) => other.name.toLocaleLowerCase() === name.toLocaleLowerCase());
  if (taken) throw invalid('name', t('accounts.nameTaken', { name }));
  return name;
}

export interface NewAccount {
  name: string;
  key: string;
  /** The service's address as typed; checked like Setup checks it. */
  baseUrl: string;
  form: ApiForm;
}

export interface AccountsDeps {
  /** Asks the user whether the key may go to a new origin (lib/permissions/key-destination.ts). */
  confirm: (question: KeyDestinationQuestion) => Promise<boolean>;
  /** Asked for a new service's and the lookups' host permissions; gives back what no account needs. */
  permissions: HostPermissionsApi & { request(permissions: { origins: string[] }): Promise<boolean> };
  /** Origins confirmed earlier on this page. */
  confirmed?: Set<string>;
  /** Removal runs in the worker (it owns the outbox): lib/messaging/worker-client.ts `removeAccount`. */
  removeInWorker: (id: string) => Promise<{ removed: boolean; discarded: number }>;
  now?: () => number;
}

/** What pages do with accounts. */
export function createAccounts(deps: AccountsDeps) {
  const now = deps.now ?? Date.now;

  /**
   * Adds an account (not active yet) and returns its id. The key is stored only once its origin is
   * confirmed: the default service, an origin another account already uses, or one the user
   * confirms now (with its host permission granted). Refuses, writing nothing, a bad name, key or
   * address, an account already there (same origin, form and key) and an eleventh account.
   */
  async function add(input: NewAccount): Promise<string> {
    const others = (await listAccounts()).accounts;
    if (others.length >= MAX_ACCOUNTS) throw invalid('name', t('accounts.tooMany', { max: MAX_ACCOUNTS }));
    const name = checkAccountName(input.name, others);
    const key = validOrThrow(validateApiKey(input.key), 'key');
    const base = validOrThrow(validateBaseUrl(input.baseUrl), 'baseUrl');
    const identity = await accountIdentity({
      key,
      connection: { baseUrl: base, form: input.form },
    });
    const same = others.find((other) => other.identity.id === identity.id);
    if (same) throw invalid('key', t('accounts.alreadyThere', { name: same.name }));
    const active = others.find((other) => other.active);
    const confirmed = new Set([
      ...(deps.confirmed ?? []),
      ...others.map((other) => new URL(other.baseUrl).origin),
    ]);
    await confirmKeyDestination(base, {
      savedOrigin: async () => active?.baseUrl ?? base,
      confirm: deps.confirm,
      permissions: deps.permissions,
      confirmed,
    });
    deps.confirmed?.add(new URL(base).origin);
    const added = await addParkedAccount({ name, key, baseUrl: base, form: input.form }, now);
    if (added === null) throw invalid('name', t('accounts.tooMany', { max: MAX_ACCOUNTS }));
    return added;
  }

  /** Names an account; an empty name gives it its host's name back. */
  async function rename(id: string, input: string): Promise<void> {
    const { accounts } = await listAccounts();
    const trimmed = input.trim();
    const others = accounts.filter((other) => other.id !== id);
    const name = trimmed === '' ? undefined : checkAccountName(trimmed, others);
    await updateAccounts((_state, draft) => {
      const entry = draft.entries.find((candidate) => candidate.id === id);
      if (!entry) return null;
      if (name === undefined) delete entry.name;
      else entry.name = name;
      return { draft, result: true };
    });
  }

  /**
   * Whether this browser keeps this network registered with `account`, with which label, profile
   * and interval: the Dynamic IP form's draft, checked as that form checks it. The lookup
   * services' host permissions are asked first, with nothing awaited before (browsers show the
   * prompt only during the click). The worker follows with the account's own alarm.
   */
  async function setDynamicIp(
    account: Pick<AccountSummary, 'id' | 'form'>,
    draft: DynamicIpDraft,
  ): Promise<DynamicIpSettings> {
    const settings = validOrThrow(checkDynamicIpDraft(draft, account.form), 'dynamicIp');
    const origins = lookupPermissionOrigins(settings.lookupUrls);
    if (origins.length > 0 && !(await deps.permissions.request({ origins }).catch(() => false))) {
      const hosts = origins.map((origin) => new URL(origin.replace('/*', '/')).host).join(', ');
      throw invalid('dynamicIp', t('dynamicIp.permissionRefused', { hosts }));
    }
    const written = await changeSettingsKeepingHostPermissions({ permissions: deps.permissions }, () =>
      writeAccountValue(account.id, dynamicIpSettingsItem, settings),
    );
    if (!written) throw invalid('account', t('accounts.gone'));
    return settings;
  }

  /**
   * Removes an account after the user confirmed (with `countWaitingChanges` in the question):
   * its key, settings, caches, queued changes, temporary allows and alarms are forgotten; nothing
   * of another account is touched. The only account cannot be removed (Setup forgets its key).
   * Returns how many waiting changes were discarded.
   */
  async function remove(id: string): Promise<number> {
    const { accounts } = await listAccounts();
    if (accounts.length <= 1) throw invalid('account', t('accounts.lastOne'));
    const { removed, discarded } = await deps.removeInWorker(id);
    if (!removed) throw invalid('account', t('accounts.gone'));
    // The popup's remembered names may be this account's (PRIVACY.md: removal forgets it all).
    forgetRememberedNames(pageLocalStorage());
    return discarded;
  }

  return {
    list: listAccounts,
    add,
    rename,
    activate: switchAccount,
    remove,
    removeUnreadable: forgetUnreadableAccounts,
    countWaitingChanges,
    setDynamicIp,
  };
}
