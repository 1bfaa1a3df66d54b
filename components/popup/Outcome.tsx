import type { FunctionComponent } from 'preact';
import { useId } from 'preact/hooks';
import { t, tn } from '@/lib/i18n';
import type { ReadyState } from '@/lib/popup/state';
import { mentionsPropagation, type PopupView } from '@/lib/popup/view';
import { AllowedIcon, ClockIcon, WarningIcon } from '../icons/Icon';
import type { ReadyProps } from './popup-props';

/**
 * What became of the last click, in one place: the outcome, or the changes still waiting (one line
 * each, naming what was asked) with Send now, the note on when the filter applies them, and the
 * last attempt's failure on demand; Undo after an action.
 */
export function Outcome({
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
