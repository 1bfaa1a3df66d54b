import type { FunctionComponent } from 'preact';
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { t, tn, tParts } from '@/lib/i18n';
import type { ListChange } from '@/lib/messaging/protocol';
import type { PopupController } from '@/lib/popup/controller';
import type { PopupState, ReadyState } from '@/lib/popup/state';
import { pageKnowledge } from '@/lib/popup/verdict-inputs';
import {
  choosesProfile,
  derivePopupView,
  mentionsPropagation,
  notReadyText,
  type OptionsSection,
  type PopupView,
  profileChoices,
  sectionOf,
  typedNameMatches,
} from '@/lib/popup/view';
import { AllowedIcon, ClockIcon, WarningIcon } from '../icons/Icon';
import { UnreadableNotice } from '../UnreadableNotice';
import { PopupHeader } from './PopupHeader';
import { usePageDiagnosis, useTemporaryAllows } from './page-facts';
import { TemporaryAllow } from './TemporaryAllow';
import { DomainName, type HeroTone, VerdictHero } from './VerdictHero';

export interface PopupAppProps {
  controller: PopupController;
  /** Opens the options page, at a section when one is named (`options.html#<section>`). */
  openOptions(section?: OptionsSection): void;
  /** `performance.mark` in the extension; measurements of speed read these marks. */
  mark(name: 'verdict' | 'verdict-fresh'): void;
  /** The parts shown after the verdict (./PopupExtras.tsx), loaded once the first view is on screen. */
  loadExtras(): Promise<Extras>;
  now?: () => number;
}

type Extras = typeof import('./PopupExtras');

/** The extras, once loaded; null until then (their places stay empty meanwhile). */
function useExtras(load: PopupAppProps['loadExtras']): Extras | null {
  const [extras, setExtras] = useState<Extras | null>(null);
  useEffect(() => {
    let live = true;
    void load().then((loaded) => live && setExtras(loaded));
    return () => {
      live = false;
    };
  }, [load]);
  return extras;
}

function useControllerState(controller: PopupController): PopupState {
  const [state, setState] = useState(controller.getState());
  useLayoutEffect(() => {
    setState(controller.getState());
    return controller.subscribe(() => setState(controller.getState()));
  }, [controller]);
  return state;
}

export function PopupApp({ controller, openOptions, mark, loadExtras, now = Date.now }: PopupAppProps) {
  const state = useControllerState(controller);
  const extras = useExtras(loadExtras);
  return (
    <>
      <PopupHeader openOptions={openOptions}>{extras && <extras.PopupAccountSwitcher />}</PopupHeader>
      <main class="popup">
        {state.phase === 'ready' ? (
          <Ready
            state={state}
            controller={controller}
            openOptions={openOptions}
            mark={mark}
            now={now}
            extras={extras}
          />
        ) : (
          <NotReady state={state} openOptions={openOptions} />
        )}
        {extras && state.phase !== 'starting' && state.phase !== 'no-key' && (
          <extras.RegistrationWarning openOptions={() => openOptions('dynamic-ip')} now={now} />
        )}
        <UnreadableNotice />
      </main>
    </>
  );
}

function NotReady({
  state,
  openOptions,
}: {
  state: Exclude<PopupState, ReadyState>;
  openOptions: PopupAppProps['openOptions'];
}) {
  const tone: HeroTone = state.phase === 'failed' || state.phase === 'no-key' ? 'problem' : 'unknown';
  return (
    <VerdictHero host={null} tone={tone} headline={null} text={notReadyText(state)}>
      {state.phase === 'no-key' && (
        <button type="button" class="btn btn-primary hero-action" onClick={() => openOptions('setup')}>
          {t('popup.openSettings')}
        </button>
      )}
    </VerdictHero>
  );
}

/** Marks the first verdict and the first fresh one, once each (`mark`). */
function useVerdictMarks(view: PopupView, mark: PopupAppProps['mark']) {
  const marked = useRef({ verdict: false, fresh: false });
  useLayoutEffect(() => {
    if (view.verdict && !marked.current.verdict) {
      marked.current.verdict = true;
      mark('verdict');
    }
    if (view.fresh && !marked.current.fresh) {
      marked.current.fresh = true;
      mark('verdict-fresh');
    }
  }, [view, mark]);
}

interface ReadyProps extends Pick<PopupAppProps, 'openOptions' | 'mark'> {
  state: ReadyState;
  controller: PopupController;
  now: () => number;
  extras: Extras | null;
}

function Ready({ state, controller, openOptions, mark, now, extras }: ReadyProps) {
  // Page diagnosis is read once the page is known, so it never delays the verdict.
  const diagnosis = usePageDiagnosis(state);
  const allows = useTemporaryAllows();
  const view = useMemo(
    () => derivePopupView(state, now(), pageKnowledge(diagnosis, state.host)),
    [state, now, diagnosis],
  );
  useVerdictMarks(view, mark);
  const tone: HeroTone = view.verdict?.kind ?? (state.problem === null ? 'unknown' : 'problem');

  return (
    <>
      <VerdictHero
        host={state.host}
        tone={tone}
        headline={view.headline}
        text={view.statusText}
        details={view.details}
        reasonDomain={view.verdict && 'entry' in view.verdict ? view.verdict.entry : null}
        section={view.verdict && sectionOf(view.verdict)}
        openOptions={openOptions}
      >
        <Freshness state={state} view={view} controller={controller} openOptions={openOptions} />
      </VerdictHero>

      <ListActions state={state} view={view} controller={controller} allows={allows} />

      <Outcome state={state} view={view} controller={controller} openOptions={openOptions} />

      {extras && (
        <>
          <extras.UnbreakPanel
            state={state}
            controller={controller}
            diagnosis={diagnosis}
            allows={allows}
            now={now}
          />
          <extras.PageDiagnosisPanel
            state={state}
            controller={controller}
            diagnosis={diagnosis}
            allows={allows}
          />
        </>
      )}
    </>
  );
}

