import { useId, useState } from 'preact/hooks';
import { capabilitiesOf } from '@/lib/api/forms';
import { needsTypedConfirmation, typedTldMatches } from '@/lib/filtering/tld-confirmation';
import { t } from '@/lib/i18n';
import { rememberBlockedTld } from '@/lib/settings/local-records';
import { addedTldsItem } from '@/lib/settings/storage';
import { validateTld } from '@/lib/validation';
import { useConfirm } from '../ConfirmDialog';
import { StatusMessage } from '../StatusMessage';
import { useRemoteAction } from '../useRemoteAction';
import { useStoredValue } from '../useStoredValue';
import { propagationNote, scopePhrase, useAccount } from './account-context';
import { OneLineForm } from './OneLineForm';
import { ScopeNote } from './ScopeNote';

/**
 * The API can block a top-level domain but neither list nor unblock one (docs/service-api.md), so the
 * TLDs blocked from this browser are remembered here, per profile, and removal is pointed to the
 * provider's dashboard.
 */
export function TldSection({
  browserLocale = globalThis.navigator?.language ?? '',
}: {
  browserLocale?: string;
}) {
  const { client, form, profile, scope } = useAccount();
  const { status, run, busy, setStatus } = useRemoteAction();
  const { confirm, dialog } = useConfirm();
  const [tld, setTld] = useState('');
  const added = useStoredValue(addedTldsItem, null)?.[scope] ?? [];
  const headingId = useId();

  const block = async () => {
    if (busy) return;
    const checked = validateTld(tld);
    if (!checked.ok) {
      setStatus({ state: 'failed', message: checked.message });
      return;
    }
    const target = checked.value;
    // The API has no way back: only the provider's dashboard can unblock a TLD.
    const confirmed = await confirm({
      title: t('tld.confirmTitle', { tld: target }),
      message: <p>{t('tld.confirmText', { tld: target, scope: scopePhrase(form, profile) })}</p>,
      confirmLabel: t('tld.confirmBlock'),
      ...(needsTypedConfirmation(target, browserLocale)
        ? {
            typed: {
              label: t('tld.confirmType', { tld: target }),
              matches: (typed) => typedTldMatches(typed, target),
            },
          }
        : {}),
    });
    if (!confirmed) return;
    const done = await run(
      t('tld.blocking', { tld: target, scope: scopePhrase(form, profile) }),
      async () => {
        await client.blockTld(target, profile);
        await rememberBlockedTld(scope, target);
        return target;
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
      <OneLineForm
        label={t('tld.label')}
        hint={t('tld.hint')}
        value={tld}
        onInput={setTld}
        submitLabel={t('tld.block')}
        busy={busy}
        onSubmit={() => void block()}
      />
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
      {dialog}
    </section>
  );
}
