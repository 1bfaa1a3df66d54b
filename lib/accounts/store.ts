/**
 * Where each account's settings are kept. The ACTIVE account's key, connection and other
 * per-account values are in the items every page and the worker already read (`apiKeyItem`,
 * `connectionItem`, `dynamicIpSettingsItem` …: "the active account's view"), so everything that
 * reads the current account (lib/account/current.ts `readCurrentAccount`) reads the active one.
 * Every other account's values are parked in its entry of `accountsItem`, its key in
 * `accountKeysItem`. Each value is in exactly one place; switching moves the outgoing account's
 * values into its entry and the incoming one's out of its entry, in ONE storage write, so no
 * reader ever sees one account's key with another's connection.
 *
 * Every read-modify-write of these items goes through `exclusively('accounts')` (Web Locks: all
 * pages and the worker). Pages that write the active account's items directly (Setup, Dynamic
 * IP) write the active account's values, as before.
 */
import { storage } from 'wxt/utils/storage';
import { exclusively, randomId } from '@/lib/outbox/lease';
import {
  type AccountEntry,
  accountKeysItem,
  accountsItem,
  addedTldsItem,
  apiKeyItem,
  type ConnectionSettings,
  chosenProfileItem,
  connectionItem,
  type DynamicIpSettings,
  defaultBlockItem,
  dynamicIpSettingsItem,
  lastLogDumpItem,
  MAX_ACCOUNTS,
  managedProfileItem,
  parkedAt,
  type RegistrationOutcome,
  registrationOutcomeItem,
} from '@/lib/settings/storage';
import { getValues } from '@/lib/settings/stored-reads';
import type { ValidatedItem } from '@/lib/settings/validated-item';

/**
 * The per-account items besides the key: what an account takes with it when another one becomes
 * active. None has migrations (a test checks it): parked copies are stored without WXT's version
 * record, so an item that gains a migration must migrate its parked copies too.
 */
export const ACCOUNT_ITEMS = [
  connectionItem,
  dynamicIpSettingsItem,
  registrationOutcomeItem,
  lastLogDumpItem,
  chosenProfileItem,
  managedProfileItem,
  addedTldsItem,
  defaultBlockItem,
] as const satisfies readonly ValidatedItem<unknown>[];

type AccountItem = (typeof ACCOUNT_ITEMS)[number];
type ValueOf<I> = I extends ValidatedItem<infer T> ? T : never;

/** One account as stored, with its values wherever they are kept now. */
export interface StoredAccount {
  /** Stable and random: not the key, not the identity (which changes with a new key). */
  id: string;
  /** Absent: named after its service's host (`displayName`). */
  name: string | undefined;
  createdAt: number;
  active: boolean;
  key: string;
  connection: ConnectionSettings;
  dynamicIp: DynamicIpSettings;
  registrationOutcome: RegistrationOutcome | null;
  /** Values of ACCOUNT_ITEMS by storage key, each checked by its item (read with `accountValue`). */
  values: ReadonlyMap<string, unknown>;
}

export interface AccountsState {
  activeId: string;
  /** In the order they were added. */
  accounts: StoredAccount[];
}

/** The value of a per-account item for `account`. */
export function accountValue<I extends AccountItem>(account: StoredAccount, item: I): ValueOf<I> {
  return (account.values.has(item.key) ? account.values.get(item.key) : item.fallback) as ValueOf<I>;
}

/** The host of an account's service, which names it until the user names it. */
export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host || baseUrl;
  } catch {
    return baseUrl;
  }
}

export function displayName(account: Pick<StoredAccount, 'name' | 'connection'>): string {
  return account.name ?? hostOf(account.connection.baseUrl);
}

type Raw = {
  accounts: ValueOf<typeof accountsItem>;
  keys: Record<string, string>;
  activeKey: string;
  active: unknown[];
};

async function readRaw(): Promise<Raw> {
  const [accounts, keys, activeKey, ...active] = await getValues([
    accountsItem,
    accountKeysItem,
    apiKeyItem,
    ...ACCOUNT_ITEMS,
  ] as const);
  return { accounts, keys, activeKey, active };
}

function isConsistent(raw: Raw): boolean {
  const { active, accounts } = raw.accounts;
  return active !== null && accounts.some((entry) => entry.id === active);
}

async function stateOf(raw: Raw): Promise<AccountsState> {
  const activeId = raw.accounts.active!;
  const accounts = await Promise.all(
    raw.accounts.accounts.map(async (entry): Promise<StoredAccount> => {
      const isActive = entry.id === activeId;
      // The active account's values were checked as they were read; a parked one is checked here.
      const values = new Map<string, unknown>(
        await Promise.all(
          ACCOUNT_ITEMS.map(
            async (item, index) =>
              [
                item.key,
                isActive
                  ? raw.active[index]
                  : await item.check(entry.parked?.[item.key] ?? null, parkedAt(entry.id, item.key)),
              ] as const,
          ),
        ),
      );
      const account: StoredAccount = {
        id: entry.id,
        name: entry.name,
        createdAt: entry.createdAt,
        active: isActive,
        key: isActive ? raw.activeKey : (raw.keys[entry.id] ?? ''),
        connection: connectionItem.fallback,
        dynamicIp: dynamicIpSettingsItem.fallback,
        registrationOutcome: null,
        values,
      };
      account.connection = accountValue(account, connectionItem);
      account.dynamicIp = accountValue(account, dynamicIpSettingsItem);
      account.registrationOutcome = accountValue(account, registrationOutcomeItem);
      return account;
    }),
  );
  return { activeId, accounts };
}

