import { useEffect, useId, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { ApiError } from '@/lib/api/errors';
import { capabilitiesOf } from '@/lib/api/forms';
import { messageLocale, t } from '@/lib/i18n';
import { worker } from '@/lib/messaging/worker-client';
import {
  checkDynamicIpDraft,
  type DynamicIpDraft,
  draftFromSettings,
  lookupPermissionOrigins,
} from '@/lib/network/settings-form';
import { changeSettingsKeepingHostPermissions } from '@/lib/permissions/host-permission';
import {
  connectionItem,
  DYNAMIC_IP_INTERVAL,
  dynamicIpSettingsItem,
  profilesCacheItem,
  type RegistrationOutcome,
  registrationOutcomeItem,
} from '@/lib/settings/storage';
import { StatusMessage } from '../StatusMessage';
import { useAccountIdentity } from '../useAccountIdentity';
import { useRemoteAction } from '../useRemoteAction';
import { useStoredValue } from '../useStoredValue';
import { useUnsavedChanges } from './unsaved';

function formatTime(at: number): string {
  return new Date(at).toLocaleString(messageLocale(), { dateStyle: 'medium', timeStyle: 'short' });
}

function LastOutcome({ outcome }: { outcome: RegistrationOutcome | null }) {
  if (!outcome) return <p class="hint">{t('dynamicIp.noOutcome')}</p>;
  const retry =
    outcome.nextAttemptAt === undefined
      ? ''
      : ` ${t('dynamicIp.nextTry', { when: formatTime(outcome.nextAttemptAt) })}`;
  const when = formatTime(outcome.at);
  return (
    <p class={outcome.ok ? 'last-outcome' : 'last-outcome status-failed'}>
      {outcome.consecutiveFailures > 1
        ? t('dynamicIp.lastAttemptStreak', {
            when,
            failures: outcome.consecutiveFailures,
            outcome: outcome.message,
          })
        : t('dynamicIp.lastAttempt', { when, outcome: outcome.message })}
      {retry}
    </p>
  );
}

/**
 * Dynamic IP: keeps this network's public address registered. The worker does the work (alarm
 * and Register now share one code path); this section edits the settings and shows outcomes.
 */
export function DynamicIpSection() {
  const settings = useStoredValue(dynamicIpSettingsItem, dynamicIpSettingsItem.fallback);
  const outcome = useStoredValue(registrationOutcomeItem, null);
  const connection = useStoredValue(connectionItem, connectionItem.fallback);
  const accountId = useAccountIdentity()?.id ?? null;
  const profilesCache = useStoredValue(profilesCacheItem, null);
  const [draft, setDraft] = useState<DynamicIpDraft>(() => draftFromSettings(dynamicIpSettingsItem.fallback));
  const { status, run, busy } = useRemoteAction();
  const ids = {
    heading: useId(),
    enabled: useId(),
    interval: useId(),
    label: useId(),
    profile: useId(),
    firstUrl: useId(),
    moreUrls: useId(),
    removePrevious: useId(),
  };

  // The form starts from the stored settings and follows them until the user edits it.
  const [edited, setEdited] = useState(false);
  useEffect(() => {
    if (!edited) setDraft(draftFromSettings(settings));
  }, [settings, edited]);
  useUnsavedChanges('dynamic-ip', edited);
  const update = (patch: Partial<DynamicIpDraft>) => {
    setEdited(true);
    setDraft((current) => ({ ...current, ...patch }));
  };

  const profiles = profilesCache && profilesCache.account === accountId ? [...profilesCache.profiles] : [];
  if (profiles.length > 0 && !profiles.includes(draft.profile)) profiles.unshift(draft.profile);

  /**
   * Checks the form and asks for the lookup hosts. Must be called first thing in the click:
   * browsers show a permission prompt only during a user gesture.
   */
  const checkAndAsk = async () => {
    const checked = checkDynamicIpDraft(draft, connection.form);
    if (!checked.ok) throw new ApiError('invalid-input', checked.message);
    const origins = lookupPermissionOrigins(checked.value.lookupUrls);
    if (origins.length > 0 && !(await browser.permissions.request({ origins }))) {
      const hosts = origins.map((origin) => new URL(origin.replace('/*', '/')).host).join(', ');
      throw new ApiError('invalid-input', t('dynamicIp.permissionRefused', { hosts }));
    }
    return checked.value;
  };

  const registerNow = async () => {
    const answer = await worker.registerNow();
    if (!answer.ok) throw new ApiError('service', answer.message);
    return answer.message;
  };

  const save = () =>
    run(
      t('dynamicIp.saving'),
      async () => {
        const checked = await checkAndAsk();
        await changeSettingsKeepingHostPermissions({ permissions: browser.permissions }, () =>
          dynamicIpSettingsItem.setValue(checked),
        );
        setEdited(false);
        // Turned on: register at once rather than after the first interval.
        return checked.enabled
          ? t('dynamicIp.savedThen', { outcome: await registerNow() })
          : t('dynamicIp.savedOff');
      },
      (message) => message,
    );

  const registerClicked = () =>
    run(
      t('dynamicIp.registering'),
      async () => {
        const checked = await checkAndAsk();
        await changeSettingsKeepingHostPermissions({ permissions: browser.permissions }, () =>
          dynamicIpSettingsItem.setValue(checked),
        );
        setEdited(false);
        return registerNow();
      },
      (message) => message,
    );

  return (
    <section aria-labelledby={ids.heading}>
      <h2 id={ids.heading}>{t('dynamicIp.heading')}</h2>
      <p class="hint">{t('dynamicIp.about')}</p>
      <form
        // Our own checks speak in the status region, with the rule, rather than in a tooltip.
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <div class="check">
          <input
            id={ids.enabled}
            type="checkbox"
            checked={draft.enabled}
            onChange={(event) => update({ enabled: event.currentTarget.checked })}
          />
          <label for={ids.enabled}>{t('dynamicIp.enabled')}</label>
        </div>
        <div class="field">
          <label for={ids.interval}>{t('dynamicIp.interval')}</label>
          <input
            id={ids.interval}
            type="number"
            min={DYNAMIC_IP_INTERVAL.min}
            max={DYNAMIC_IP_INTERVAL.max}
            step={1}
            value={draft.interval}
            onInput={(event) => update({ interval: event.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for={ids.label}>{t('dynamicIp.label')}</label>
          <input
            id={ids.label}
            type="text"
            maxLength={64}
            value={draft.label}
            onInput={(event) => update({ label: event.currentTarget.value })}
          />
        </div>
        {capabilitiesOf(connection.form).profileSelection ? (
          <div class="field">
            <label for={ids.profile}>{t('dynamicIp.profile')}</label>
            {profiles.length > 0 ? (
              <select
                id={ids.profile}
                value={draft.profile}
                onChange={(event) => update({ profile: event.currentTarget.value })}
              >
                {profiles.map((profile) => (
                  <option key={profile} value={profile}>
                    {profile}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={ids.profile}
                type="text"
                value={draft.profile}
                onInput={(event) => update({ profile: event.currentTarget.value })}
              />
            )}
          </div>
        ) : (
          <p class="hint">{t('dynamicIp.formBNote')}</p>
        )}
        <div class="field">
          <label for={ids.firstUrl}>{t('dynamicIp.firstUrl')}</label>
          <input
            id={ids.firstUrl}
            type="url"
            value={draft.firstLookupUrl}
            onInput={(event) => update({ firstLookupUrl: event.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for={ids.moreUrls}>{t('dynamicIp.moreUrls')}</label>
          <textarea
            id={ids.moreUrls}
            rows={2}
            value={draft.moreLookupUrls}
            onInput={(event) => update({ moreLookupUrls: event.currentTarget.value })}
          />
          <p class="hint">{t('dynamicIp.urlsHint', { json: '{"ip": "…"}' })}</p>
        </div>
        <div class="check">
          <input
            id={ids.removePrevious}
            type="checkbox"
            checked={draft.removePrevious}
            onChange={(event) => update({ removePrevious: event.currentTarget.checked })}
          />
          <label for={ids.removePrevious}>{t('dynamicIp.removePrevious')}</label>
        </div>
        <div class="actions">
          <button type="submit" class="btn btn-primary" disabled={!edited || busy}>
            {t('dynamicIp.save')}
          </button>
          <button
            type="button"
            class="btn btn-secondary"
            disabled={busy}
            onClick={() => void registerClicked()}
          >
            {t('dynamicIp.registerNow')}
          </button>
          {edited && <span class="badge unsaved-badge">{t('saveModel.unsaved')}</span>}
        </div>
        <StatusMessage status={status} />
        <LastOutcome outcome={outcome} />
      </form>
    </section>
  );
}
