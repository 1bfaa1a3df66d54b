/**
 * The options page's wiring of the accounts (lib/accounts): the Accounts section and the
 * "Account" combobox at the top of the page, which both follow what is stored, so a switch made
 * in the popup or another tab shows here at once.
 */
import { useMemo, useRef, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import {
  checkAccountName,
  createAccounts,
  followedAccounts,
  MAX_ACCOUNTS,
  type AccountSummary as StoredSummary,
  switchAccount,
} from '@/lib/accounts';
import { createDraftClient } from '@/lib/api/configured-client';
import { t } from '@/lib/i18n';
import { worker } from '@/lib/messaging/worker-client';
import { confirmKeyDestination, type KeyDestinationQuestion } from '@/lib/permissions/key-destination';
import { outboxItem } from '@/lib/settings/storage';
import { AccountSwitcher } from '../AccountSwitcher';
import { useConfirm } from '../ConfirmDialog';
import { failureText } from '../useRemoteAction';
import { useStoredValue } from '../useStoredValue';
import { type AccountsActions, AccountsSection, type AccountsView, type NewAccount } from './AccountsSection';

/** The page's accounts API, asking the user (a dialog of this page) before a key goes to a new origin. */
function usePageAccounts() {
  const { confirm, dialog } = useConfirm();
  // Origins the user confirmed on this page (Test connection, then Save): not asked twice.
  const confirmed = useRef(new Set<string>());
  const ask = (question: KeyDestinationQuestion, text: string) =>
    confirm({
      title: t('setup.confirmTitle', { host: question.host }),
      message: <p>{text}</p>,
      confirmLabel: t('setup.confirmSend'),
    });
  const api = useMemo(
    () =>
      createAccounts({
        confirm: (question) => ask(question, t('accounts.confirmTestText', { origin: question.origin })),
        permissions: browser.permissions,
        confirmed: confirmed.current,
        removeInWorker: (id) => worker.removeAccount(id),
      }),
    [],
  );
  return { api, dialog, ask, confirmed: confirmed.current };
}

export function AccountsSettings() {
  const stored = useStoredValue(followedAccounts, null);
  const outbox = useStoredValue(outboxItem, []);
  const { api, dialog, ask, confirmed } = usePageAccounts();

  const view = useMemo((): AccountsView | null => {
    if (stored === null) return null;
    return {
      activeId: stored.activeId,
      unreadable: stored.unreadable,
      accounts: stored.accounts.map((account) => ({
        id: account.id,
        name: account.name,
        baseUrl: account.baseUrl,
        form: account.form,
        hasKey: account.hasKey,
        waiting: outbox.filter((entry) => entry.account === account.identity.id).length,
        lostOnRemoval: outbox.filter((entry) => account.ownIdentities.includes(entry.account)).length,
      })),
    };
  }, [stored, outbox]);

  const actions: AccountsActions = {
    maxAccounts: MAX_ACCOUNTS,
    checkName: (typed, others) => checkAccountName(typed, others),
    add: (account) => addAccount(api, stored?.accounts ?? [], account),
    async testConnection(account) {
      const active = stored?.accounts.find((candidate) => candidate.active);
      await confirmKeyDestination(account.baseUrl, {
        savedOrigin: async () => active?.baseUrl ?? account.baseUrl,
        confirm: (question) => ask(question, t('accounts.confirmTestText', { origin: question.origin })),
        permissions: browser.permissions,
        confirmed,
      });
      return (await createDraftClient(account)).listProfiles();
    },
    rename: (id, name) => api.rename(id, name),
    remove: async (id) => {
      await api.remove(id);
    },
    activate: (id) => api.activate(id),
    removeUnreadable: async () => {
      await api.removeUnreadable();
    },
  };

  return (
    <>
      <AccountsSection view={view} actions={actions} />
      {dialog}
    </>
  );
}

/**
 * A fresh installation has one account without a key (the setup every page reads): the first
 * account added is that one, named and given its key, rather than a second one beside an empty
 * one. Any other addition is a new account, not active until the user chooses it.
 */
async function addAccount(
  api: ReturnType<typeof createAccounts>,
  accounts: readonly StoredSummary[],
  account: NewAccount,
): Promise<{ active: boolean }> {
  const [only] = accounts;
  if (accounts.length === 1 && only && !only.hasKey) {
    const id = await api.add(account);
    await api.activate(id);
    // The empty setup had nothing to lose; should the worker not answer, it stays listed and
    // can be removed by hand, and the account just added is no less there.
    await api.remove(only.id).catch(() => undefined);
    return { active: true };
  }
  await api.add(account);
  return { active: false };
}

/** The "Account" combobox at the top of the options page: every section acts on the one chosen. */
export function ActiveAccountBar() {
  const stored = useStoredValue(followedAccounts, null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (stored === null || stored.accounts.length < 2) return null;
  return (
    <div class="account-header">
      <AccountSwitcher
        accounts={stored.accounts}
        activeId={stored.activeId}
        busy={busy}
        onChoose={(id) => {
          setBusy(true);
          setFailure(null);
          switchAccount(id).then(
            () => setBusy(false),
            (error: unknown) => {
              setBusy(false);
              setFailure(failureText(error));
            },
          );
        }}
      />
      {failure && <p role="alert">{failure}</p>}
    </div>
  );
}
