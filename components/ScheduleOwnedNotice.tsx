import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { t } from '@/lib/i18n';
import type { RuleStatus } from '@/lib/schedules/desired';
import { keepUntilNextEdge } from '@/lib/schedules/manual';
import { formatInstant, pauseUntil } from '@/lib/schedules/options';

/** "Pause until" a chosen local date and time: the rule leaves its things alone until then. */
export function PauseControl({ onPause }: { onPause: (until: number) => void }) {
  const id = useId();
  const [value, setValue] = useState('');
  const until = value === '' ? Number.NaN : new Date(value).getTime();
  return (
    <span class="schedule-pause">
      <label for={id}>{t('schedules.pauseUntil')}</label>
      <input
        id={id}
        type="datetime-local"
        value={value}
        onInput={(event) => setValue(event.currentTarget.value)}
      />
      <button
        type="button"
        class="btn"
        aria-disabled={!(until > Date.now())}
        onClick={() => {
          if (until > Date.now()) onPause(until);
        }}
      >
        {t('schedules.pause')}
      </button>
    </span>
  );
}

/**
 * After a change by hand to something a schedule owns (docs/schedules.md, "Manual changes"), in
 * the options page's sections and the popup: which schedule will set it back and when, "Keep
 * until …" (the schedule leaves it alone until its next edge) or "Pause until" a chosen time. Left
 * alone, the schedule's next check puts its state back.
 */
export interface OwnedChange {
  accountId: string;
  status: RuleStatus;
  /** What was changed, as the section names it ("Gaming", "games.example"). */
  what: string;
}

export function ScheduleOwnedNotice({
  accountId,
  status,
  what,
  now = Date.now,
}: OwnedChange & { now?: () => number }) {
  const [done, setDone] = useState<string | null>(null);
  const edge = status.nextEdgeAt === null ? null : formatInstant(status.nextEdgeAt, now());
  const notice = useRef<HTMLElement>(null);
  // It appears below the outcome of the change, which in the popup is often the bottom of what
  // shows: brought into view, or the offer would go unseen.
  useEffect(() => notice.current?.scrollIntoView?.({ block: 'nearest' }), []);
  return (
    <section
      ref={notice}
      class="message message-info schedule-owned"
      aria-label={t('schedules.manualOwnedLabel')}
    >
      <div class="schedule-owned-body">
        <p role="status">
          {done ?? t('schedules.manualOwned', { rule: status.rule.name, what, edge: edge ?? '…' })}
        </p>
        {done === null && (
          <div class="actions message-actions">
            {edge !== null && (
              <button
                type="button"
                class="btn btn-primary btn-sm"
                onClick={() =>
                  void keepUntilNextEdge(accountId, status, now()).then(
                    () => setDone(t('schedules.keptUntil', { rule: status.rule.name, time: edge })),
                    () => setDone(t('common.genericFailure')),
                  )
                }
              >
                {t('schedules.keepUntilEdge', { edge })}
              </button>
            )}
            <PauseControl
              onPause={(until) =>
                void pauseUntil(accountId, status.rule.id, now(), until).then(
                  () =>
                    setDone(
                      t('schedules.pausedRule', {
                        rule: status.rule.name,
                        time: formatInstant(until, now()),
                      }),
                    ),
                  () => setDone(t('common.genericFailure')),
                )
              }
            />
          </div>
        )}
      </div>
    </section>
  );
}
