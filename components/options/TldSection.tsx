import { useId, useState } from 'preact/hooks';
import { ApiError } from '@/lib/api/errors';
import { capabilitiesOf } from '@/lib/api/forms';
import { t } from '@/lib/i18n';
import { rememberBlockedTld } from '@/lib/settings/local-records';
import { addedTldsItem } from '@/lib/settings/storage';
import { validateTld } from '@/lib/validation';
import { StatusMessage } from '../StatusMessage';
import { useRemoteAction } from '../useRemoteAction';
import { useStoredValue } from '../useStoredValue';
import { propagationNote, scopePhrase, useAccount } from './account-context';
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
  const added = useStoredValue(addedTldsItem, null)?.[scope] ?? [];
  const headingId = useId();
  const inputId = useId();
  const hintId = useId();

  const block = async () => {
    const done = await run(
      t('tld.blocking', { tld: tld.trim(), scope: scopePhrase(form, profile) }),
      async () => {
        const checked = validateTld(tld);
        if (!checked.ok) throw new ApiError('invalid-input', checked.message, { field: 'tld' });
        await client.blockTld(checked.value, profile);
        await rememberBlockedTld(scope, checked.value);
        return checked.value;
      },
      (blocked) =>
        t('tld.blocked', { tld: blocked, scope: scopePhrase(form, profile), note: propagationNote() }),
    );
    if (done !== undefined) setTld('');
  };

  if (!capabilitiesOf(form).tldBlocking) {
    return (
      <section aria-labelledby={headingId}>
        <h2 id={headingId}>{t('tld.heading')}</h2>
        <p>{t('tld.notInFormB')}</p>
      </section>
    );
  }

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('tld.heading')}</h2>
      <ScopeNote />
      <p class="hint">{t('tld.about')}</p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void block();
        }}
      >
        <div class="field">
          <label for={inputId}>{t('tld.label')}</label>
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
              {t('tld.block')}
            </button>
          </div>
          <p class="hint" id={hintId}>
            {t('tld.hint')}
          </p>
        </div>
      </form>
      <StatusMessage status={status} />
      <h3>{t('tld.blockedHere')}</h3>
      {added.length === 0 ? (
        <p class="hint">{t('tld.noneYet')}</p>
      ) : (
        <ul class="plain-list tld-list" aria-label={t('tld.listName')}>
          {added.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      )}
      <p class="hint">{t('tld.cannotList')}</p>
    </section>
  );
}
