import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ListChange } from '@/lib/messaging/protocol';
import { type PageDiagnosis, PageDiagnosisPanel, pageKnowledge, usePageDiagnosis } from './FailedHostsList';
import type { PopupController, PopupState, ReadyState } from './popup-controller';
import { derivePopupView, type PopupView } from './popup-view';

const PROPAGATION_REMINDER =
  'Changes reach the resolvers within 30 to 45 minutes: reloading the page may not show the effect before then.';

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
  const host = state.phase === 'ready' ? state.host : null;
  const diagnosis = usePageDiagnosis(host);
  const view = useMemo(
    () => (state.phase === 'ready' ? derivePopupView(state, now(), pageKnowledge(diagnosis, host)) : null),
    [state, now, diagnosis, host],
  );

  const marked = useRef({ verdict: false, fresh: false });
  useLayoutEffect(() => {
    if (view?.verdict && !marked.current.verdict) {
      marked.current.verdict = true;
      mark('verdict');
    }
    if (view?.fresh && !marked.current.fresh) {
      marked.current.fresh = true;
      mark('verdict-fresh');
    }
  }, [view, mark]);

  return (
    <main class="popup">
      {state.phase === 'ready' && view ? (
        <Ready
          state={state}
          view={view}
          controller={controller}
          openOptions={openOptions}
          diagnosis={diagnosis}
        />
      ) : (
        <NotReady state={state} openOptions={openOptions} />
      )}
    </main>
  );
}

function NotReady({ state, openOptions }: { state: PopupState; openOptions(): void }) {
  let text = '';
  if (state.phase === 'nothing-to-filter') {
    text = state.unreadable
      ? "Nothing to filter here: the extension may not read this tab's address. Click the toolbar button while on the page."
      : 'Nothing to filter here: this page has no domain name the DNS filter could act on (browser pages, files, extension pages, IP addresses and localhost).';
  } else if (state.phase === 'failed') {
    text = `The popup could not start: ${state.message}`;
  } else if (state.phase === 'no-key') {
    text =
      'No API key is set: add the key from your account dashboard in the settings, then open this again.';
  }
  return (
    <>
      <p role="status" aria-label="Verdict" class="verdict">
        {text}
      </p>
      {state.phase === 'no-key' && (
        <button type="button" class="primary" onClick={openOptions}>
          Open settings
        </button>
      )}
    </>
  );
}

interface ReadyProps {
  state: ReadyState;
  view: PopupView;
  controller: PopupController;
  openOptions(): void;
  diagnosis: PageDiagnosis;
}

function Ready({ state, view, controller, openOptions, diagnosis }: ReadyProps) {
  const busy = state.change.state === 'running';
  const verdictClass = view.verdict === null ? 'unknown' : view.verdict.kind;
  const act = (op: ListChange['op'], list: ListChange['list']) => {
    if (view.membership !== null) void controller.act(op, list, view.domain, view.membership);
  };

  return (
    <>
      <header>
        <p class="domain-line">
          Acts on <strong class="domain">{view.domain}</strong>
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

      {state.form === 'A' ? (
        <ProfilePicker state={state} onChoose={(profile) => void controller.chooseProfile(profile)} />
      ) : (
        <p class="scope">
          <strong>Whole account.</strong> This form of the API has no profile selection: changes apply to the
          whole account.
        </p>
      )}

      <p role="status" aria-label="Verdict" class={`verdict verdict-${verdictClass}`}>
        {view.statusText}
      </p>
      {view.freshnessText && <p class="hint">{view.freshnessText}</p>}
      {state.statsProblem && view.verdict?.reason === 'none' && (
        <p class="hint">Today's statistics could not be read: {state.statsProblem}</p>
      )}
      {state.problem?.kind === 'settings' ? (
        <button type="button" onClick={openOptions}>
          Open settings
        </button>
      ) : (
        (state.problem || !view.fresh) &&
        !state.refreshing && (
          <button type="button" class="link" onClick={() => void controller.refresh()}>
            Refresh
          </button>
        )
      )}

      <div class="actions">
        {view.membership === 'whitelist' ? (
          <button type="button" disabled={busy} onClick={() => act('remove', 'whitelist')}>
            Remove from whitelist
          </button>
        ) : (
          <button
            type="button"
            disabled={busy || view.membership === null}
            onClick={() => act('add', 'whitelist')}
          >
            Whitelist
          </button>
        )}
        {view.membership === 'blocklist' ? (
          <button type="button" disabled={busy} onClick={() => act('remove', 'blocklist')}>
            Remove from blocklist
          </button>
        ) : (
          <button
            type="button"
            disabled={busy || view.membership === null}
            onClick={() => act('add', 'blocklist')}
          >
            Blocklist
          </button>
        )}
      </div>

      <PageDiagnosisPanel state={state} view={view} controller={controller} diagnosis={diagnosis} />

      {view.pending.length > 0 && (
        <>
          <ul class="pending" aria-label="Waiting to be sent">
            {view.pending.map((entry) => (
              <li key={entry.id}>
                Pending: {entry.change.op === 'add' ? 'add to' : 'remove from'} the {entry.change.list}
                {entry.lastError ? ` (last attempt: ${entry.lastError})` : ''}
              </li>
            ))}
          </ul>
          <button
            type="button"
            disabled={busy}
            onClick={() => void controller.sendPendingNow(view.pending.map((entry) => entry.id))}
          >
            Send now
          </button>
        </>
      )}
      {view.recentFailure && state.change.state === 'idle' && (
        <p class="status-failed">{view.recentFailure.message}</p>
      )}

      <p role="status" aria-label="Change outcome" class={`outcome status-${state.change.state}`}>
        {state.change.message}
      </p>
      {(state.change.state === 'delivered' || state.change.state === 'pending') &&
        !state.change.message.includes('30 to 45 minutes') && <p class="hint">{PROPAGATION_REMINDER}</p>}
      {state.undo && !busy && (
        <p class="undo">
          <button type="button" onClick={() => void controller.undo()}>
            Undo
          </button>{' '}
          <span class="hint">{state.undo.description}</span>
        </p>
      )}
    </>
  );
}

function ProfilePicker({ state, onChoose }: { state: ReadyState; onChoose(profile: string): void }) {
  const chosen = state.profile ?? 'default';
  const profiles = state.profiles?.value ?? [];
  const options = profiles.includes(chosen) ? profiles : [chosen, ...profiles];
  return (
    <p class="scope">
      <label>
        Profile{' '}
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
