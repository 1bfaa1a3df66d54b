import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import type { PopupController } from '@/lib/popup/controller';
import type { PopupState } from '@/lib/popup/state';
import { UnreadableNotice } from '../UnreadableNotice';
import { NotReady } from './NotReady';
import { PopupHeader } from './PopupHeader';
import type { Extras, PopupAppProps } from './popup-props';
import { Ready } from './Ready';

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

export function PopupApp({ controller, openOptions, mark, loadExtras, now = Date.now, lock }: PopupAppProps) {
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
            lock={lock}
          />
        ) : (
          <NotReady state={state} openOptions={openOptions} />
        )}
        {extras && state.phase === 'ready' && (
          <extras.ScheduleLine profile={state.profile} form={state.form} now={now} />
        )}
        {extras && state.phase !== 'starting' && state.phase !== 'no-key' && (
          <extras.RegistrationWarning openOptions={() => openOptions('dynamic-ip')} now={now} />
        )}
        <UnreadableNotice />
      </main>
    </>
  );
}
