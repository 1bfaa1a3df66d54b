/**
 * What a schedule holds now, under the verdict: "Homework time: Gaming blocked until 20:00", with
 * "+30 minutes" and "Skip this time". Loaded with the popup's extras, after the first view.
 */
import { useState } from 'preact/hooks';
import type { ApiForm } from '@/lib/api/types';
import { t } from '@/lib/i18n';
import { extendByHalfAnHour, skipThisTime } from '@/lib/schedules/options';
import { popupSchedules, scheduleLines } from '@/lib/schedules/popup';
import { useStoredValue } from '../useStoredValue';

export function ScheduleLine({
  profile,
  form,
  now = Date.now,
}: {
  profile: string | undefined;
  form: ApiForm;
  now?: () => number;
}) {
  const stored = useStoredValue(popupSchedules, null);
  const [done, setDone] = useState<string | null>(null);
  if (stored === null) return null;
  const lines = scheduleLines(stored.schedules, profile, form, now());
  if (lines.length === 0 && done === null) return null;
  const act = async (action: () => Promise<void>) => {
    try {
      await action();
      setDone(t('schedules.overrideSaved'));
    } catch {
      setDone(t('common.genericFailure'));
    }
  };
  return (
    <section class="message message-info schedule-line" aria-label={t('schedules.heading')}>
      <div class="message-body">
        {lines.map(({ status, text }) => (
          <div key={status.rule.id}>
            <p class="message-title">{text}</p>
            <div class="message-actions">
              <button
                type="button"
                class="btn btn-sm"
                onClick={() => void act(() => extendByHalfAnHour(stored.accountId, status, now()))}
              >
                {t('schedules.plus30')}
              </button>
              <button
                type="button"
                class="btn btn-sm"
                onClick={() => void act(() => skipThisTime(stored.accountId, status, now()))}
              >
                {t('schedules.skip')}
              </button>
            </div>
          </div>
        ))}
        {done !== null && (
          <p role="status" class="hint">
            {done}
          </p>
        )}
      </div>
    </section>
  );
}
