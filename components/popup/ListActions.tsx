import { useId, useState } from 'preact/hooks';
import { t, tParts } from '@/lib/i18n';
import type { ListChange } from '@/lib/messaging/protocol';
import { choosesProfile, type PopupView, typedNameMatches } from '@/lib/popup/view';
import { DomainName } from '../DomainName';
import { WarningIcon } from '../icons/Icon';
import { ProfilePicker } from './ProfilePicker';
import type { useTemporaryAllows } from './page-facts';
import type { ReadyProps } from './popup-props';
import { TemporaryAllow } from './TemporaryAllow';

/** The profile, the domain the buttons act on, Whitelist / Blocklist, and allowing for a while. */
export function ListActions({
  state,
  view,
  controller,
  allows,
  changesAllowed = true,
  extras = null,
}: Pick<ReadyProps, 'state' | 'controller'> & {
  view: PopupView;
  allows: ReturnType<typeof useTemporaryAllows>;
  /** False when the administrator's policy closes changes from the popup (lib/policy). */
  changesAllowed?: boolean;
  /** The parts loaded after the verdict; "Several profiles" opens one of them. */
  extras?: ReadyProps['extras'];
}) {
  // One change to several profiles (docs/several-profiles.md): offered where profiles can be chosen.
  const [several, setSeveral] = useState(false);
  const offersSeveral =
    changesAllowed && choosesProfile(state) && (state.profiles?.value.length ?? 0) >= 2 && !view.publicSuffix;
  const severalOpen = several && offersSeveral;
  const busy = state.change.state === 'running';
  const known = view.membership !== null;
  // A public suffix is added only once its name is typed (view.ts `publicSuffix`): what was typed
  // for another domain does not count.
  const [typed, setTyped] = useState({ domain: '', text: '' });
  const typedId = useId();
  const confirmed =
    view.publicSuffix && typed.domain === view.domain && typedNameMatches(typed.text, view.domain);
  const act = (op: ListChange['op'], list: ListChange['list']) => {
    if (view.membership === null) return;
    void controller.act(
      op,
      list,
      view.domain,
      view.membership,
      op === 'add' && confirmed ? { publicSuffixConfirmed: true } : {},
    );
  };
  // The button that would change the verdict is the filled one.
  const primary: ListChange['list'] = view.verdict?.kind === 'blocked' ? 'whitelist' : 'blocklist';
  const button = (list: ListChange['list']) => {
    const onList = view.membership === list;
    const label = onList
      ? t(list === 'whitelist' ? 'popup.removeFromWhitelist' : 'popup.removeFromBlocklist')
      : t(list === 'whitelist' ? 'popup.whitelist' : 'popup.blocklist');
    return (
      <button
        type="button"
        class={`btn ${!onList && list === primary ? 'btn-primary' : 'btn-secondary'}`}
        disabled={busy || !known || (!onList && view.publicSuffix && !confirmed)}
        onClick={() => act(onList ? 'remove' : 'add', list)}
      >
        {label}
      </button>
    );
  };

  return (
    <section class="card actions-card" aria-label={t('popup.actsOn', { domain: view.domain })}>
      {choosesProfile(state) ? (
        <div class="scope-row">
          <ProfilePicker state={state} onChoose={(profile) => void controller.chooseProfile(profile)} />
          {offersSeveral && (
            <button
              type="button"
              class="btn btn-secondary btn-sm"
              aria-expanded={severalOpen}
              onClick={() => setSeveral(!several)}
            >
              {t('profileGroups.popup.toggle')}
            </button>
          )}
        </div>
      ) : (
        <p class="scope">
          <strong>{t('popup.wholeAccountTitle')}</strong>{' '}
          <span class="muted">{t('popup.wholeAccountNote')}</span>
        </p>
      )}
      <p class="acts-on">
        {tParts('popup.actsOn', {
          domain: (
            <strong key="domain">
              <DomainName domain={view.domain} />
            </strong>
          ),
        })}
        {view.alternatives.map((choice) => (
          <span key={choice.domain} class="alternative">
            {' '}
            <span class="muted">{t('popup.switchTo')}</span>{' '}
            <button
              type="button"
              class="link"
              aria-label={choice.label}
              onClick={() => controller.chooseDomain(choice.domain)}
            >
              <DomainName domain={choice.domain} />
            </button>
          </span>
        ))}
      </p>
      {view.publicSuffix && (
        <div class="message message-warning public-suffix">
          <WarningIcon />
          <div>
            <p role="note">{t('popup.publicSuffix.note', { domain: view.domain })}</p>
            <div class="field">
              <label for={typedId}>{t('popup.publicSuffix.typeToAdd', { domain: view.domain })}</label>
              <input
                id={typedId}
                type="text"
                autoComplete="off"
                spellcheck={false}
                value={typed.domain === view.domain ? typed.text : ''}
                onInput={(event) => setTyped({ domain: view.domain, text: event.currentTarget.value })}
              />
            </div>
          </div>
        </div>
      )}
      {severalOpen && extras && (
        <extras.SeveralProfilesPanel
          domain={view.domain}
          profile={state.profile ?? 'default'}
          profiles={state.profiles?.value ?? []}
          membership={view.membership}
          page={state.host}
          shownAccount={controller.shownAccountId}
          onDelivered={() => void controller.refresh()}
        />
      )}
      {!changesAllowed ? (
        <p class="muted" role="note">
          {t('policy.refused.popup')}
        </p>
      ) : (
        !severalOpen && (
          <div class="list-buttons">
            {button('whitelist')}
            {button('blocklist')}
          </div>
        )
      )}
      {/* Never allowed for a while: no typed name stands behind a timed allow (the worker refuses one). */}
      {changesAllowed && !view.publicSuffix && !severalOpen && (
        <TemporaryAllow
          domain={view.domain}
          membership={view.membership}
          profile={state.profile}
          account={state.account}
          allows={allows}
          shownAccount={controller.shownAccountId}
        />
      )}
    </section>
  );
}
