import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { listName } from '@/lib/api/attempts';
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
  type PopupView,
  profileChoices,
} from '@/lib/popup/view';
import { PageDiagnosisPanel, usePageDiagnosis } from './PageDiagnosisPanel';
import { PopupAccountSwitcher } from './PopupAccountSwitcher';
import { RegistrationWarning } from './RegistrationWarning';

export interface PopupAppProps {
  controller: PopupController;
  openOptions(): void;
  /** `performance.mark` in the extension; measurements of speed read these marks. */
  mark(name: 'verdict' | 'verdict-fresh'): void;
  now?: () => number;
}

function useControllerState(controller: PopupController): PopupState {
  const [state, setState] = useState(controller.getState());
  useLayoutEffect(() => {
    setState(controller.getState());
    return controller.subscribe(() => setState(controller.getState()));
  }, [controller]);
  return state;
}

export function PopupApp({ controller, openOptions, mark, now = Date.now }: PopupAppProps) {
  const state = useControllerState(controller);
  return (
    <main class="popup">
      {state.phase === 'ready' ? (
        <Ready state={state} controller={controller} openOptions={openOptions} mark={mark} now={now} />
      ) : (
        <NotReady state={state} openOptions={openOptions} />
      )}
      {state.phase !== 'starting' && state.phase !== 'no-key' && (
        <RegistrationWarning openOptions={openOptions} now={now} />
      )}
    </main>
  );
}

function NotReady({ state, openOptions }: { state: Exclude<PopupState, ReadyState>; openOptions(): void }) {
  return (
    <>
      <p role="status" aria-label={t('popup.verdictRegion')} class="verdict">
        {notReadyText(state)}
      </p>
      {state.phase === 'no-key' && (
        <button type="button" class="primary" onClick={openOptions}>
          {t('popup.openSettings')}
        </button>
      )}
    </>
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
}

function Ready({ state, controller, openOptions, mark, now }: ReadyProps) {
  // Page diagnosis is read once the page is known, so it never delays the verdict.
  const diagnosis = usePageDiagnosis(state);
  const view = useMemo(
    () => derivePopupView(state, now(), pageKnowledge(diagnosis, state.host)),
    [state, now, diagnosis],
  );
  useVerdictMarks(view, mark);
  const busy = state.change.state === 'running';
  const verdictClass = view.verdict === null ? 'unknown' : view.verdict.kind;
  const act = (op: ListChange['op'], list: ListChange['list']) => {
    if (view.membership !== null) void controller.act(op, list, view.domain, view.membership);
  };

  return (
    <>
      <header>
        <PopupAccountSwitcher />
        <p class="domain-line">
          {tParts('popup.actsOn', { domain: <strong class="domain">{view.domain}</strong> })}
        </p>
        {view.alternatives.map((choice) => (
          <button
            key={choice.domain}
            type="button"
            class="link"
            onClick={() => controller.chooseDomain(choice.domain)}
          >
            {choice.label}
          </button>
        ))}
      </header>

      {choosesProfile(state) ? (
        <ProfilePicker state={state} onChoose={(profile) => void controller.chooseProfile(profile)} />
      ) : (
        <p class="scope">
          <strong>{t('popup.wholeAccountTitle')}</strong> {t('popup.wholeAccountNote')}
        </p>
      )}

      <p role="status" aria-label={t('popup.verdictRegion')} class={`verdict verdict-${verdictClass}`}>
        {view.statusText}
      </p>
      {view.freshnessText && <p class="hint">{view.freshnessText}</p>}
      {state.statsProblem && view.verdict?.reason === 'none' && (
        <p class="hint">{t('popup.statsUnreadable', { reason: state.statsProblem })}</p>
      )}
      {state.problem?.kind === 'settings' ? (
        <button type="button" onClick={openOptions}>
          {t('popup.openSettings')}
        </button>
      ) : (
        (state.problem || !view.fresh) &&
        !state.refreshing && (
          <button type="button" class="link" onClick={() => void controller.refresh()}>
            {t('popup.refresh')}
          </button>
        )
      )}

      <div class="actions">
        {view.membership === 'whitelist' ? (
          <button type="button" disabled={busy} onClick={() => act('remove', 'whitelist')}>
            {t('popup.removeFromWhitelist')}
          </button>
        ) : (
          <button
            type="button"
            disabled={busy || view.membership === null}
            onClick={() => act('add', 'whitelist')}
          >
            {t('popup.whitelist')}
          </button>
        )}
        {view.membership === 'blocklist' ? (
          <button type="button" disabled={busy} onClick={() => act('remove', 'blocklist')}>
            {t('popup.removeFromBlocklist')}
          </button>
        ) : (
          <button
            type="button"
            disabled={busy || view.membership === null}
            onClick={() => act('add', 'blocklist')}
          >
            {t('popup.blocklist')}
          </button>
        )}
      </div>

      <PageDiagnosisPanel state={state} view={view} controller={controller} diagnosis={diagnosis} />

      {view.pending.length > 0 && (
        <>
          <ul class="pending" aria-label={t('popup.pendingRegion')}>
            {view.pending.map((entry) => (
              <li key={entry.id}>
                {t(entry.change.op === 'add' ? 'popup.pendingAdd' : 'popup.pendingRemove', {
                  list: listName(entry.change.list),
                })}
                {entry.lastError ? ` ${t('popup.lastAttempt', { reason: entry.lastError })}` : ''}
              </li>
            ))}
          </ul>
          <button
            type="button"
            disabled={busy}
            onClick={() => void controller.sendPendingNow(view.pending.map((entry) => entry.id))}
          >
            {t('popup.sendNow')}
          </button>
        </>
      )}
      {view.otherAccounts > 0 && (
        <p class="hint">
          {tn('popup.otherAccountChanges', view.otherAccounts)}{' '}
          <button type="button" onClick={openOptions}>
            {t('popup.otherAccountChangesOpen')}
          </button>
        </p>
      )}
      {view.recentFailure && state.change.state === 'idle' && (
        <p class="status-failed">{view.recentFailure.message}</p>
      )}

      <p role="status" aria-label={t('popup.outcomeRegion')} class={`outcome status-${state.change.state}`}>
        {state.change.message}
      </p>
      {(state.change.state === 'delivered' || state.change.state === 'pending') &&
        !mentionsPropagation(state.change.message) && <p class="hint">{t('popup.propagation')}</p>}
      {state.undo && !busy && (
        <p class="undo">
          <button type="button" onClick={() => void controller.undo()}>
            {t('popup.undo')}
          </button>{' '}
          <span class="hint">{state.undo.description}</span>
        </p>
      )}
    </>
  );
}

function ProfilePicker({ state, onChoose }: { state: ReadyState; onChoose(profile: string): void }) {
  const { chosen, options } = profileChoices(state);
  return (
    <p class="scope">
      <label>
        {t('popup.profile')}{' '}
        <select
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
