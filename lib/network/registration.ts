/**
 * Dynamic IP re-registration (docs/service-api.md, "Re-registration"): find the public IPv4, add it
 * with the fixed label and profile, then delete the address this browser registered before.
 *
 * `decideRegistration` is the whole policy as a pure step function: given what has happened so
 * far, it says what to do next. `runRegistration` performs the steps it asks for.
 */
import { ApiError, isApiError, isTransientKind } from '@/lib/api/errors';
import type { DnsFilterApi } from '@/lib/api/types';
import { t } from '@/lib/i18n';
import type { RegisteredAddress } from '@/lib/settings/storage';
import type { LookupResult } from './ip-lookup';

export interface RegistrationTarget {
  label: string;
  /** Form A profile; undefined in Form B (whole account). */
  profile: string | undefined;
  /** The account identity (lib/identity/identity.ts): deletions only ever happen in the account that registered. */
  account: string;
}

export interface RegisteredState {
  current: RegisteredAddress | null;
  stale: RegisteredAddress[];
}

export type StepResult = { ok: true } | { ok: false; error: ApiError };

export interface RegistrationFacts {
  lookup: LookupResult;
  target: RegistrationTarget;
  registered: RegisteredState;
  removePrevious: boolean;
  now: number;
  /** Result of `network/add`, once tried. */
  add?: StepResult;
  /** Results of the deletions tried so far, by `addressKey`. */
  deletions?: Record<string, StepResult>;
}

export interface RegistrationVerdict {
  ok: boolean;
  ip?: string;
  message: string;
  /** Failure kind: 'lookup' or an ApiError kind; absent on success. */
  reason?: string;
}

export type RegistrationDecision =
  | { next: 'add'; entry: { ip: string; label: string; profile?: string } }
  | { next: 'delete'; address: RegisteredAddress }
  | { next: 'done'; verdict: RegistrationVerdict; registered: RegisteredState };

export function addressKey(address: Pick<RegisteredAddress, 'ip' | 'profile' | 'account'>): string {
  return `${address.account}|${address.profile ?? ''}|${address.ip}`;
}

export function isTransient(error: ApiError): boolean {
  return isTransientKind(error.kind);
}

/**
 * Whether deleting `old` could remove the registration just made. In Form B a deletion names
 * only the IP, so the same IP is never deleted; in Form A the same IP under another profile is a
 * different entry (the profile was changed in the settings) and goes.
 */
function coversNewRegistration(old: RegisteredAddress, ip: string, target: RegistrationTarget): boolean {
  if (old.ip !== ip) return false;
  return old.profile === undefined || target.profile === undefined || old.profile === target.profile;
}

function registeredText(ip: string, target: RegistrationTarget): string {
  return target.profile === undefined
    ? t('registration.registered', { ip, label: target.label })
    : t('registration.registeredProfile', { ip, label: target.label, profile: target.profile });
}

/**
 * Addresses this browser registered with other accounts (another key, origin or form): kept, so
 * they are deleted from their own account once it is configured again, and never from this one.
 */
function otherAccounts(registered: RegisteredState, target: RegistrationTarget): RegisteredAddress[] {
  return registeredAddresses(registered).filter((address) => address.account !== target.account);
}

/** The addresses of `registered`, the current one first. */
export function registeredAddresses(registered: RegisteredState): RegisteredAddress[] {
  return [registered.current, ...registered.stale].filter((address) => address !== null);
}

/** "Not registered: `why`", with the failure's kind: 'lookup', 'invalid-input' or an ApiError kind. */
export function notRegistered(why: string, reason: string, ip?: string): RegistrationVerdict {
  const message = t('registration.notRegistered', { reason: why });
  return { ok: false, ...(ip === undefined ? {} : { ip }), message, reason };
}

