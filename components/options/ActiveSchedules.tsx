import { t } from '@/lib/i18n';
import { activeNow, activeSchedules } from '@/lib/schedules/options';
import { useStoredValue } from '../useStoredValue';

/** The Overview's line naming the schedules active now; nothing while the account has none. */
export function ActiveSchedules() {
  const active = useStoredValue(activeSchedules, null);
  if (active === null || active.schedules.rules.length === 0) return null;
  const names = activeNow(active.schedules, Date.now()).map((rule) => rule.name);
  return (
    <p class="overview-schedules">
      <a href="#schedules">{t('schedules.heading')}</a>:{' '}
      {names.length === 0 ? t('schedules.activeNowNone') : `${t('schedules.activeNow')}: ${names.join(', ')}`}
    </p>
  );
}
