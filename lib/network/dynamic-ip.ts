/**
 * The worker's side of dynamic IP registration: reads the settings, takes the registration
 * lease, runs one registration and stores its outcome, and keeps the alarms in line with the
 * settings. Everything it remembers is in storage (lib/settings/storage.ts).
 */

import { readAccounts, writeAccountValue } from '@/lib/accounts/store';
import { isTransientKind } from '@/lib/api/errors';
import { capabilitiesOf } from '@/lib/api/forms';
import { t } from '@/lib/i18n';
import type { ConfiguredAccount, CurrentAccount } from '@/lib/identity/current';
import type { AlarmsApi } from '@/lib/outbox/alarms';
import { exclusively, tryAcquireLease } from '@/lib/outbox/lease';
import {
  type DynamicIpSettings,
  MAX_REGISTERED_KEPT,
  type RegisteredAddress,
  type RegistrationOutcome,
  registeredAddressesItem,
  registrationOutcomeItem,
} from '@/lib/settings/storage';
import { validateNetworkLabel, validateProfileReference } from '@/lib/validation';
import { lookupPublicIpv4 } from './ip-lookup';
import {
  notRegistered,
  type RegistrationVerdict,
  registeredAddresses,
  registrationRetryMinutes,
  runRegistration,
} from './registration';

export const REGISTRATION_ALARM = 'dynamic-ip';
/** One-shot retry after a failure; re-creating it replaces it, so retries never pile up. */
export const REGISTRATION_RETRY_ALARM = 'dynamic-ip-retry';
const LEASE = 'registration';

/**
 * Each account re-registers on its own alarms and under its own lease, named by its stable id
 * (lib/accounts): one account's failure or backoff never delays another's.
 */
export const registrationAlarmOf = (accountId: string) => `${REGISTRATION_ALARM}:${accountId}`;
export const registrationRetryAlarmOf = (accountId: string) => `${REGISTRATION_RETRY_ALARM}:${accountId}`;
export const registrationLeaseOf = (accountId: string) => `${LEASE}:${accountId}`;
/**
 * A run renews the lease before each lookup request and each call to the service (each within
 * its own time limit: ./ip-lookup.ts, lib/api/transport.ts), so every step fits well inside,
 * however many URLs and earlier addresses there are; a worker stopped mid-run frees it at most
 * this long after its last step.
 */
const LEASE_TTL_MS = 90_000;
const USER_WAIT_STEP_MS = 250;

export interface DynamicIpDeps {
  /** The active account, with its client (lib/identity/current.ts). */
  getAccount: () => Promise<CurrentAccount>;
  /**
   * Every account of this browser with its own client (lib/identity/current.ts
   * `readConfiguredAccounts`): an account registers with its own key at its own origin. Default:
   * the active account only.
   */
  getAccounts?: () => Promise<ConfiguredAccount[]>;
  fetch: typeof fetch;
  alarms: AlarmsApi;
  now?: () => number;
}

/**
 * Creates an account's periodic alarm only when it is missing or its period differs from the
 * setting: re-creating it on every worker start would push the next run back each time.
 */
export async function ensureRegistrationAlarm(
  alarms: AlarmsApi,
  settings: Pick<DynamicIpSettings, 'enabled' | 'intervalMinutes'>,
  accountId: string,
): Promise<'created' | 'kept' | 'cleared'> {
  const alarm = registrationAlarmOf(accountId);
  if (!settings.enabled) {
    await alarms.clear(alarm);
    await alarms.clear(registrationRetryAlarmOf(accountId));
    return 'cleared';
  }
  const existing = await alarms.get(alarm);
  if (existing && existing.periodInMinutes === settings.intervalMinutes) return 'kept';
  await alarms.create(alarm, {
    delayInMinutes: settings.intervalMinutes,
    periodInMinutes: settings.intervalMinutes,
  });
  return 'created';
}

/**
 * Every account's alarms in line with its settings; the alarms of accounts no longer here, and
 * the single alarms of versions before several accounts, go.
 */
export async function syncRegistrationAlarms(
  alarms: AlarmsApi & { getAll(): Promise<{ name: string }[]> },
  accounts: readonly { id: string; dynamicIp: Pick<DynamicIpSettings, 'enabled' | 'intervalMinutes'> }[],
): Promise<void> {
  const known = new Set(
    accounts.flatMap((account) => [registrationAlarmOf(account.id), registrationRetryAlarmOf(account.id)]),
  );
  for (const { name } of await alarms.getAll()) {
    const ours =
      name === REGISTRATION_ALARM || name === REGISTRATION_RETRY_ALARM || registrationAlarmTarget(name);
    if (ours && !known.has(name)) await alarms.clear(name);
  }
  for (const account of accounts) await ensureRegistrationAlarm(alarms, account.dynamicIp, account.id);
}

/** Which account an alarm of this module is for, and whether it is the retry; null for others. */
export function registrationAlarmTarget(name: string): { accountId: string; retry: boolean } | null {
  const retry = name.startsWith(`${REGISTRATION_RETRY_ALARM}:`);
  const prefix = `${retry ? REGISTRATION_RETRY_ALARM : REGISTRATION_ALARM}:`;
  return name.startsWith(prefix) ? { accountId: name.slice(prefix.length), retry } : null;
}

export type RegistrationTrigger =
  /** The periodic alarm: skipped while disabled or while a backoff retry is due first. */
  | 'alarm'
  /** The backoff retry alarm. */
  | 'retry'
  /** Register now, or the user just turned the feature on: runs whatever the backoff says. */
  | 'user';

