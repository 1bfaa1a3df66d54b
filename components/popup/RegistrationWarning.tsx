/**
 * A failing dynamic IP registration, said in the popup: while it fails, the network's new address
 * may not be filtered at all, and the popup is where the user looks when a site behaves oddly.
 * Read after the first paint, so it never delays the verdict.
 */
import { ageText } from '@/lib/cache/freshness';
import { t } from '@/lib/i18n';
import { registrationIsFailing } from '@/lib/network/registration';
import {
  dynamicIpSettingsItem,
  type RegistrationOutcome,
  registrationOutcomeItem,
} from '@/lib/settings/storage';
import { WarningIcon } from '../icons/Icon';
import { useStoredValue } from '../useStoredValue';

/** The last outcome while registration is on and failing; null otherwise. Follows the worker's changes. */
export function useFailingRegistration(): RegistrationOutcome | null {
  const enabled = useStoredValue(dynamicIpSettingsItem, null)?.enabled ?? false;
  const outcome = useStoredValue(registrationOutcomeItem, null);
  return enabled && registrationIsFailing(outcome) ? outcome : null;
}

export function RegistrationWarning({
  openOptions,
  now = Date.now,
}: {
  openOptions(): void;
  now?: () => number;
}) {
  const failing = useFailingRegistration();
  if (failing === null) return null;
  return (
    <section class="message message-warning registration-warning" aria-label={t('popup.registrationRegion')}>
      <WarningIcon />
      <div>
        <p>
          {t('popup.registrationFailing', { reason: failing.message })}{' '}
          {t('popup.registrationFailingSince', { age: ageText(failing.at, now()) })}
        </p>
        <button type="button" class="link" onClick={openOptions}>
          {t('popup.openSettings')}
        </button>
      </div>
    </section>
  );
}
