import { useEffect, useState } from 'preact/hooks';
import type { Membership } from '@/lib/cache/list-changes';
import {
  endTimeText,
  findTemporaryAllow,
  TEMPORARY_ALLOW_CHOICES,
  timeLeftText,
} from '@/lib/diagnosis/temporary-allow-choices';
import { t } from '@/lib/i18n';
import type { ChangeOutcome, TemporaryAllowResponse } from '@/lib/messaging/protocol';
import {
  accountChanged,
  askWorkerToAllow,
  keepAllowedRequest,
  type AllowRequest as Request,
  temporaryAllowRequest,
} from '@/lib/popup/worker-requests';
import type { TemporaryAllow as TemporaryAllowEntry } from '@/lib/settings/storage';

/** The current time, ticking while something on screen counts down. */
function useClock(ticking: boolean, now: () => number): number {
  const [time, setTime] = useState(now);
  useEffect(() => {
    if (!ticking) return;
    setTime(now());
    const timer = setInterval(() => setTime(now()), 1000);
    return () => clearInterval(timer);
  }, [ticking, now]);
  return ticking ? time : now();
}

export interface TemporaryAllowProps {
  domain: string;
  /** Form A profile; undefined in Form B. */
  profile: string | undefined;
  /** The account identity (lib/identity/identity.ts): an allow made in another account is not this one's. */
  account: string;
  /** Where the popup's lists put the domain; null while unknown. */
  membership: Membership | null;
  allows: readonly TemporaryAllowEntry[];
  /** The account the popup shows, which the request names (the controller's `shownAccountId`). */
  shownAccount: () => Promise<string | null>;
  ask?: (request: Request) => Promise<TemporaryAllowResponse>;
  now?: () => number;
}

/**
 * "Allow for a while: 1 hour · 8 hours · 24 hours" for a domain, or, while it is allowed for a while, the
 * time left and a button to keep it for good. Not offered for a domain already on the whitelist.
 */
export function TemporaryAllow({
  domain,
  profile,
  account,
  membership,
  allows,
  shownAccount,
  ask = askWorkerToAllow,
  now = Date.now,
}: TemporaryAllowProps) {
  const running = findTemporaryAllow(allows, { domain, profile, account });
  const time = useClock(running !== undefined, now);
  const [outcome, setOutcome] = useState<ChangeOutcome | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async (request: (accountId: string) => Request) => {
    if (busy) return;
    setBusy(true);
    setOutcome({ state: 'pending', message: t('popup.temporaryAllow.sending') });
    const accountId = await shownAccount();
    setOutcome(accountId === null ? accountChanged() : await ask(request(accountId)));
    setBusy(false);
  };
  const allow = (durationMs: number) =>
    send((accountId) => temporaryAllowRequest(domain, profile, durationMs, membership, accountId));
  const keep = () => send((accountId) => keepAllowedRequest(domain, profile, accountId));

  const status = (
    <p
      role="status"
      aria-label={t('popup.temporaryAllow.region', { domain })}
      class={`small status-${outcome?.state ?? 'idle'}`}
    >
      {outcome?.message ?? ''}
    </p>
  );

  if (running) {
    const sentence =
      running.before === 'blocklist'
        ? 'popup.temporaryAllow.runningBackOnBlocklist'
        : 'popup.temporaryAllow.runningOffWhitelist';
    return (
      <div class="temporary-allow">
        <p class="small">
          {t(sentence, {
            domain,
            left: timeLeftText(running.expiresAt - time),
            end: endTimeText(running.expiresAt),
          })}
        </p>
        <button type="button" class="btn btn-secondary btn-sm" disabled={busy} onClick={() => void keep()}>
          {t('popup.temporaryAllow.keep', { domain })}
        </button>
        {status}
      </div>
    );
  }
  if (membership === 'whitelist') return outcome ? status : null;
  return (
    <div class="temporary-allow">
      <fieldset aria-label={t('popup.temporaryAllow.group', { domain })} class="allow-for">
        <span class="allow-for-label" aria-hidden="true">
          {t('popup.temporaryAllow.forAWhile')}
        </span>
        <span class="allow-for-choices">
          {TEMPORARY_ALLOW_CHOICES.map((choice) => (
            <button
              key={choice.ms}
              type="button"
              class="btn btn-secondary btn-sm"
              disabled={busy || membership === null}
              aria-label={t('popup.temporaryAllow.allowFor', { domain, duration: choice.label })}
              onClick={() => void allow(choice.ms)}
            >
              {choice.label}
            </button>
          ))}
        </span>
      </fieldset>
      {status}
    </div>
  );
}
