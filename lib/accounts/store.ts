/**
 * Where each account's settings are kept. The ACTIVE account's key, connection and other
 * per-account values are in the items every page and the worker already read (`apiKeyItem`,
 * `connectionItem`, `dynamicIpSettingsItem` …: "the active account's view"), so everything that
 * reads the current account (lib/identity/current.ts `readCurrentAccount`) reads the active one.
 * Every other account's values are parked in its entry of `accountsItem`, its key in
 * `accountKeysItem`. Each value is in exactly one place; switching moves the outgoing account's
 * values into its entry and the incoming one's out of its entry, in ONE storage write, so no
 * reader ever sees one account's key with another's connection.
 *
 * Every read-modify-write of these items goes through `exclusively('accounts')` (Web Locks: all
 * pages and the worker). Pages that write the active account's items directly (Dynamic IP) write
 * the active account's values, as before; its key and connection go through
 * `saveActiveConnection`, which remembers the identity they replace.
 */
import { type AccountId, accountIdentity } from '@/lib/identity/identity';
import { exclusively, randomId } from '@/lib/outbox/lease';
import { profileGroupsItem } from '@/lib/profile-groups/groups';
import { entriesOf, getValues, readRaw as readStored, type StoredItem, writeRaw } from '@/lib/settings/item';
import { isRecord } from '@/lib/settings/shape';
import {
  type AccountEntry,
  accountKeysItem,
  accountsItem,
  activeKeyEntries,
  addedTldsItem,
  apiKeyItem,
  type ConnectionSettings,
  chosenProfileItem,
  connectionItem,
  type DynamicIpSettings,
  defaultBlockItem,
  dynamicIpSettingsItem,
  lastLogDumpItem,
  loadSchemas,
  MAX_ACCOUNTS,
  MAX_EARLIER_IDENTITIES,
  managedProfileItem,
  type RegistrationOutcome,
  registrationOutcomeItem,
} from '@/lib/settings/storage';

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
  profileGroupsItem,
] as const satisfies readonly StoredItem<unknown>[];

type AccountItem = (typeof ACCOUNT_ITEMS)[number];
type ValueOf<I> = I extends StoredItem<infer T> ? T : never;

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
  /** The identities it had before its current one (an earlier key or address), newest last. */
  earlierIdentities: readonly AccountId[];
  dynamicIp: DynamicIpSettings;
  registrationOutcome: RegistrationOutcome | null;
  /** Values of ACCOUNT_ITEMS by storage key, each checked by its item (read with `accountValue`). */
  values: ReadonlyMap<string, unknown>;
}

export interface AccountsState {
  activeId: string;
  /** In the order they were added. */
  accounts: StoredAccount[];
  /**
   * Accounts stored in a shape this version cannot read (damaged storage, another version), left
   * out of `accounts`; what is left of them goes with `forgetUnreadableAccounts`.
   */
  unreadable: number;
}

/** The value of a per-account item for `account`. */
export function accountValue<I extends AccountItem>(of: Pick<StoredAccount, 'values'>, item: I): ValueOf<I> {
  return (of.values.has(item.key) ? of.values.get(item.key) : item.fallback) as ValueOf<I>;
}

/** The host of an account's service, which names it until the user names it. */
export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host || baseUrl;
  } catch {
    return baseUrl;
  }
}

export function displayName(account: { name?: string | undefined; connection: { baseUrl: string } }): string {
  return account.name ?? hostOf(account.connection.baseUrl);
}

type AccountsList = ValueOf<typeof accountsItem>;

type Raw = {
  accounts: AccountsList;
  /**
   * Entries of the stored list this version cannot read (damaged, or another version's), as they
   * were stored: left out of the accounts, kept by every write until the user removes them
   * (`forgetUnreadableAccounts`).
   */
  unreadable: unknown[];
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
  const raw: Raw = { accounts, unreadable: [], keys, activeKey, active };
  // Read as no account: nothing is stored, or the list did not fit its structure for one entry.
  if (accounts.active !== null || accounts.accounts.length > 0) return raw;
  const stored = (await readStored('local', [accountsItem.name]))[accountsItem.name] ?? null;
  return stored === null ? raw : { ...raw, ...(await readEachEntry(stored)) };
}

/**
 * A stored list that did not read as a whole, entry by entry (with zod): one entry this version
 * cannot read no longer loses the others (nor leaves their keys stored where nothing lists them).
 */
