import { useEffect, useId, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { ApiError } from '@/lib/api/errors';
import { registerNowResponseSchema } from '@/lib/messaging/protocol';
import {
  checkDynamicIpDraft,
  type DynamicIpDraft,
  draftFromSettings,
  lookupPermissionOrigins,
} from '@/lib/network/settings-form';
import {
  accountTag,
  connectionItem,
  contextMenuSettingsItem,
  DYNAMIC_IP_INTERVAL,
  dynamicIpSettingsItem,
  profilesCacheItem,
  type RegistrationOutcome,
  registrationOutcomeItem,
} from '@/lib/settings/storage';
import { StatusMessage } from '../StatusMessage';
import { useRemoteAction } from '../useRemoteAction';

/** A stored item's value, following changes made elsewhere (the worker, another tab). */
function useStored<T>(
  item: { getValue(): Promise<T>; watch(cb: (value: T) => void): () => void },
  initial: T,
): T {
  const [value, setValue] = useState<T>(initial);
  useEffect(() => {
    let live = true;
    void item.getValue().then((stored) => live && setValue(stored));
    const unwatch = item.watch(setValue);
    return () => {
      live = false;
      unwatch();
    };
  }, [item]);
  return value;
}

function formatTime(at: number): string {
  return new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function LastOutcome({ outcome }: { outcome: RegistrationOutcome | null }) {
  if (!outcome) return <p class="hint">No registration has run from this browser yet.</p>;
  const retry =
    outcome.nextAttemptAt === undefined ? '' : ` Next try at ${formatTime(outcome.nextAttemptAt)}.`;
  const streak = outcome.consecutiveFailures > 1 ? ` (${outcome.consecutiveFailures} failures in a row)` : '';
  return (
    <p class={outcome.ok ? 'last-outcome' : 'last-outcome status-failed'}>
      Last attempt, {formatTime(outcome.at)}
      {streak}: {outcome.message}
      {retry}
    </p>
  );
}

/**
 * Dynamic IP: keeps this network's public address registered. The worker does the work (alarm
 * and Register now share one code path); this section edits the settings and shows outcomes.
 * Also holds the right-click menu switch, the other setting of the background worker.
 */
export function DynamicIpSection() {
  const settings = useStored(dynamicIpSettingsItem, dynamicIpSettingsItem.fallback);
  const outcome = useStored(registrationOutcomeItem, null);
  const connection = useStored(connectionItem, connectionItem.fallback);
  const profilesCache = useStored(profilesCacheItem, null);
  const menu = useStored(contextMenuSettingsItem, contextMenuSettingsItem.fallback);
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
    menuHeading: useId(),
    menu: useId(),
  };

  // The form starts from the stored settings and follows them until the user edits it.
  const [edited, setEdited] = useState(false);
  useEffect(() => {
    if (!edited) setDraft(draftFromSettings(settings));
  }, [settings, edited]);
  const update = (patch: Partial<DynamicIpDraft>) => {
    setEdited(true);
    setDraft((current) => ({ ...current, ...patch }));
  };

  const profiles =
    profilesCache && profilesCache.account === accountTag(connection) ? [...profilesCache.profiles] : [];
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
      throw new ApiError(
        'invalid-input',
        `Not saved: the extension needs your permission to ask ${hosts} for your public address.`,
      );
    }
    return checked.value;
  };

  const registerNow = async () => {
    const answer = registerNowResponseSchema.parse(
      await browser.runtime.sendMessage({ type: 'register-now' }),
    );
    if (!answer.ok) throw new ApiError('service', answer.message);
    return answer.message;
  };

  const save = () =>
    run(
      'Saving…',
      async () => {
        const checked = await checkAndAsk();
        await dynamicIpSettingsItem.setValue(checked);
        setEdited(false);
        // Turned on: register at once rather than after the first interval.
        return checked.enabled ? `Saved. ${await registerNow()}` : 'Saved. Automatic registration is off.';
      },
      (message) => message,
    );

  const registerClicked = () =>
    run(
      'Finding the public address and registering it…',
      async () => {
        const checked = await checkAndAsk();
        await dynamicIpSettingsItem.setValue(checked);
        setEdited(false);
        return registerNow();
      },
      (message) => message,
    );

  return (
    <>
      <section aria-labelledby={ids.heading}>
        <h2 id={ids.heading}>Dynamic IP</h2>
        <p class="hint">
          If your internet provider changes your public address, filtering silently stops until the new
          address is registered. This browser can register it for you.
        </p>
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
            <label for={ids.enabled}>Keep this network registered automatically</label>
          </div>
          <div class="field">
            <label for={ids.interval}>Check every (minutes)</label>
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
            <label for={ids.label}>Network label</label>
            <input
              id={ids.label}
              type="text"
              maxLength={64}
              value={draft.label}
              onInput={(event) => update({ label: event.currentTarget.value })}
            />
          </div>
          {connection.form === 'A' ? (
            <div class="field">
              <label for={ids.profile}>Register to profile</label>
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
            <p class="hint">
              Form B has no profile selection: the address is registered for the whole account.
            </p>
          )}
          <div class="field">
            <label for={ids.firstUrl}>IP lookup URL</label>
            <input
              id={ids.firstUrl}
              type="url"
              value={draft.firstLookupUrl}
              onInput={(event) => update({ firstLookupUrl: event.currentTarget.value })}
            />
          </div>
          <div class="field">
            <label for={ids.moreUrls}>More IP lookup URLs, tried in order (one per line)</label>
            <textarea
              id={ids.moreUrls}
              rows={2}
              value={draft.moreLookupUrls}
              onInput={(event) => update({ moreLookupUrls: event.currentTarget.value })}
            />
            <p class="hint">
              Each must answer with the address as plain text or as JSON {'{"ip": "…"}'}. Only IPv4 addresses
              are registered.
            </p>
          </div>
          <div class="check">
            <input
              id={ids.removePrevious}
              type="checkbox"
              checked={draft.removePrevious}
              onChange={(event) => update({ removePrevious: event.currentTarget.checked })}
            />
            <label for={ids.removePrevious}>
              When the address changes, remove the previous address this browser registered
            </label>
          </div>
          <div class="actions">
            <button type="submit" disabled={busy}>
              Save dynamic IP settings
            </button>
            <button type="button" disabled={busy} onClick={() => void registerClicked()}>
              Register now
            </button>
          </div>
          <StatusMessage status={status} />
          <LastOutcome outcome={outcome} />
        </form>
      </section>
      <section aria-labelledby={ids.menuHeading}>
        <h2 id={ids.menuHeading}>Right-click menu and shortcuts</h2>
        <div class="check">
          <input
            id={ids.menu}
            type="checkbox"
            checked={menu.enabled}
            onChange={(event) =>
              void contextMenuSettingsItem.setValue({ enabled: event.currentTarget.checked })
            }
          />
          <label for={ids.menu}>
            Show “Whitelist this site” and “Blocklist this site” in the right-click menu
          </label>
        </div>
        <p class="hint">
          Keyboard shortcuts Alt+Shift+W and Alt+Shift+B whitelist or blocklist the current site for the
          profile last chosen in the popup. Change them in your browser's extension shortcut settings. Changes
          made this way are kept in this browser until the service confirms them, and a notification tells you
          the outcome.
        </p>
      </section>
    </>
  );
}