/**
 * Runs one registration and stores its outcome. Returns the outcome, or null when nothing ran
 * (disabled, backoff pending, or another run holds the lease).
 */
export async function registerOnce(
  deps: DynamicIpDeps,
  trigger: RegistrationTrigger,
  accountId?: string,
): Promise<RegistrationOutcome | null> {
  const now = deps.now ?? Date.now;
  const state = await readAccounts();
  const account = state.accounts.find((candidate) =>
    accountId === undefined ? candidate.active : candidate.id === accountId,
  );
  if (!account) return null;
  const settings = account.dynamicIp;
  const previousOutcome = account.registrationOutcome;
  if (trigger !== 'user' && !settings.enabled) return null;
  if (trigger === 'alarm' && (previousOutcome?.nextAttemptAt ?? -Infinity) > now()) return null;

  const leaseName = registrationLeaseOf(account.id);
  let lease = await tryAcquireLease(leaseName, { ttlMs: LEASE_TTL_MS, now });
  // A user waits for a run in progress (an alarm fired just before the click) and then gets
  // a fresh run of their own, with the settings they just saved.
  for (let waited = 0; !lease && trigger === 'user' && waited < LEASE_TTL_MS; waited += USER_WAIT_STEP_MS) {
    await new Promise((resolve) => setTimeout(resolve, USER_WAIT_STEP_MS));
    lease = await tryAcquireLease(leaseName, { ttlMs: LEASE_TTL_MS, now });
  }
  if (!lease) return null;
  try {
    const verdict = await registerWithSettings(deps, account.id, settings, now, () => lease.renew());
    const failures = verdict.ok ? 0 : (previousOutcome?.consecutiveFailures ?? 0) + 1;
    // A refusal (bad label, unknown profile, bad key) will not go away by itself: the regular
    // interval keeps trying, and a settings change runs at once.
    const retryable = !verdict.ok && (verdict.reason === 'lookup' || isTransientKind(verdict.reason));
    const retryMinutes = retryable ? registrationRetryMinutes(failures, settings.intervalMinutes) : null;
    const nextAttemptAt = retryMinutes === null ? undefined : now() + retryMinutes * 60_000;
    const outcome: RegistrationOutcome = {
      at: now(),
      ...verdict,
      consecutiveFailures: failures,
      ...(nextAttemptAt === undefined ? {} : { nextAttemptAt }),
    };
    // Removed meanwhile: its outcome and alarms went with it.
    if (!(await writeAccountValue(account.id, registrationOutcomeItem, outcome))) return outcome;
    const retryAlarm = registrationRetryAlarmOf(account.id);
    if (nextAttemptAt !== undefined && settings.enabled) {
      await deps.alarms.create(retryAlarm, { when: nextAttemptAt });
    } else {
      await deps.alarms.clear(retryAlarm);
    }
    return outcome;
  } finally {
    await lease.release();
  }
}

/** The client of account `accountId`, from one reading of its own key and connection. */
async function clientOf(deps: DynamicIpDeps, accountId: string): Promise<CurrentAccount | null> {
  if (!deps.getAccounts) return deps.getAccount();
  return (await deps.getAccounts()).find((account) => account.accountId === accountId) ?? null;
}

const noKey = (): RegistrationVerdict => ({ ok: false, message: t('registration.noKey'), reason: 'no-key' });

async function registerWithSettings(
  deps: DynamicIpDeps,
  accountId: string,
  settings: DynamicIpSettings,
  now: () => number,
  renewLease: () => Promise<boolean>,
): Promise<RegistrationVerdict> {
  const label = validateNetworkLabel(settings.label);
  if (!label.ok) return notRegistered(label.message, 'invalid-input');
  // One reading of the settings for the account and its client: an address is only ever
  // deleted through the client of the account it was registered with.
  const configured = await clientOf(deps, accountId);
  if (!configured) return noKey();
  const { identity, client } = configured;
  let profile: string | undefined;
  if (capabilitiesOf(identity.form).profileSelection) {
    const checked = validateProfileReference(settings.profile);
    if (!checked.ok) return notRegistered(checked.message, 'invalid-input');
    profile = checked.value;
  }
  if (!client) return noKey();
  // A lookup has no effect at the service, so it goes on even if the lease was lost; the add
  // after it checks the lease again.
  const renewingFetch: typeof fetch = async (input, init) => {
    await renewLease();
    return deps.fetch(input, init);
  };
  // Only this account's addresses take part: those of the others (registered by their own runs,
  // maybe at this very moment) are kept as they are.
  const mine = (address: RegisteredAddress) => address.account === identity.id;
  const stored = await registeredAddressesItem.getValue();
  const own = registeredAddresses(stored).filter(mine);
  const result = await runRegistration({
    lookup: () => lookupPublicIpv4(settings.lookupUrls, renewingFetch),
    beforeStep: renewLease,
    client,
    target: { label: label.value, profile, account: identity.id },
    registered: { current: own[0] ?? null, stale: own.slice(1) },
    removePrevious: settings.removePrevious,
    now: now(),
  });
  await exclusively('registration-addresses', async () => {
    const latest = await registeredAddressesItem.getValue();
    const others = registeredAddresses(latest).filter((address) => !mine(address));
    // `current` is this run's address; without one, whatever another account registered last.
    const current = result.registered.current ?? others[0] ?? null;
    await registeredAddressesItem.setValue({
      current,
      stale: [...result.registered.stale, ...others.filter((address) => address !== current)].slice(
        0,
        MAX_REGISTERED_KEPT,
      ),
    });
  });
  return result.verdict;
}
