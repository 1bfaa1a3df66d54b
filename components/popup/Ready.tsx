import { useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import { pageKnowledge } from '@/lib/popup/verdict-inputs';
import { derivePopupView, type PopupView, sectionOf } from '@/lib/popup/view';
import { Freshness } from './Freshness';
import { ListActions } from './ListActions';
import { LockGate } from './LockGate';
import { Outcome } from './Outcome';
import { usePageDiagnosis, useTemporaryAllows } from './page-facts';
import type { PopupAppProps, ReadyProps } from './popup-props';
import { usePopupChangesAllowed } from './usePopupChangesAllowed';
import { type HeroTone, VerdictHero } from './VerdictHero';

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

/** The popup with a verdict: the verdict, the list buttons, the outcome of a click, and the extras. */
export function Ready({ state, controller, openOptions, mark, now, extras, lock }: ReadyProps) {
  // Page diagnosis is read once the page is known, so it never delays the verdict.
  const diagnosis = usePageDiagnosis(state);
  const allows = useTemporaryAllows();
  const view = useMemo(
    () => derivePopupView(state, now(), pageKnowledge(diagnosis, state.host)),
    [state, now, diagnosis],
  );
  useVerdictMarks(view, mark);
  const changesAllowed = usePopupChangesAllowed(extras);
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

      <LockGate lock={lock} site={view.domain} profile={state.profile}>
        <ListActions
          state={state}
          view={view}
          controller={controller}
          allows={allows}
          changesAllowed={changesAllowed}
          extras={extras}
        />

        <Outcome state={state} view={view} controller={controller} openOptions={openOptions} />
        {extras &&
          state.scheduleOwned?.map((owned) => (
            <extras.ScheduleOwnedNotice
              key={owned.status.rule.id}
              accountId={owned.accountId}
              status={owned.status}
              what={owned.domains.join(', ')}
              now={now}
            />
          ))}

        {extras && (
          <>
            {changesAllowed && (
              <extras.UnbreakPanel
                state={state}
                controller={controller}
                diagnosis={diagnosis}
                allows={allows}
                now={now}
              />
            )}
            <extras.PageDiagnosisPanel
              state={state}
              controller={controller}
              diagnosis={diagnosis}
              allows={allows}
            />
          </>
        )}
      </LockGate>
    </>
  );
}
