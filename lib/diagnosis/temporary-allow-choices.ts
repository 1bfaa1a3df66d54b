/**
 * What the popup shows of temporary allows (./temporary-allow.ts is the rest): the durations it
 * offers, the running allow of its domain, and the time left. Apart so the popup's first modules
 * stay small (docs/architecture.md, "The popup's start path: invariants").
 */

import { canonicalHost } from '@/lib/filtering/domain-index';
import { t, tn } from '@/lib/i18n';
import type { AccountId } from '@/lib/identity/identity';
import type { TemporaryAllow } from '@/lib/settings/storage';

const HOUR = 60 * 60_000;

export interface DurationChoice {
  /** The button's text: "1 hour", in the browser's language. */
  readonly label: string;
  ms: number;
}

/** A choice whose label is looked up when read, not when the module loads. */
function choice(ms: number): DurationChoice {
  return {
    get label() {
      return ms < HOUR ? tn('temporaryAllow.seconds', ms / 1000) : tn('temporaryAllow.hours', ms / HOUR);
    },
    ms,
  };
}

/**
 * The choices the popup offers. The e2e test build (DIAGNOSIS_PERMISSIONS_AT_INSTALL=1, see
 * wxt.config.ts) adds a 10-second one, so a test can watch an expiry happen.
 */
export const TEMPORARY_ALLOW_CHOICES: readonly DurationChoice[] = [
  ...(import.meta.env.DIAGNOSIS_TEST_BUILD === true ? [choice(10_000)] : []),
  choice(HOUR),
  choice(8 * HOUR),
  choice(24 * HOUR),
];

export interface TemporaryAllowTarget {
  domain: string;
  /** Form A profile; undefined in Form B. */
  profile?: string | undefined;
  /** The account identity (lib/identity/identity.ts). */
  account: AccountId;
}

export const sameTarget = (entry: TemporaryAllowTarget, target: TemporaryAllowTarget) =>
  entry.account === target.account &&
  entry.profile === target.profile &&
  canonicalHost(entry.domain) === canonicalHost(target.domain);

/** The running temporary allow of a domain in a scope, if any. */
export function findTemporaryAllow(
  entries: readonly TemporaryAllow[],
  target: TemporaryAllowTarget,
): TemporaryAllow | undefined {
  return entries.find((entry) => sameTarget(entry, target));
}

/** "7 h 59 min", "59 min", "45 s": what is left, rounded up so it never reads 0 while running. */
export function timeLeftText(ms: number): string {
  if (ms <= 0) return t('temporaryAllow.noTime');
  if (ms < 60_000) return t('temporaryAllow.leftSeconds', { count: Math.ceil(ms / 1000) });
  const minutes = Math.ceil(ms / 60_000);
  if (minutes < 60) return t('temporaryAllow.leftMinutes', { count: minutes });
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0
    ? t('temporaryAllow.leftHours', { count: hours })
    : t('temporaryAllow.leftHoursMinutes', { hours, minutes: rest });
}

/** The clock time an allow ends, in the user's locale. */
export function endTimeText(at: number): string {
  return new Date(at).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}
