/**
 * The worker puts this browser in line with the administrator's policy (docs/managed-deployment.md,
 * "What the extension does with it"): at start, whenever the policy changes, and after any change
 * of the accounts (so an account the policy set up cannot be changed past it).
 *
 * - Each account the policy names is set up here, its key stored where the extension keeps every
 *   key (lib/accounts/store.ts). An account is found again by the record of ./stored.ts, else by
 *   its name or its identity (the user had set it up already), else it fills the blank first
 *   account of a new installation, else it is added.
 * - A later policy with another key, address or form for it changes the account (its earlier
 *   identity is kept, so what was recorded under it still goes when the account goes).
 * - An account the policy no longer names is removed with everything of it, as the Accounts
 *   section's Remove would; the only account left has its key forgotten instead. A policy whose
 *   list could not be read whole removes nothing (./policy.ts `accountsComplete`).
 * - Page diagnosis the policy does not allow is turned off (the worker then forgets its records).
 */

import {
  type AccountsState,
  activateAccount,
  addParkedAccount,
  readAccounts,
  type StoredAccount,
  saveActiveConnection,
  updateAccounts,
} from '@/lib/accounts/store';
import { type AccountId, accountIdentity } from '@/lib/identity/identity';
import { exclusively } from '@/lib/outbox/lease';
import { MAX_EARLIER_IDENTITIES } from '@/lib/settings/limits';
import { connectionItem, diagnosisSettingsItem } from '@/lib/settings/storage';
import { type ManagedStorageArea, type PolicyAccount, readPolicy } from './policy';
import { policyAccountsItem } from './stored';

export interface ApplyPolicyDeps {
  managed: ManagedStorageArea | undefined;
  /** Removes an account and everything of it (the worker's `removeAccount` job). */
  removeAccount(id: string): Promise<{ removed: boolean }>;
  now?: () => number;
}

const sameName = (a: string, b: string) => a.toLocaleLowerCase() === b.toLocaleLowerCase();

async function findAccount(
  wanted: PolicyAccount,
  wantedIdentity: AccountId,
  state: AccountsState,
  record: Record<string, string>,
): Promise<StoredAccount | undefined> {
  const recorded = Object.entries(record).find(([, name]) => name === wanted.name)?.[0];
  const byRecord = state.accounts.find((account) => account.id === recorded);
  if (byRecord) return byRecord;
  const unmanaged = state.accounts.filter((account) => record[account.id] === undefined);
  const byName = unmanaged.find(
    (account) => account.name !== undefined && sameName(account.name, wanted.name),
  );
  if (byName) return byName;
  for (const account of unmanaged) {
    if ((await accountIdentity(account)).id === wantedIdentity) return account;
  }
  // A new installation: the first account, still without a key or a name, becomes this one.
  return state.accounts.find((account) => account.active && account.key === '' && account.name === undefined);
}

/** Gives `account` the policy's name, key, address and form where they differ. */
async function bringInLine(
  account: StoredAccount,
  wanted: PolicyAccount,
  identity: AccountId,
): Promise<void> {
  const connection = { baseUrl: wanted.baseUrl, form: wanted.form };
  const was = await accountIdentity(account);
  if (was.id !== identity && account.active) await saveActiveConnection({ key: wanted.key, connection });
  await updateAccounts((_state, draft) => {
    const entry = draft.entries.find((candidate) => candidate.id === account.id);
    if (!entry) return null;
    const renamed = entry.name !== wanted.name;
    entry.name = wanted.name;
    const parkedChange = was.id !== identity && draft.activeId !== account.id;
    if (parkedChange) {
      draft.keys[account.id] = wanted.key;
      entry.parked = { ...entry.parked, [connectionItem.key]: connection };
      const earlier = (entry.earlierIdentities ?? []).filter((id) => id !== was.id && id !== identity);
      entry.earlierIdentities = [...earlier, was.id].slice(-MAX_EARLIER_IDENTITIES);
    }
    return renamed || parkedChange ? { draft, result: true } : null;
  });
}

/** Removes an account the policy no longer names; the only account keeps no key and no name. */
async function dropAccount(id: string, deps: ApplyPolicyDeps): Promise<void> {
  const state = await readAccounts();
  if (!state.accounts.some((candidate) => candidate.id === id)) return;
  if (state.accounts.length > 1) {
    await deps.removeAccount(id);
    return;
  }
  await saveActiveConnection({ key: '' });
  await updateAccounts((_state, draft) => {
    const entry = draft.entries.find((candidate) => candidate.id === id);
    if (!entry) return null;
    delete entry.name;
    return { draft, result: true };
  });
}

async function syncAccounts(wanted: readonly PolicyAccount[], complete: boolean, deps: ApplyPolicyDeps) {
  const now = deps.now ?? Date.now;
  const stored = await readAccounts();
  const record = Object.fromEntries(
    Object.entries(await policyAccountsItem.getValue()).filter(([id]) =>
      stored.accounts.some((account) => account.id === id),
    ),
  );
  for (const account of wanted) {
    const identity = (
      await accountIdentity({
        key: account.key,
        connection: { baseUrl: account.baseUrl, form: account.form },
      })
    ).id;
    const found = await findAccount(account, identity, await readAccounts(), record);
    const id = found ? found.id : await addParkedAccount(account, now);
    if (found) await bringInLine(found, account, identity);
    if (id === null) continue;
    for (const [other, name] of Object.entries(record)) if (name === account.name) delete record[other];
    record[id] = account.name;
  }
  if (complete) {
    for (const [id, name] of Object.entries(record)) {
      if (wanted.some((account) => account.name === name)) continue;
      await dropAccount(id, deps);
      delete record[id];
    }
  }
  // Written only when it changed: the worker applies the policy after account changes too.
  if (JSON.stringify(record) !== JSON.stringify(await policyAccountsItem.getValue())) {
    await policyAccountsItem.setValue(record);
  }
  // The active account still without a key hands over to the first account the policy set up.
  const after = await readAccounts();
  const active = after.accounts.find((account) => account.active);
  const first = after.accounts.find((account) => record[account.id] !== undefined && account.key !== '');
  if (active && active.key === '' && first) await activateAccount(first.id);
}

export async function applyPolicy(deps: ApplyPolicyDeps): Promise<void> {
  const reading = await readPolicy(deps.managed);
  const policy = reading.state === 'set' ? reading.policy : null;
  await exclusively('policy', () =>
    syncAccounts(policy?.accounts ?? [], policy?.accountsComplete ?? true, deps),
  );
  if (policy && !policy.pageDiagnosis && (await diagnosisSettingsItem.getValue()).enabled) {
    await diagnosisSettingsItem.setValue({ enabled: false });
  }
}
