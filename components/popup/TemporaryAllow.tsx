import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import type { Membership } from '@/lib/cache/list-changes';
import {
  endTimeText,
  findTemporaryAllow,
  TEMPORARY_ALLOW_CHOICES,
  timeLeftText,
} from '@/lib/diagnosis/temporary-allow';
import {
  type ChangeOutcome,
  changeOutcomeSchema,
  type Request,
  type TemporaryAllowResponse,
  temporaryAllowResponseSchema,
} from '@/lib/messaging/protocol';
import { type TemporaryAllow as TemporaryAllowEntry, temporaryAllowsItem } from '@/lib/settings/storage';

/** A group of buttons, not a form section: no frame around it. */
const FIELDSET_RESET = {
  border: 0,
  padding: 0,
  margin: '0.4rem 0',
  minWidth: 0,
  flexWrap: 'wrap',
  alignItems: 'center',
} as const;
const NO_WRAP = { whiteSpace: 'nowrap' } as const;

const NO_ANSWER: ChangeOutcome = {
  state: 'failed',
  message: "The extension's background service did not answer, so nothing was changed. Try again.",
};

/** Sends a request to the worker and reads its answer; never rejects. */
export async function askWorker(request: Request): Promise<TemporaryAllowResponse> {
  try {
    const answer = await browser.runtime.sendMessage(request);
    const schema = request.type === 'temporary-allow' ? temporaryAllowResponseSchema : changeOutcomeSchema;
    const parsed = schema.safeParse(answer);
    return parsed.success ? parsed.data : NO_ANSWER;
  } catch {
    return NO_ANSWER;
  }
}

/** The running temporary allows, following the worker's changes. */
export function useTemporaryAllows(): readonly TemporaryAllowEntry[] {
  const [entries, setEntries] = useState<readonly TemporaryAllowEntry[]>([]);
  useEffect(() => {
    let live = true;
    let changed = false;
    void temporaryAllowsItem.getValue().then((value) => live && !changed && setEntries(value));
    const unwatch = temporaryAllowsItem.watch((value) => {
      changed = true;
      setEntries(value);
    });
    return () => {
      live = false;
      unwatch();
    };
  }, []);
  return entries;
}

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
  /** `accountTag(connection)`: an allow made in another account is not this one's. */
  account: string;
  /** Where the popup's lists put the domain; null while unknown. */
  membership: Membership | null;
  allows: readonly TemporaryAllowEntry[];
  ask?: (request: Request) => Promise<TemporaryAllowResponse>;
  now?: () => number;
}

/**
 * "For a while: 1 hour · 8 hours · 24 hours" for a domain, or, while it is allowed for a while, the
 * time left and a button to keep it for good. Not offered for a domain already on the whitelist.
 */
export function TemporaryAllow({
  domain,
  profile,
  account,
  membership,
  allows,
  ask = askWorker,
  now = Date.now,
}: TemporaryAllowProps) {
  const running = findTemporaryAllow(allows, { domain, profile, account });
  const time = useClock(running !== undefined, now);
  const [outcome, setOutcome] = useState<ChangeOutcome | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async (request: Request) => {
    if (busy) return;
    setBusy(true);
    setOutcome({ state: 'pending', message: 'Sending…' });
    setOutcome(await ask(request));
    setBusy(false);
  };
  const allow = (durationMs: number) =>
    send({
      type: 'temporary-allow',
      domain,
      ...(profile === undefined ? {} : { profile }),
      durationMs,
      before: membership ?? 'none',
    });
  const keep = () =>
    send({
      type: 'submit-change',
      change: {
        op: 'add',
        list: 'whitelist',
        domain,
        ...(profile === undefined ? {} : { profile }),
        source: 'popup',
      },
    });

  const status = (
    <p
      role="status"
      aria-label={`Temporary allow of ${domain}`}
      class={`hint status-${outcome?.state ?? 'idle'}`}
    >
      {outcome?.message ?? ''}
    </p>
  );

  if (running) {
    const back = running.before === 'blocklist' ? 'back on the blocklist' : 'off the whitelist';
    return (
      <div class="temporary-allow">
        <p>
          {domain} is whitelisted for now: {timeLeftText(running.expiresAt - time)} left. At{' '}
          {endTimeText(running.expiresAt)} it goes {back}.
        </p>
        <button type="button" disabled={busy} onClick={() => void keep()}>
          Keep {domain} on the whitelist
        </button>
        {status}
      </div>
    );
  }
  if (membership === 'whitelist') return outcome ? status : null;
  return (
    <div class="temporary-allow">
      <fieldset aria-label={`Whitelist ${domain} for a while`} class="actions" style={FIELDSET_RESET}>
        <span class="hint">For a while:</span>
        {TEMPORARY_ALLOW_CHOICES.map((choice) => (
          <button
            key={choice.ms}
            type="button"
            disabled={busy || membership === null}
            aria-label={`Allow ${domain} for ${choice.label}`}
            style={NO_WRAP}
            onClick={() => void allow(choice.ms)}
          >
            {choice.label}
          </button>
        ))}
      </fieldset>
      {status}
    </div>
  );
}
