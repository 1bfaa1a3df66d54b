import { useEffect, useState } from 'preact/hooks';
import { accountsItem, connectionItem } from '@/lib/settings/storage';
import { whenIdle } from '@/lib/theme/theme';
import { type AccountChoice, AccountSwitcher } from '../AccountSwitcher';

interface Choices {
  accounts: AccountChoice[];
  activeId: string;
}

/**
 * The accounts' names, from the accounts list and the active connection only: the popup reads
 * nothing else of the other accounts (no key, no cache), so it opens as fast with five accounts
 * as with one. An account without a name is named after its service's host.
 */
async function readChoices(): Promise<Choices | null> {
  const [stored, activeConnection] = await Promise.all([accountsItem.getValue(), connectionItem.getValue()]);
  if (stored.active === null || stored.accounts.length < 2) return null;
  // Loaded only with two accounts or more, and after the verdict: not part of the popup's start.
  const { displayName } = await import('@/lib/accounts/store');
  return {
    activeId: stored.active,
    accounts: stored.accounts.map((entry) => ({
      id: entry.id,
      name: displayName({
        name: entry.name,
        connection:
          entry.id === stored.active
            ? activeConnection
            : connectionItem.fromStored(entry.parked?.[connectionItem.key] ?? null),
      }),
    })),
  };
}

/**
 * The popup header's "Account" combobox (shown with two accounts or more). Choosing another account
 * makes it the active one and opens the popup again for it: everything the popup shows is the
 * active account's, read as it opens.
 */
export function PopupAccountSwitcher({ reopen = () => location.reload() }: { reopen?: () => void }) {
  const [choices, setChoices] = useState<Choices | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    // Read once the verdict's own work is done: the switcher never delays the first verdict.
    whenIdle(() => {
      if (!live) return;
      readChoices().then(
        (read) => live && setChoices(read),
        () => undefined,
      );
    });
    return () => {
      live = false;
    };
  }, []);
  if (choices === null) return null;
  return (
    <AccountSwitcher
      compact
      busy={busy}
      accounts={choices.accounts}
      activeId={choices.activeId}
      onChoose={(id) => {
        setBusy(true);
        setChoices({ ...choices, activeId: id });
        import('@/lib/accounts')
          .then(({ switchAccount }) => switchAccount(id))
          .then(reopen, () => {
            // Not switched (removed meanwhile, or storage failed): the choice goes back.
            setChoices(choices);
            setBusy(false);
          });
      }}
    />
  );
}
