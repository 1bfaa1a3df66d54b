import { useId, useState } from 'preact/hooks';
import type { ApiForm } from '@/lib/api/types';
import { t } from '@/lib/i18n';

/** How an account is reached: its key, the service's address and the API form spoken there. */
export interface ConnectionDraft {
  key: string;
  baseUrl: string;
  form: ApiForm;
}

interface ConnectionFieldsProps {
  value: ConnectionDraft;
  onChange(patch: Partial<ConnectionDraft>): void;
  /** Said under the key field (where to find the key). */
  keyHint?: string;
  /** Said under the address field (the browser will ask for access to a custom service). */
  baseUrlNote?: string | null;
}

/**
 * The fields "API key" (masked until asked), "Base URL" and "API form" (ui-contract.md), the same
 * in Setup and in the Accounts section's new account.
 */
export function ConnectionFields({ value, onChange, keyHint, baseUrlNote }: ConnectionFieldsProps) {
  const [keyVisible, setKeyVisible] = useState(false);
  const ids = { key: useId(), url: useId(), form: useId() };
  return (
    <>
      <div class="field">
        <label for={ids.key}>{t('setup.apiKey')}</label>
        <div class="inline">
          <input
            id={ids.key}
            class="input"
            type={keyVisible ? 'text' : 'password'}
            autoComplete="off"
            spellcheck={false}
            value={value.key}
            onInput={(event) => onChange({ key: event.currentTarget.value })}
          />
          <button
            type="button"
            class="btn"
            aria-pressed={keyVisible}
            onClick={() => setKeyVisible(!keyVisible)}
          >
            {keyVisible ? t('setup.hideKey') : t('setup.showKey')}
          </button>
        </div>
        {keyHint && <p class="hint">{keyHint}</p>}
      </div>
      <div class="field">
        <label for={ids.url}>{t('setup.baseUrl')}</label>
        <input
          id={ids.url}
          class="input"
          type="url"
          value={value.baseUrl}
          onInput={(event) => onChange({ baseUrl: event.currentTarget.value })}
        />
        {baseUrlNote && <p class="hint">{baseUrlNote}</p>}
      </div>
      <div class="field">
        <label for={ids.form}>{t('setup.apiForm')}</label>
        <select
          id={ids.form}
          class="select"
          value={value.form}
          onChange={(event) => onChange({ form: event.currentTarget.value as ApiForm })}
        >
          <option value="A">{t('setup.formA')}</option>
          <option value="B">{t('setup.formB')}</option>
        </select>
      </div>
    </>
  );
}
