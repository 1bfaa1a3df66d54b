/**
 * The worker's side of dynamic IP registration: reads the settings, takes the registration
 * lease, runs one registration and stores its outcome, and keeps the alarms in line with the
 * settings. Everything it remembers is in storage (lib/settings/storage.ts).
 */
import type { CurrentAccount } from '@/lib/account/current';
import { capabilitiesOf } from '@/lib/api/forms';
import { t } from '@/lib/i18n';
import type { AlarmsApi } from '@/lib/outbox/alarms';
import { tryAcquireLease } from '@/lib/outbox/lease';
import {
  type DynamicIpSettings,
  dynamicIpSettingsItem,
  type RegistrationOutcome,
  registeredAddressesItem,
  registrationOutcomeItem,
} from '@/lib/settings/storage';
import { validateNetworkLabel, validateProfileReference } from '@/lib/validation';
import { lookupPublicIpv4 } from './ip-lookup';
import { isTransientKind, registrationRetryMinutes, runRegistration } from './registration';

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
 * A run renews the lease before each lookup request (8 s at most) and each call to the service
 * (15 s at most), so every step fits well inside, however many URLs and earlier addresses there
 * are; a worker stopped mid-run frees it at most this long after its last step.
 */
const LEASE_TTL_MS = 90_000;
const USER_WAIT_STEP_MS = 250;

export interface DynamicIpDeps {
  /** The account configured now, with its client (lib/account/current.ts). */
  getAccount: () => Promise<CurrentAccount>;
  fetch: typeof fetch;
  alarms: AlarmsApi;
  now?: () => number;
}

/**
 * Creates the periodic alarm only when it is missing or its period differs from the setting:
 * re-creating it on every worker start would push the next run back each time.
 */
export async function ensureRegistrationAlarm(
  alarms: AlarmsApi,
  settings: Pick<DynamicIpSettings, 'enabled' | 'intervalMinutes'>,
): Promise<'created' | 'kept' | 'cleared'> {
  if (!settings.enabled) {
    await alarms.clear(REGISTRATION_ALARM);
    await alarms.clear(REGISTRATION_RETRY_ALARM);
    return 'cleared';
  }
  const existing = await alarms.get(REGISTRATION_ALARM);
  if (existing && existing.periodInMinutes === settings.intervalMinutes) return 'kept';
  await alarms.create(REGISTRATION_ALARM, {
    delayInMinutes: settings.intervalMinutes,
    periodInMinutes: settings.intervalMinutes,
  });
  return 'created';
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
): Promise<RegistrationOutcome | null> {
  const now = deps.now ?? Date.now;
  const [settings, previousOutcome] = await Promise.all([
    dynamicIpSettingsItem.getValue(),
    registrationOutcomeItem.getValue(),
  ]);
  if (trigger !== 'user' && !settings.enabled) return null;
  if (
    trigger === 'alarm' &&
    previousOutcome?.nextAttemptAt !== undefined &&
    previousOutcome.nextAttemptAt > now()
  ) {
    return null;
  }

  let lease = await tryAcquireLease(LEASE, { ttlMs: LEASE_TTL_MS, now });
  // A user waits for a run in progress (an alarm fired just before the click) and then gets
  // a fresh run of their own, with the settings they just saved.
  for (let waited = 0; !lease && trigger === 'user' && waited < LEASE_TTL_MS; waited += USER_WAIT_STEP_MS) {
    await new Promise((resolve) => setTimeout(resolve, USER_WAIT_STEP_MS));
    lease = await tryAcquireLease(LEASE, { ttlMs: LEASE_TTL_MS, now });
  }
  if (!lease) return null;
  try {
    const verdict = await registerWithSettings(deps, settings, now, () => lease.renew());
    const failures = verdict.ok ? 0 : (previousOutcome?.consecutiveFailures ?? 0) + 1;
    // A refusal (bad label, unknown profile, bad key) will not go away by itself: the regular
    // interval keeps trying, and a settings change runs at once.
    const retryable = !verdict.ok && (verdict.reason === 'lookup' || isTransientKind(verdict.reason));
    const retryMinutes = retryable ? registrationRetryMinutes(failures, settings.intervalMinutes) : null;
    const nextAttemptAt = retryMinutes === null ? undefined : now() + retryMinutes * 60_000;
    const outcome: RegistrationOutcome = {
      at: now(),
      ok: verdict.ok,
      ...(verdict.ip === undefined ? {} : { ip: verdict.ip }),
      message: verdict.message,
      ...(verdict.reason === undefined ? {} : { reason: verdict.reason }),
      consecutiveFailures: failures,
      ...(nextAttemptAt === undefined ? {} : { nextAttemptAt }),
    };
    await registrationOutcomeItem.setValue(outcome);
    if (nextAttemptAt !== undefined && settings.enabled) {
      await deps.alarms.create(REGISTRATION_RETRY_ALARM, { when: nextAttemptAt });
    } else {
      await deps.alarms.clear(REGISTRATION_RETRY_ALARM);
    }
    return outcome;
  } finally {
    await lease.release();
  }
}

async function registerWithSettings(
  deps: DynamicIpDeps,
  settings: DynamicIpSettings,
  now: () => number,
  renewLease: () => Promise<boolean>,
) {
  const label = validateNetworkLabel(settings.label);
  if (!label.ok)
    return {
      ok: false,
      message: t('registration.notRegistered', { reason: label.message }),
      reason: 'invalid-input',
    };
  // One reading of the settings for the account and its client: an address is only ever
  // deleted through the client of the account it was registered with.
  const { identity, client } = await deps.getAccount();
  let profile: string | undefined;
  if (capabilitiesOf(identity.form).profileSelection) {
    const checked = validateProfileReference(settings.profile);
    if (!checked.ok)
      return {
        ok: false,
        message: t('registration.notRegistered', { reason: checked.message }),
        reason: 'invalid-input',
      };
    profile = checked.value;
  }
  if (!client) {
    return {
      ok: false,
      message: t('registration.noKey'),
      reason: 'no-key',
    };
  }
  // A lookup has no effect at the service, so it goes on even if the lease was lost; the add
  // after it checks the lease again.
  const renewingFetch: typeof fetch = async (input, init) => {
    await renewLease();
    return deps.fetch(input, init);
  };
  const result = await runRegistration({
    lookup: () => lookupPublicIpv4(settings.lookupUrls, renewingFetch),
    beforeStep: renewLease,
    client,
    target: { label: label.value, profile, account: identity.id },
    registered: await registeredAddressesItem.getValue(),
    removePrevious: settings.removePrevious,
    now: now(),
  });
  await registeredAddressesItem.setValue(result.registered);
  return result.verdict;
}