/**
 * Makes the setup stored before several accounts (or after damaged storage) an account of its
 * own: the values in the active account's items stay where they are and become the active
 * account's, so nothing the user had is lost. Entries already stored are kept, as parked.
 */
async function adoptActiveSetup(now: () => number): Promise<void> {
  await exclusively('accounts', async () => {
    const raw = await readRaw();
    if (isConsistent(raw)) return;
    const id = randomId();
    await accountsItem.setValue({
      active: id,
      accounts: [...raw.accounts.accounts, { id, createdAt: now() }].slice(-MAX_ACCOUNTS),
    });
  });
}

/**
 * Every account and which is active, from one storage read (two the very first time, when the
 * existing setup becomes the first account).
 */
export async function readAccounts(now: () => number = Date.now): Promise<AccountsState> {
  const raw = await readRaw();
  if (isConsistent(raw)) return stateOf(raw);
  await adoptActiveSetup(now);
  return stateOf(await readRaw());
}

/** What `updateAccounts` may change. */
export interface AccountsDraft {
  activeId: string;
  entries: AccountEntry[];
  keys: Record<string, string>;
}

/**
 * Read-modify-write of the accounts, under the accounts lock. `change` gets the stored state and
 * a draft of the entries and parked keys (the active account's values are left where they are),
 * and returns what to write, or null for nothing.
 */
export async function updateAccounts<T>(
  change: (state: AccountsState, draft: AccountsDraft) => { draft: AccountsDraft; result: T } | null,
): Promise<T | null> {
  await readAccounts();
  return exclusively('accounts', async () => {
    const raw = await readRaw();
    const state = await stateOf(raw);
    const draft: AccountsDraft = {
      activeId: state.activeId,
      entries: raw.accounts.accounts.map((entry) => ({ ...entry })),
      keys: { ...raw.keys },
    };
    const outcome = change(state, draft);
    if (outcome === null) return null;
    await storage.setItems([
      {
        key: accountsItem.key,
        value: await accountsItem.validate({
          active: outcome.draft.activeId,
          accounts: outcome.draft.entries,
        }),
      },
      { key: accountKeysItem.key, value: outcome.draft.keys },
    ]);
    return outcome.result;
  });
}

/**
 * Writes one per-account value of `accountId`: into its item when the account is active, into its
 * parked values otherwise. False when the account is gone (removed meanwhile): nothing written.
 */
export async function writeAccountValue<I extends AccountItem>(
  accountId: string,
  item: I,
  value: ValueOf<I>,
): Promise<boolean> {
  await readAccounts();
  return exclusively('accounts', async () => {
    const raw = await readRaw();
    const entries = raw.accounts.accounts;
    const entry = entries.find((candidate) => candidate.id === accountId);
    if (!entry) return false;
    if (raw.accounts.active === accountId) {
      await (item as ValidatedItem<unknown>).setValue(value);
      return true;
    }
    const checked = await (item as ValidatedItem<unknown>).validate(value);
    await accountsItem.setValue({
      active: raw.accounts.active,
      accounts: entries.map((candidate) =>
        candidate.id === accountId
          ? { ...candidate, parked: { ...candidate.parked, [item.key]: checked } }
          : candidate,
      ),
    });
    return true;
  });
}

/**
 * Makes `id` the active account: the active account's values go into its entry, `id`'s come out
 * of it, in one storage write. False when there is no such account.
 */
export async function activateAccount(id: string): Promise<boolean> {
  await readAccounts();
  return exclusively('accounts', async () => {
    const raw = await readRaw();
    const currentId = raw.accounts.active!;
    if (currentId === id) return true;
    const target = raw.accounts.accounts.find((entry) => entry.id === id);
    if (!target) return false;
    const outgoing = Object.fromEntries(ACCOUNT_ITEMS.map((item, index) => [item.key, raw.active[index]]));
    const entries = raw.accounts.accounts.map((entry) => {
      if (entry.id === currentId) return { ...entry, parked: outgoing };
      if (entry.id === id) {
        const { parked: _parked, ...rest } = entry;
        return rest;
      }
      return entry;
    });
    const { [id]: incomingKey = '', ...keys } = raw.keys;
    if (raw.activeKey !== '') keys[currentId] = raw.activeKey;
    await storage.setItems([
      { key: accountsItem.key, value: await accountsItem.validate({ active: id, accounts: entries }) },
      { key: accountKeysItem.key, value: keys },
      { key: apiKeyItem.key, value: incomingKey },
      // A value never set reads as its item's fallback.
      ...ACCOUNT_ITEMS.map((item) => ({ key: item.key, value: target.parked?.[item.key] ?? null })),
    ]);
    return true;
  });
}

/**
 * Which account is active and every account's name as pages show it, by stable id: what a refusal
 * of a change made for another account says (lib/messaging/handlers.ts). Never a key.
 */
export async function readAccountNames(): Promise<{ activeId: string; names: ReadonlyMap<string, string> }> {
  const { activeId, accounts } = await readAccounts();
  return { activeId, names: new Map(accounts.map((account) => [account.id, displayName(account)])) };
}