/** The pure policy. Never deletes before a successful add, and never deletes what it just added. */
export function decideRegistration(facts: RegistrationFacts): RegistrationDecision {
  const { lookup, target, registered } = facts;
  if (!lookup.ok) return { next: 'done', verdict: notRegistered(lookup.message, 'lookup'), registered };
  const ip = lookup.ip;
  if (!facts.add) {
    const { label, profile } = target;
    return { next: 'add', entry: profile === undefined ? { ip, label } : { ip, label, profile } };
  }
  if (!facts.add.ok) {
    const { error } = facts.add;
    return { next: 'done', verdict: notRegistered(error.message, error.kind, ip), registered };
  }

  // Earlier addresses of this account, the current one first; what was just added is not one.
  const earlier = registeredAddresses(registered).filter(
    (address) => address.account === target.account && !coversNewRegistration(address, ip, target),
  );
  const unique = [...new Map(earlier.map((address) => [addressKey(address), address])).values()];
  const toDelete = facts.removePrevious ? unique : [];
  const deletions = facts.deletions ?? {};
  const untried = toDelete.find((address) => deletions[addressKey(address)] === undefined);
  if (untried) return { next: 'delete', address: untried };

  const removed: string[] = [];
  const kept: RegisteredAddress[] = [];
  const problems: string[] = [];
  for (const address of toDelete) {
    const result = deletions[addressKey(address)]!;
    if (result.ok) removed.push(address.ip);
    else if (isTransient(result.error)) {
      kept.push(address);
      problems.push(t('registration.notRemovedYet', { ip: address.ip, reason: result.error.message }));
    } else {
      // Refused, most likely because it is already gone: retrying would fail the same way.
      problems.push(t('registration.notRemoved', { ip: address.ip, reason: result.error.message }));
    }
  }
  const current: RegisteredAddress = {
    ip,
    ...(target.profile === undefined ? {} : { profile: target.profile }),
    account: target.account,
    at: facts.now,
  };
  const parts = [registeredText(ip, target)];
  if (removed.length > 0) parts.push(t('registration.removedPrevious', { ips: removed.join(', ') }));
  parts.push(...problems);
  return {
    next: 'done',
    verdict: { ok: true, ip, message: t('registration.joined', { parts: parts.join('; ') }) },
    registered: { current, stale: [...kept, ...otherAccounts(registered, target)].slice(0, 10) },
  };
}

export interface RunRegistrationInput
  extends Pick<RegistrationFacts, 'target' | 'registered' | 'removePrevious' | 'now'> {
  lookup: () => Promise<LookupResult>;
  client: DnsFilterApi;
  /**
   * Called before each call to the service (renews the registration lease); false means the run
   * lost its lease, and the calls not made yet are recorded as interrupted instead of made.
   */
  beforeStep?: () => Promise<boolean>;
}

async function attempt(call: () => Promise<void>): Promise<StepResult> {
  try {
    await call();
    return { ok: true };
  } catch (error) {
    const unexpected = () => new ApiError('unexpected', t('registration.internalFailure'));
    return { ok: false, error: isApiError(error) ? error : unexpected() };
  }
}

/** Performs the steps `decideRegistration` asks for; never throws. */
export async function runRegistration(
  input: RunRegistrationInput,
): Promise<{ verdict: RegistrationVerdict; registered: RegisteredState }> {
  const { lookup, client, beforeStep, ...given } = input;
  const facts: RegistrationFacts = { ...given, lookup: await lookup() };
  // Each step adds one fact, so the number of steps is bounded by the addresses known.
  for (;;) {
    const decision = decideRegistration(facts);
    if (decision.next === 'done') return { verdict: decision.verdict, registered: decision.registered };
    // An interrupted step is a transient failure: nothing added is forgotten (the new address
    // becomes current), and an earlier address not deleted yet stays for the next run.
    const mayGoOn = beforeStep ? await beforeStep() : true;
    const interrupted: StepResult = {
      ok: false,
      error: new ApiError('aborted', t('registration.overtaken')),
    };
    if (decision.next === 'add') {
      const { entry } = decision;
      facts.add = mayGoOn ? await attempt(() => client.addNetwork(entry)) : interrupted;
    } else {
      const { address } = decision;
      const { ip, profile } = address;
      const entry = profile === undefined ? { ip } : { ip, profile };
      const result = mayGoOn ? await attempt(() => client.deleteNetwork(entry)) : interrupted;
      facts.deletions = { ...facts.deletions, [addressKey(address)]: result };
    }
  }
}

/**
 * Minutes until the next try after `consecutiveFailures` failures in a row: 1, 2, 4, 8 … but
 * never later than the regular interval. Null when the regular alarm comes first anyway.
 */
export function registrationRetryMinutes(
  consecutiveFailures: number,
  intervalMinutes: number,
): number | null {
  if (consecutiveFailures < 1) return null;
  const delay = 2 ** Math.min(consecutiveFailures - 1, 20);
  return delay >= intervalMinutes ? null : delay;
}

/**
 * The badge warns once registration has been failing: two failures in a row (one may be a blip
 * that the retry a minute later fixes), or a refusal by the service, which no retry will fix.
 */
export function registrationIsFailing(
  outcome: { ok: boolean; reason?: string; consecutiveFailures: number } | null,
): boolean {
  if (!outcome || outcome.ok) return false;
  const refused = outcome.reason === 'service' || outcome.reason === 'bad-key' || outcome.reason === 'no-key';
  return refused || outcome.consecutiveFailures >= 2;
}
