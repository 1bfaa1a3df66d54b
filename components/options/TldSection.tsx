import { useEffect, useId, useState } from 'preact/hooks';
import { FORM_CAPABILITIES } from '@/lib/api/client';
import { ApiError } from '@/lib/api/errors';
import { addedTldsItem } from '@/lib/settings/storage';
import { validateTld } from '@/lib/validation';
import { StatusMessage } from '../StatusMessage';
import { useRemoteAction } from '../useRemoteAction';
import { PROPAGATION_NOTE, scopePhrase, useAccount } from './account-context';
import { ScopeNote } from './ScopeNote';

/**
 * The API can block a top-level domain but neither list nor unblock one (decisions.md), so the
 * TLDs blocked from this browser are remembered here, per profile, and removal is pointed to the
 * provider's dashboard.
 */
export function TldSection() {
  const { client, form, profile, scope } = useAccount();
  const { status, run, busy } = useRemoteAction();
  const [tld, setTld] = useState('');
  const [added, setAdded] = useState<readonly string[]>([]);
  const headingId = useId();
  const inputId = useId();
  const hintId = useId();

  useEffect(() => {
    const show = (all: Record<string, string[]>) => setAdded(all[scope] ?? []);
    void addedTldsItem.getValue().then(show);
    return addedTldsItem.watch(show);
  }, [scope]);

  const block = async () => {
    const done = await run(
      `Blocking ${tld.trim()} for ${scopePhrase(form, profile)}…`,
      async () => {
        const checked = validateTld(tld);
        if (!checked.ok) throw new ApiError('invalid-input', checked.message, { field: 'tld' });
        await client.blockTld(checked.value, profile);
        const all = await addedTldsItem.getValue();
        const mine = new Set(all[scope] ?? []);
        mine.add(checked.value);
        await addedTldsItem.setValue({ ...all, [scope]: [...mine].sort() });
        return checked.value;
      },
      (blocked) =>
        `Blocked every domain under ${blocked} for ${scopePhrase(form, profile)}. ${PROPAGATION_NOTE}`,
    );
    if (done !== undefined) setTld('');
  };

  if (!FORM_CAPABILITIES[form].tldBlocking) {
    return (
      <section aria-labelledby={headingId}>
        <h2 id={headingId}>Top-level domains</h2>
        <p>
          This API form (Form B, /api/v1/) has no way to block a top-level domain. Block it in your provider's
          dashboard, or choose Form A (/api) in Setup if your account offers it.
        </p>
      </section>
    );
  }

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Top-level domains</h2>
      <ScopeNote />
      <p class="hint">Blocking a top-level domain, such as .xyz, blocks every domain under it.</p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void block();
        }}
      >
        <div class="field">
          <label for={inputId}>Top-level domain</label>
          <div class="inline">
            <input
              id={inputId}
              type="text"
              autoComplete="off"
              spellcheck={false}
              aria-describedby={hintId}
              value={tld}
              onInput={(event) => setTld(event.currentTarget.value)}
            />
            <button type="submit" aria-disabled={busy}>
              Block top-level domain
            </button>
          </div>
          <p class="hint" id={hintId}>
            With its leading dot, such as .xyz.
          </p>
        </div>
      </form>
      <StatusMessage status={status} />
      <h3>Blocked from this browser</h3>
      {added.length === 0 ? (
        <p class="hint">None yet.</p>
      ) : (
        <ul class="plain-list tld-list" aria-label="Top-level domains blocked from this browser">
          {added.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      )}
      <p class="hint">
        The service cannot list or unblock top-level domains, so only those blocked from this browser are
        shown. To unblock one, use your provider's dashboard.
      </p>
    </section>
  );
}