async function readEachEntry(stored: unknown): Promise<Pick<Raw, 'accounts' | 'unreadable'>> {
  const { accountEntrySchema } = await loadSchemas();
  const entries = isRecord(stored) && Array.isArray(stored.accounts) ? stored.accounts : [];
  const accounts: AccountEntry[] = [];
  const unreadable: unknown[] = [];
  for (const entry of entries) {
    const checked = accountEntrySchema.safeParse(entry);
    const fits =
      checked.success &&
      accounts.length < MAX_ACCOUNTS &&
      !accounts.some((account) => account.id === checked.data.id);
    if (fits) accounts.push(checked.data);
    else unreadable.push(entry);
  }
  const active = isRecord(stored) && typeof stored.active === 'string' ? stored.active : null;
  return { accounts: { active, accounts }, unreadable };
}

/**
 * How many accounts this version cannot read: the unreadable entries, and the stored keys of
 * accounts no entry names any more (their entry lost to damaged storage).
 */
function unreadableCount(raw: Raw): number {
  const named = new Set<unknown>([
    ...raw.accounts.accounts.map((entry) => entry.id),
    ...raw.unreadable.map((entry) => (isRecord(entry) ? entry.id : undefined)),
  ]);
  return raw.unreadable.length + Object.keys(raw.keys).filter((id) => !named.has(id)).length;
}

/** The accounts list as it is written: `list`, checked, then the entries this version cannot read. */
async function listToWrite(raw: Raw, list: AccountsList): Promise<unknown> {
  const checked = await accountsItem.validate(list);
  return raw.unreadable.length === 0
    ? checked
    : { ...checked, accounts: [...checked.accounts, ...raw.unreadable] };
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
      const valueAt = (item: AccountItem, index: number) =>
        isActive ? raw.active[index] : item.fromStored(entry.parked?.[item.key] ?? null);
      const values = new Map(ACCOUNT_ITEMS.map((item, index) => [item.key, valueAt(item, index)] as const));
      return {
        id: entry.id,
        name: entry.name,
        createdAt: entry.createdAt,
        active: isActive,
        key: isActive ? raw.activeKey : (raw.keys[entry.id] ?? ''),
        connection: accountValue({ values }, connectionItem),
        earlierIdentities: entry.earlierIdentities ?? [],
        dynamicIp: accountValue({ values }, dynamicIpSettingsItem),
        registrationOutcome: accountValue({ values }, registrationOutcomeItem),
        values,
      };
    }),
  );
  return { activeId, accounts, unreadable: unreadableCount(raw) };
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
    const accounts = [...raw.accounts.accounts, { id, createdAt: now() }].slice(-MAX_ACCOUNTS);
    await writeRaw('local', { [accountsItem.name]: await listToWrite(raw, { active: id, accounts }) });
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

/** Runs `change` on the stored accounts under the accounts lock, once there is an active account. */
async function underLock<T>(change: (raw: Raw) => Promise<T>): Promise<T> {
  await readAccounts();
  return exclusively('accounts', async () => change(await readRaw()));
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
  return underLock(async (raw) => {
    const state = await stateOf(raw);
    const draft: AccountsDraft = {
      activeId: state.activeId,
      entries: raw.accounts.accounts.map((entry) => ({ ...entry })),
      keys: { ...raw.keys },
    };
    const outcome = change(state, draft);
    if (outcome === null) return null;
    await writeRaw('local', {
      [accountsItem.name]: await listToWrite(raw, {
        active: outcome.draft.activeId,
        accounts: outcome.draft.entries,
      }),
      ...(await entriesOf(accountKeysItem, outcome.draft.keys)),
    });
    return outcome.result;
  });
}

/**
 * Adds an account, parked (not active), with its key; its new id, or null when there are
 * MAX_ACCOUNTS already (nothing written).
 */
