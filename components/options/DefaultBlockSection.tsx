import { useEffect, useId, useState } from 'preact/hooks';
import { defaultBlockItem } from '@/lib/settings/storage';
import { StatusMessage } from '../StatusMessage';
import { useRemoteAction } from '../useRemoteAction';
import { PROPAGATION_NOTE, scopePhrase, useAccount } from './account-context';
import { ScopeNote } from './ScopeNote';

type Known = { enabled: boolean; at: number } | null;

const when = (at: number) =>
  new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The service can switch default block on and off but not report it, so the state shown is the
 * one last set from this browser; otherwise it is said to be unknown rather than guessed.
 */
export function DefaultBlockSection() {
  const { client, form, profile, scope, now = Date.now } = useAccount();
  const { status, run, busy } = useRemoteAction();
  const [known, setKnown] = useState<Known>(null);
  const [pending, setPending] = useState<boolean | null>(null);
  const headingId = useId();
  const switchId = useId();
  const stateId = useId();

  useEffect(() => {
    const show = (all: Record<string, { enabled: boolean; at: number }>) => setKnown(all[scope] ?? null);
    void defaultBlockItem.getValue().then(show);
    return defaultBlockItem.watch(show);
  }, [scope]);

  const set = async (enabled: boolean) => {
    setPending(enabled);
    await run(
      `Turning default block ${enabled ? 'on' : 'off'} for ${scopePhrase(form, profile)}…`,
      async () => {
        await client.setDefaultBlock(enabled, profile);
        const all = await defaultBlockItem.getValue();
        await defaultBlockItem.setValue({ ...all, [scope]: { enabled, at: now() } });
      },
      () =>
        enabled
          ? `Default block is on for ${scopePhrase(form, profile)}: only whitelisted domains are allowed. ${PROPAGATION_NOTE}`
          : `Default block is off for ${scopePhrase(form, profile)}. ${PROPAGATION_NOTE}`,
    );
    setPending(null);
  };

  const checked = pending ?? known?.enabled ?? false;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Default block</h2>
      <ScopeNote />
      <p class="hint">
        When default block is on, every domain is blocked unless it is on the whitelist. Use it for a
        locked-down device, then whitelist the sites it may visit.
      </p>
      <div class="switch-row">
        <input
          id={switchId}
          type="checkbox"
          role="switch"
          checked={checked}
          aria-checked={checked}
          aria-describedby={stateId}
          aria-disabled={busy}
          onClick={(event) => {
            if (busy) event.preventDefault();
          }}
          onChange={(event) => void set(event.currentTarget.checked)}
        />
        <label for={switchId}>Block everything not on the whitelist</label>
      </div>
      <p id={stateId} class="default-block-state">
        {known === null
          ? 'Current state: not known: set from another place (the service cannot report it). Switching here sets it.'
          : `Current state: ${known.enabled ? 'on' : 'off'}, set from this browser on ${when(known.at)}.`}
      </p>
      {known === null ? (
        <button type="button" aria-disabled={busy} onClick={() => void set(false)}>
          Make sure default block is off
        </button>
      ) : null}
      <StatusMessage status={status} />
    </section>
  );
}
