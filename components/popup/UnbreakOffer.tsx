/**
 * "Unbreak this page": what one click allows for a while (the choice lib/diagnosis/unbreak-choice.ts
 * made from the page's failed hosts), for how long, whole domains or exact hosts, and the hosts the
 * user blocked on purpose, named apart, each allowed only once ticked. Pure: the panel
 * (UnbreakPanel.tsx) passes the choice and sends the request.
 */
import { useId, useState } from 'preact/hooks';
import { TEMPORARY_ALLOW_CHOICES } from '@/lib/diagnosis/temporary-allow-choices';
import {
  entriesToAllow,
  type UnbreakChoice,
  type UnbreakRequestEntry,
  type UnbreakScope,
} from '@/lib/diagnosis/unbreak-choice';
import { formatList, t } from '@/lib/i18n';
import { MAX_UNBREAK_DOMAINS } from '@/lib/messaging/protocol';

/** The panel's parts, stacked with the popup's spacing (components/theme.css tokens). */
export const STACK = {
  display: 'flex',
  flexDirection: 'column',
  gap: 'var(--space-2, 8px)',
  margin: 0,
} as const;
export const FLAT = { margin: 0 } as const;
const ROW = {
  display: 'flex',
  flexWrap: 'wrap',
  gap: 'var(--space-2, 8px)',
  alignItems: 'center',
  margin: 0,
} as const;

/** One hour unless the user picks another, as the temporary allow's first choice in a shipped build. */
export const DEFAULT_UNBREAK_MS = 60 * 60_000;

export interface UnbreakOfferProps {
  /** Null while the lists or the registrable domains are not known yet. */
  choice: UnbreakChoice | null;
  scope: UnbreakScope;
  onScope(scope: UnbreakScope): void;
  busy: boolean;
  onUnbreak(entries: UnbreakRequestEntry[], durationMs: number): void;
}

export function UnbreakOffer({ choice, scope, onScope, busy, onUnbreak }: UnbreakOfferProps) {
  const [confirmed, setConfirmed] = useState<ReadonlySet<string>>(new Set());
  const [durationMs, setDurationMs] = useState(DEFAULT_UNBREAK_MS);
  const durationId = useId();
  const entries = choice === null ? [] : entriesToAllow(choice, confirmed);
  const plain = choice?.allow.map((candidate) => candidate.domain) ?? [];
  const toggle = (domain: string, on: boolean) => {
    const next = new Set(confirmed);
    if (on) next.add(domain);
    else next.delete(domain);
    setConfirmed(next);
  };

  return (
    <div class="unbreak-offer" style={STACK}>
      {plain.length > 0 && (
        <p class="small" style={FLAT}>
          {t('unbreak.popup.willAllow', { domains: formatList(plain) })}
        </p>
      )}
      {choice !== null && choice.onBlocklist.length > 0 && (
        <fieldset class="unbreak-blocklisted" style={{ ...FLAT, minWidth: 0 }}>
          <legend class="small">{t('unbreak.popup.onBlocklist')}</legend>
          {choice.onBlocklist.map((candidate) => (
            <label key={candidate.domain} class="small" style={{ display: 'block' }}>
              <input
                type="checkbox"
                checked={confirmed.has(candidate.domain)}
                onChange={(event) =>
                  toggle(candidate.domain, (event.currentTarget as HTMLInputElement).checked)
                }
              />{' '}
              {t('unbreak.popup.confirmBlocklisted', {
                domain: candidate.domain,
                entry: candidate.blockedBy,
              })}
            </label>
          ))}
        </fieldset>
      )}
      <p class="small" style={ROW}>
        <label for={durationId}>{t('unbreak.popup.duration')}</label>
        <select
          id={durationId}
          class="select"
          value={String(durationMs)}
          onChange={(event) => setDurationMs(Number((event.currentTarget as HTMLSelectElement).value))}
        >
          {TEMPORARY_ALLOW_CHOICES.map((option) => (
            <option key={option.ms} value={String(option.ms)}>
              {option.label}
            </option>
          ))}
        </select>
      </p>
      <label class="small">
        <input
          type="checkbox"
          checked={scope === 'host'}
          onChange={(event) => onScope((event.currentTarget as HTMLInputElement).checked ? 'host' : 'domain')}
        />{' '}
        {t('unbreak.popup.exactHosts')}
      </label>
      <button
        type="button"
        class="btn btn-primary"
        style={{ alignSelf: 'flex-start' }}
        disabled={busy || entries.length === 0}
        onClick={() => onUnbreak(entries, durationMs)}
      >
        {t('unbreak.popup.button')}
      </button>
      {choice !== null && plain.length === 0 && choice.onBlocklist.length > 0 && entries.length === 0 && (
        <p class="muted small" style={FLAT}>
          {t('unbreak.popup.chooseOne')}
        </p>
      )}
      {choice !== null && choice.alreadyAllowed.length > 0 && (
        <p class="muted small" style={FLAT}>
          {t('unbreak.popup.alreadyAllowed', { domains: formatList(choice.alreadyAllowed) })}
        </p>
      )}
      {choice !== null && choice.publicSuffixes.length > 0 && (
        <p class="muted small" style={FLAT}>
          {t('unbreak.popup.publicSuffixes', { domains: formatList(choice.publicSuffixes) })}
        </p>
      )}
      {choice !== null && choice.leftOut.length > 0 && (
        <p class="muted small" style={FLAT}>
          {t('unbreak.popup.leftOut', { count: MAX_UNBREAK_DOMAINS, domains: formatList(choice.leftOut) })}
        </p>
      )}
    </div>
  );
}
