import { useId } from 'preact/hooks';
import { isolateText, t } from '@/lib/i18n';

/** What the switcher shows of an account: never its key. */
export interface AccountChoice {
  id: string;
  name: string;
}

export interface AccountSwitcherProps {
  accounts: readonly AccountChoice[];
  /** The active account's id. */
  activeId: string;
  onChoose(id: string): void;
  /** While a switch is on its way: the choice stays visible but cannot change again. */
  busy?: boolean;
  /** The popup's header: one line, no hint. */
  compact?: boolean;
}

/**
 * The combobox "Account" (ui-contract.md), shown only when there is a choice to make: with one
 * account it renders nothing, so a single-account user sees the pages as before. Pure: the
 * accounts and the switch come from the page's wiring.
 */
export function AccountSwitcher({ accounts, activeId, onChoose, busy, compact }: AccountSwitcherProps) {
  const id = useId();
  const hintId = useId();
  if (accounts.length < 2) return null;
  return (
    <div class={compact ? 'account-switcher compact' : 'account-switcher'}>
      <label for={id}>{t('accounts.switcher')}</label>
      <select
        id={id}
        class="select"
        value={activeId}
        aria-describedby={compact ? undefined : hintId}
        aria-disabled={busy ? 'true' : undefined}
        onChange={(event) => {
          const chosen = event.currentTarget.value;
          if (busy || chosen === activeId) {
            event.currentTarget.value = activeId;
            return;
          }
          onChoose(chosen);
        }}
      >
        {accounts.map((account) => (
          <option key={account.id} value={account.id}>
            {/* An option holds text only: the name is isolated in it with characters (lib/i18n/bidi.ts). */}
            {isolateText(account.name)}
          </option>
        ))}
      </select>
      {!compact && (
        <span id={hintId} class="hint">
          {t('accounts.switcherHint')}
        </span>
      )}
    </div>
  );
}
