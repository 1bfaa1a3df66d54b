import { useId, useState } from 'preact/hooks';
import { messageLocale, t } from '@/lib/i18n';
import { activeRuleOwning } from '@/lib/schedules/manual';
import { rememberDefaultBlock } from '@/lib/settings/local-records';
import { defaultBlockItem } from '@/lib/settings/storage';
import { type OwnedChange, ScheduleOwnedNotice } from '../ScheduleOwnedNotice';
import { StatusMessage } from '../StatusMessage';
import { useRemoteAction } from '../useRemoteAction';
import { useStoredValue } from '../useStoredValue';
import { propagationNote, scopePhrase, useAccount } from './account-context';
import { ScopeNote } from './ScopeNote';

type Known = { enabled: boolean; at: number } | null;

const when = (at: number) =>
  new Date(at).toLocaleString(messageLocale(), { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The service can switch default block on and off but not report it, so the state shown is the
 * one last set from this browser; otherwise it is said to be unknown rather than guessed.
 *
 * Three states, drawn as three: on, off, and not known. The control is a tri-state checkbox
 * (`indeterminate`, announced as "mixed"): while the state is not known it is drawn neither on
 * nor off, and a click sets it on; "Make sure default block is off" sets it off.
 */
export function DefaultBlockSection() {
  const { client, form, profile, scope, onSettingChanged, now = Date.now } = useAccount();
  const { status, run, busy } = useRemoteAction();
  const known: Known = useStoredValue(defaultBlockItem, null)?.[scope] ?? null;
  const [pending, setPending] = useState<boolean | null>(null);
  // A schedule owns default block here: it says so (docs/schedules.md, "Manual changes").
  const [owned, setOwned] = useState<OwnedChange | null>(null);
  const headingId = useId();
  const switchId = useId();
  const stateId = useId();

  const set = async (enabled: boolean) => {
    setPending(enabled);
    setOwned(null);
    const where = scopePhrase(form, profile);
    const done = await run(
      t(enabled ? 'defaultBlock.turningOn' : 'defaultBlock.turningOff', { scope: where }),
      async () => {
        await client.setDefaultBlock(enabled, profile);
        await rememberDefaultBlock(scope, enabled, now());
        const change = { op: 'set-default-block', enabled, source: 'options' } as const;
        // Default block itself changed whatever happens to a queued change: its failure is not this action's.
        await Promise.resolve(
          onSettingChanged?.(profile === undefined ? change : { ...change, profile }),
        ).catch(() => undefined);
        return true;
      },
      () =>
        t(enabled ? 'defaultBlock.isOn' : 'defaultBlock.isOff', { scope: where, note: propagationNote() }),
    );
    setPending(null);
    const owner = done ? await activeRuleOwning(profile, { kind: 'default-block' }, now()) : null;
    if (owner) setOwned({ ...owner, what: t('defaultBlock.heading') });
  };

  const shown: boolean | null = pending ?? known?.enabled ?? null;
  const checked = shown === true;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('defaultBlock.heading')}</h2>
      <ScopeNote />
      <p class="hint">{t('defaultBlock.about')}</p>
      <div class="switch-row">
        <input
          id={switchId}
          type="checkbox"
          class="switch"
          checked={checked}
          indeterminate={shown === null}
          aria-describedby={stateId}
          aria-disabled={busy}
          onClick={(event) => {
            if (busy) event.preventDefault();
          }}
          onChange={(event) => void set(event.currentTarget.checked)}
        />
        <label for={switchId}>{t('defaultBlock.switch')}</label>
        {/* The same state as the sentence below (its description), at a glance. */}
        <span
          aria-hidden="true"
          class={`badge ${known === null ? 'badge-unknown' : known.enabled ? 'badge-blocked' : 'badge-allowed'}`}
        >
          {t(
            known === null
              ? 'defaultBlock.badgeUnknown'
              : known.enabled
                ? 'defaultBlock.badgeOn'
                : 'defaultBlock.badgeOff',
          )}
        </span>
      </div>
      <p id={stateId} class="default-block-state">
        {known === null
          ? t('defaultBlock.unknown')
          : t(known.enabled ? 'defaultBlock.knownOn' : 'defaultBlock.knownOff', { when: when(known.at) })}
      </p>
      {known === null ? (
        <button type="button" class="btn-secondary" aria-disabled={busy} onClick={() => void set(false)}>
          {t('defaultBlock.makeSureOff')}
        </button>
      ) : null}
      <StatusMessage status={status} />
      {owned && <ScheduleOwnedNotice {...owned} />}
    </section>
  );
}