/** How current the verdict is, when it is not current, and the button that makes it so. */
function Freshness({
  state,
  view,
  controller,
  openOptions,
}: Omit<ReadyProps, 'mark' | 'now' | 'extras'> & { view: PopupView }) {
  const refresh = (state.problem !== null || !view.fresh) && !state.refreshing;
  if (state.problem?.kind === 'settings') {
    return (
      <button type="button" class="btn btn-primary hero-action" onClick={() => openOptions('setup')}>
        {t('popup.openSettings')}
      </button>
    );
  }
  if (!view.freshnessText && !refresh) return null;
  return (
    <p class="freshness">
      {view.freshnessText}{' '}
      {refresh && (
        <button type="button" class="link" onClick={() => void controller.refresh()}>
          {t('popup.refresh')}
        </button>
      )}
    </p>
  );
}

/** The profile, the domain the buttons act on, Whitelist / Blocklist, and allowing for a while. */
function ListActions({
  state,
  view,
  controller,
  allows,
}: Pick<ReadyProps, 'state' | 'controller'> & {
  view: PopupView;
  allows: ReturnType<typeof useTemporaryAllows>;
}) {
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
        <ProfilePicker state={state} onChoose={(profile) => void controller.chooseProfile(profile)} />
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
      <div class="list-buttons">
        {button('whitelist')}
        {button('blocklist')}
      </div>
      {/* Never allowed for a while: no typed name stands behind a timed allow (the worker refuses one). */}
      {!view.publicSuffix && (
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

/**
 * What became of the last click, in one place: the outcome, or the changes still waiting (one line
 * each, naming what was asked) with Send now, the note on when the filter applies them, and the
 * last attempt's failure on demand; Undo after an action.
 */
function Outcome({
  state,
  view,
  controller,
  openOptions,
}: Omit<ReadyProps, 'mark' | 'now' | 'extras'> & { view: PopupView }) {
  const busy = state.change.state === 'running';
  const undoDescription = useId();
  const waiting = view.waiting.length > 0;
  const reported = state.change.state !== 'idle' && state.change.state !== 'pending';
  const waitingList = waiting && (
    <ul class="waiting-list" aria-label={t('popup.pendingRegion')}>
      {view.waiting.map((line, index) => (
        <li key={view.pending[index]?.id ?? line}>{line}</li>
      ))}
    </ul>
  );
  const statusClass = waiting && !reported ? 'pending' : state.change.state;
  const look = OUTCOME_LOOKS[statusClass];
  const outcome = (
    <div class={`outcome-area ${look ? `message ${look.class}` : ''}`}>
      {look && <look.Icon />}
      <div class="outcome-body">
        <div role="status" aria-label={t('popup.outcomeRegion')} class={`outcome status-${statusClass}`}>
          {reported || !waiting ? state.change.message : waitingList}
        </div>
        {reported && waitingList}
        {state.change.state === 'delivered' && !mentionsPropagation(state.change.message) && (
          <p class="muted small">{t('popup.propagation')}</p>
        )}
        {(waiting || state.change.state === 'pending') && <p class="muted small">{t('popup.waitingNote')}</p>}
        {(waiting || (state.undo && !busy)) && (
          <div class="outcome-buttons">
            {waiting && (
              <button
                type="button"
                class="btn btn-secondary btn-sm"
                disabled={busy}
                onClick={() => void controller.sendPendingNow(view.pending.map((entry) => entry.id))}
              >
                {t('popup.sendNow')}
              </button>
            )}
            {state.undo && !busy && (
              <>
                <button
                  type="button"
                  class="btn btn-secondary btn-sm"
                  aria-describedby={undoDescription}
                  onClick={() => void controller.undo()}
                >
                  {t('popup.undo')}
                </button>
                <span id={undoDescription} class="visually-hidden">
                  {state.undo.description}
                </span>
              </>
            )}
          </div>
        )}
      </div>
    </div>
  );
  return (
    <>
      {outcome}
      {view.recentFailure && state.change.state === 'idle' && (
        <p class="status-failed">{view.recentFailure.message}</p>
      )}
      {view.otherAccounts > 0 && (
        <p class="muted small">
          {tn('popup.otherAccountChanges', view.otherAccounts)}{' '}
          <button type="button" class="link" onClick={() => openOptions('other-accounts')}>
            {t('popup.otherAccountChangesOpen')}
          </button>
        </p>
      )}
    </>
  );
}

/** How each outcome looks: waiting and refused ones stand out; a running one does not. */
const OUTCOME_LOOKS: Partial<
  Record<ReadyState['change']['state'], { class: string; Icon: FunctionComponent }>
> = {
  pending: { class: 'message-warning', Icon: ClockIcon },
  delivered: { class: 'message-done', Icon: AllowedIcon },
  failed: { class: 'message-failed', Icon: WarningIcon },
};

function ProfilePicker({ state, onChoose }: { state: ReadyState; onChoose(profile: string): void }) {
  const { chosen, options } = profileChoices(state);
  return (
    <p class="scope">
      <label>
        <span class="muted">{t('popup.profile')}</span>{' '}
        <select
          class="select"
          value={chosen}
          onChange={(event) => onChoose((event.currentTarget as HTMLSelectElement).value)}
        >
          {options.map((profile) => (
            <option key={profile} value={profile}>
              {profile}
            </option>
          ))}
        </select>
      </label>
    </p>
  );
}
