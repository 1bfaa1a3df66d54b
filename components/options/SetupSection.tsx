import { useEffect, useRef, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { saveActiveConnection } from '@/lib/accounts/store';
import { validateBaseUrl } from '@/lib/api';
import { createDraftClient, storedClientSettings } from '@/lib/api/configured-client';
import { ApiError, isApiError } from '@/lib/api/errors';
import { t, tn } from '@/lib/i18n';
import { changeSettingsKeepingHostPermissions, hostPermissionFor } from '@/lib/permissions/host-permission';
import { confirmKeyDestination } from '@/lib/permissions/key-destination';
import { connectionItem, DEFAULT_BASE_URL } from '@/lib/settings/storage';
import { useConfirm } from '../ConfirmDialog';
import { StatusMessage } from '../StatusMessage';
import { failureText, useRemoteAction } from '../useRemoteAction';
import { useStoredValue } from '../useStoredValue';
import { type ConnectionDraft, ConnectionFields } from './ConnectionFields';
import { useUnsavedChanges } from './unsaved';

interface SetupSectionProps {
  onSaved?: () => void;
  /**
   * No key was saved yet (the welcome): Save also tests the connection, and on success hands its
   * outcome to `onConnected` (the page then shows the Overview).
   */
  firstRun?: boolean;
  onConnected?: (outcome: string) => void;
}

/** The account key, the service address and the API form; Save, Test connection, Forget key. */
export function SetupSection({ onSaved, firstRun = false, onConnected }: SetupSectionProps) {
  const [draft, setDraft] = useState<ConnectionDraft>({ key: '', baseUrl: DEFAULT_BASE_URL, form: 'A' });
  const { status, run, setStatus, busy } = useRemoteAction();
  const { confirm, dialog } = useConfirm();
  // Origins the user confirmed for Test connection on this page: not asked about twice.
  const confirmedOrigins = useRef(new Set<string>());

  // Fields edited before the stored settings arrive keep what the user typed.
  const edited = useRef(new Set<keyof ConnectionDraft>());

  const stored = useStoredValue(storedClientSettings, null);
  const loaded = useRef(false);
  useEffect(() => {
    if (stored === null) return;
    // Settings stored later (a restored backup, another tab) replace what the fields show.
    if (loaded.current) edited.current.clear();
    loaded.current = true;
    setDraft((current) => {
      const merged: ConnectionDraft = { key: stored.key, ...stored.connection };
      for (const field of edited.current) Object.assign(merged, { [field]: current[field] });
      return merged;
    });
  }, [stored]);

  const unsaved =
    stored !== null &&
    (draft.key.trim() !== stored.key ||
      draft.baseUrl !== stored.connection.baseUrl ||
      draft.form !== stored.connection.form);
  useUnsavedChanges('setup', unsaved);

  const update = (patch: Partial<ConnectionDraft>) => {
    for (const field of Object.keys(patch) as (keyof ConnectionDraft)[]) edited.current.add(field);
    setDraft((current) => ({ ...current, ...patch }));
  };

  /** Checks what the user typed; throws an ApiError the status region can show. */
  const checkedDraft = (): ConnectionDraft => {
    const base = validateBaseUrl(draft.baseUrl);
    if (!base.ok) throw new ApiError('invalid-input', base.message, { field: 'baseUrl' });
    const key = draft.key.trim();
    if (!key) throw new ApiError('invalid-input', t('setup.enterKeyFirst'), { field: 'key' });
    return { key, baseUrl: base.value, form: draft.form };
  };

  const save = () =>
    run(
      t('setup.saving'),
      async () => {
        const checked = checkedDraft();
        const permission = hostPermissionFor(checked.baseUrl);
        // Asked here, inside the click, because browsers only show the prompt during a user gesture.
        if (permission && !(await browser.permissions.request({ origins: [permission] }))) {
          throw new ApiError('invalid-input', t('setup.permissionRefused', { baseUrl: checked.baseUrl }), {
            field: 'baseUrl',
            permission,
          });
        }
        await changeSettingsKeepingHostPermissions({ permissions: browser.permissions }, () =>
          saveActiveConnection({
            key: checked.key,
            connection: { baseUrl: checked.baseUrl, form: checked.form },
          }),
        );
        setDraft(checked);
        onSaved?.();
        return firstRun ? connectFirstTime(checked) : null;
      },
      (outcome) => outcome ?? t('setup.saved'),
    );

  /** The welcome's last step: the settings just saved are tested at once. */
  const connectFirstTime = async (saved: ConnectionDraft): Promise<string> => {
    setStatus({ state: 'running', message: t('welcome.testing') });
    let profiles: string[];
    try {
      profiles = await (await createDraftClient(saved)).listProfiles();
    } catch (error) {
      throw new ApiError(
        isApiError(error) ? error.kind : 'unexpected',
        t('welcome.failed', { reason: failureText(error) }),
      );
    }
    const outcome = t('welcome.connected', {
      outcome: tn('setup.connected', profiles.length, { profiles: profiles.join(', ') }),
    });
    onConnected?.(outcome);
    return outcome;
  };

  const testConnection = () =>
    run(
      t('setup.testing'),
      async () => {
        const checked = checkedDraft();
        await confirmKeyDestination(checked.baseUrl, {
          savedOrigin: async () => (await connectionItem.getValue()).baseUrl,
          confirm: ({ origin, host, saved }) =>
            confirm({
              title: t('setup.confirmTitle', { host }),
              message: <p>{t('setup.confirmText', { origin, saved })}</p>,
              confirmLabel: t('setup.confirmSend'),
            }),
          permissions: browser.permissions,
          confirmed: confirmedOrigins.current,
        });
        const client = await createDraftClient(checked);
        return client.listProfiles();
      },
      (profiles) => tn('setup.connected', profiles.length, { profiles: profiles.join(', ') }),
    );

  const forgetKey = () =>
    run(
      t('setup.removingKey'),
      async () => {
        await saveActiveConnection({ key: '' });
        update({ key: '' });
        onSaved?.();
      },
      () => t('setup.keyRemoved'),
    );

  const hostNote = (() => {
    const base = validateBaseUrl(draft.baseUrl);
    return base.ok && hostPermissionFor(base.value) ? t('setup.customHostNote') : null;
  })();

  return (
    <section aria-labelledby="setup-heading">
      <h2 id="setup-heading">{t('setup.heading')}</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <ConnectionFields
          value={draft}
          onChange={update}
          keyHint={t('setup.apiKeyHint')}
          baseUrlNote={hostNote}
        />
        <div class="actions">
          <button type="submit" class="btn btn-primary" disabled={!unsaved} aria-disabled={busy}>
            {t('setup.save')}
          </button>
          <button type="button" aria-disabled={busy} onClick={() => void testConnection()}>
            {t('setup.testConnection')}
          </button>
          {/* The welcome has no key to forget. */}
          {!firstRun && (
            <button type="button" aria-disabled={busy} onClick={() => void forgetKey()}>
              {t('setup.forgetKey')}
            </button>
          )}
        </div>
        {unsaved && <p class="badge unsaved-badge">{t('saveModel.unsaved')}</p>}
        <StatusMessage status={status} />
      </form>
      {dialog}
    </section>
  );
}