export function addParkedAccount(
  account: { name: string; key: string } & ConnectionSettings,
  now: () => number,
): Promise<string | null> {
  const id = randomId();
  return updateAccounts((state, draft) => {
    if (state.accounts.length >= MAX_ACCOUNTS) return null;
    draft.entries.push({
      id,
      name: account.name,
      createdAt: now(),
      parked: { [connectionItem.key]: { baseUrl: account.baseUrl, form: account.form } },
    });
    draft.keys[id] = account.key;
    return { draft, result: id };
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
  return underLock(async (raw) => {
    const entries = raw.accounts.accounts;
    const entry = entries.find((candidate) => candidate.id === accountId);
    if (!entry) return false;
    if (raw.accounts.active === accountId) {
      await (item as StoredItem<unknown>).setValue(value);
      return true;
    }
    const checked = await (item as StoredItem<unknown>).validate(value);
    await writeRaw('local', {
      [accountsItem.name]: await listToWrite(raw, {
        active: raw.accounts.active,
        accounts: entries.map((candidate) =>
          candidate.id === accountId
            ? { ...candidate, parked: { ...candidate.parked, [item.key]: checked } }
            : candidate,
        ),
      }),
    });
    return true;
  });
}

/**
 * Forgets what is left of the accounts this version cannot read (`AccountsState.unreadable`):
 * their entries and their keys. The readable accounts stay as they are. Returns how many went.
 */
export async function forgetUnreadableAccounts(): Promise<number> {
  return underLock(async (raw) => {
    const count = unreadableCount(raw);
    if (count === 0) return 0;
    const readable = new Set(raw.accounts.accounts.map((entry) => entry.id));
    await writeRaw('local', {
      ...(await entriesOf(accountsItem, raw.accounts)),
      ...(await entriesOf(
        accountKeysItem,
        Object.fromEntries(Object.entries(raw.keys).filter(([id]) => readable.has(id))),
      )),
    });
    return count;
  });
}

/** The identities an account has and had: its current one first, then its earlier ones. */
export async function identitiesOf(account: StoredAccount): Promise<AccountId[]> {
  return [(await accountIdentity(account)).id, ...account.earlierIdentities];
}

/**
 * The identities account `id` has or had that no other account of `state` has or had: what its
 * removal forgets (./forget.ts), and whose waiting changes it discards.
 */
export async function identitiesOnlyOf(state: AccountsState, id: string): Promise<AccountId[]> {
  const account = state.accounts.find((candidate) => candidate.id === id);
  if (!account) return [];
  const others = state.accounts.filter((other) => other.id !== id);
  const othersHave = new Set((await Promise.all(others.map(identitiesOf))).flat());
  return (await identitiesOf(account)).filter((identity) => !othersHave.has(identity));
}

/**
 * Stores the active account's key and connection (Setup's Save and Forget key, an imported file)
 * in ONE write, with the accounts: storage never holds a new key with the old address (the worker
 * would send it there), and the identity they replace is kept in the account's entry, so what
 * was recorded under it goes when the account is removed (./forget.ts). What is not given stays.
 */
export async function saveActiveConnection(change: {
  key?: string;
  connection?: ConnectionSettings;
}): Promise<void> {
  await underLock(async (raw) => {
    const before = {
      key: raw.activeKey,
      connection: raw.active[ACCOUNT_ITEMS.indexOf(connectionItem)] as ConnectionSettings,
    };
    const after = { key: change.key ?? before.key, connection: change.connection ?? before.connection };
    const [was, becomes] = await Promise.all([accountIdentity(before), accountIdentity(after)]);
    const accounts = raw.accounts.accounts.map((entry) => {
      if (entry.id !== raw.accounts.active || was.id === becomes.id) return entry;
      const earlier = (entry.earlierIdentities ?? []).filter((id) => id !== was.id && id !== becomes.id);
      return { ...entry, earlierIdentities: [...earlier, was.id].slice(-MAX_EARLIER_IDENTITIES) };
    });
    const [key, connection, checkedAccounts] = await Promise.all([
      activeKeyEntries(after.key),
      entriesOf(connectionItem, after.connection),
      listToWrite(raw, { active: raw.accounts.active, accounts }),
    ]);
    await writeRaw('local', { ...key, ...connection, [accountsItem.name]: checkedAccounts });
  });
}

/** `connectionItem` as an imported file writes it: through `saveActiveConnection`. */
export const activeConnectionItem: StoredItem<ConnectionSettings> = {
  ...connectionItem,
  setValue: (connection) => saveActiveConnection({ connection }),
};

/** `apiKeyItem` as an imported file writes it: through `saveActiveConnection`. */
export const activeKeyItem: StoredItem<string> = {
  ...apiKeyItem,
  setValue: (key) => saveActiveConnection({ key }),
};

/**
 * Makes `id` the active account: the active account's values go into its entry, `id`'s come out
 * of it, in one storage write. False when there is no such account.
 */
export async function activateAccount(id: string): Promise<boolean> {
  return underLock(async (raw) => {
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
    await writeRaw('local', {
      [accountsItem.name]: await listToWrite(raw, { active: id, accounts: entries }),
      ...(await entriesOf(accountKeysItem, keys)),
      ...(await activeKeyEntries(incomingKey)),
      // A value never set reads as its item's fallback.
      ...Object.fromEntries(ACCOUNT_ITEMS.map((item) => [item.name, target.parked?.[item.key] ?? null])),
    });
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
