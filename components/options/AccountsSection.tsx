import { useId, useState } from 'preact/hooks';
import { validateBaseUrl } from '@/lib/api';
import { ApiError } from '@/lib/api/errors';
import { describeForm } from '@/lib/api/forms';
import type { ApiForm } from '@/lib/api/types';
import { t, tn } from '@/lib/i18n';
import { DEFAULT_BASE_URL } from '@/lib/settings/storage';
import { useConfirm } from '../ConfirmDialog';
import { StatusMessage } from '../StatusMessage';
import { useRemoteAction } from '../useRemoteAction';
import { type ConnectionDraft, ConnectionFields } from './ConnectionFields';
import { usePolicy } from './policy-context';
import '../accounts.css';

/** An account as this section shows it: never its key. */
export interface AccountSummary {
  id: string;
  name: string;
  baseUrl: string;
  form: ApiForm;
  /** False for the setup of a fresh installation, before a key was entered. */
  hasKey: boolean;
  /** Changes queued for it and not yet delivered. */
  waiting: number;
  /**
   * Changes its removal discards: `waiting` and those queued under a key or address it had
   * before; `waiting` when not given.
   */
  lostOnRemoval?: number;
}

export interface AccountsView {
  accounts: readonly AccountSummary[];
  /** Null while there is no account. */
  activeId: string | null;
  /** Accounts stored in a shape this version cannot read, not listed (lib/accounts/store.ts). */
  unreadable?: number;
}

export interface NewAccount extends ConnectionDraft {
  name: string;
}

/**
 * What the section does with accounts (lib/accounts through the page's wiring); tests pass fakes.
 * Each rejects with an ApiError whose message the section shows; nothing typed is lost then.
 */
export interface AccountsActions {
  /** The most accounts kept (lib/accounts says why). */
  maxAccounts: number;
  /** The name as it will be kept; throws an ApiError for an empty, too long or taken one. */
  checkName(typed: string, others: readonly AccountSummary[]): string;
  /** Resolves with whether the new account is the active one. */
  add(account: NewAccount): Promise<{ active: boolean }>;
  /** Asks the service for the profiles with the typed key (after confirming where the key goes). */
  testConnection(account: NewAccount): Promise<string[]>;
  rename(id: string, name: string): Promise<void>;
  /** Forgets the account, its key, its caches and its queued changes. */
  remove(id: string): Promise<void>;
  /** Forgets what is left of the accounts that could not be read, their keys included. */
  removeUnreadable?(): Promise<void>;
  activate(id: string): Promise<void>;
}

export interface AccountsSectionProps {
  /** Null until read. */
  view: AccountsView | null;
  actions: AccountsActions;
}

const EMPTY_DRAFT: NewAccount = { name: '', key: '', baseUrl: DEFAULT_BASE_URL, form: 'A' };

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/**
 * The options page's Accounts section (ui-contract.md: region "Accounts", button "Add account",
 * textbox "Account name"): the accounts with the active one marked, and adding, renaming,
 * removing (confirmed, saying how many changes would be lost) and choosing the active one.
 */
export function AccountsSection({ view, actions }: AccountsSectionProps) {
  const headingId = useId();
  const { status, run, busy } = useRemoteAction();
  const { confirm, dialog } = useConfirm();
  const [adding, setAdding] = useState(false);
  // Accounts the administrator's policy set up: no Rename, no Remove (the worker refuses it too).
  const policy = usePolicy();
  const [renaming, setRenaming] = useState<string | null>(null);

  const accounts = view?.accounts ?? [];
  const atLimit = accounts.length >= actions.maxAccounts;

  /** A name the user typed, checked against the other accounts' names. */
  const checkedName = (typed: string, except?: string): string =>
    actions.checkName(
      typed,
      accounts.filter((account) => account.id !== except),
    );

  const activate = (account: AccountSummary) =>
    run(
      t('accounts.switching'),
      () => actions.activate(account.id),
      () => t('accounts.switched', { name: account.name }),
    );

  const remove = async (account: AccountSummary) => {
    const lost = account.lostOnRemoval ?? account.waiting;
    const confirmed = await confirm({
      title: t('accounts.removeTitle', { name: account.name }),
      message: (
        <>
          <p>{t('accounts.removeText')}</p>
          <p>
            <strong>
              {lost === 0 ? t('accounts.removeNothingWaiting') : tn('accounts.removeWaiting', lost)}
            </strong>
          </p>
        </>
      ),
      confirmLabel: t('accounts.remove'),
    });
    if (!confirmed) return;
    await run(
      t('accounts.removing'),
      () => actions.remove(account.id),
      () => t('accounts.removed', { name: account.name }),
    );
  };

  const unreadable = view?.unreadable ?? 0;
  const removeUnreadable = actions.removeUnreadable;
  const confirmRemoveUnreadable = async (remove: () => Promise<void>) => {
    const confirmed = await confirm({
      title: t('accounts.removeUnreadableTitle'),
      message: <p>{t('accounts.removeUnreadableText')}</p>,
      confirmLabel: t('accounts.remove'),
    });
    if (!confirmed) return;
    await run(t('accounts.removingUnreadable'), remove, () => t('accounts.removedUnreadable'));
  };

  return (
    <section aria-labelledby={headingId} class="accounts">
      <h2 id={headingId}>{t('accounts.heading')}</h2>
      <p class="hint">{t('accounts.intro')}</p>
      {unreadable > 0 && (
        <div class="message message-warning accounts-unreadable">
          <p>{tn('accounts.unreadable', unreadable)}</p>
          {removeUnreadable && (
            <button
              type="button"
              class="btn btn-sm btn-danger"
              disabled={busy}
              onClick={() => void confirmRemoveUnreadable(removeUnreadable)}
            >
              {t('accounts.removeUnreadable')}
            </button>
          )}
        </div>
      )}
      {view !== null && accounts.length === 0 && <p>{t('accounts.none')}</p>}
      {accounts.length > 0 && (
        <ul class="accounts-list" aria-label={t('accounts.listName')}>
          {accounts.map((account) => {
            const active = account.id === view?.activeId;
            const managed = policy?.managedAccounts.has(account.id) ?? false;
            return (
              <li key={account.id} class={active ? 'account-entry active' : 'account-entry'}>
                {renaming === account.id ? (
                  <RenameForm
                    account={account}
                    busy={busy}
                    onCancel={() => setRenaming(null)}
                    onSave={(typed) =>
                      run(
                        t('accounts.renaming'),
                        async () => {
                          const name = checkedName(typed, account.id);
                          await actions.rename(account.id, name);
                          setRenaming(null);
                          return name;
                        },
                        (name) => t('accounts.renamed', { name }),
                      )
                    }
                  />
                ) : (
                  <>
                    <span class="account-text">
                      {/* The user's (or a file's) text: isolated from the words around it. */}
                      <bdi class="account-name">{account.name}</bdi>
                      {active && <span class="account-active-badge">{t('accounts.active')}</span>}
                      {managed && <span class="badge badge-managed">{t('policy.managed')}</span>}
                      <span class="account-where">
                        <bdi>
                          {t('accounts.where', {
                            host: hostOf(account.baseUrl),
                            form: describeForm(account.form).path,
                          })}
                        </bdi>
                      </span>
                      {!account.hasKey && <span class="account-where">{t('accounts.noKey')}</span>}
                      {managed && <span class="account-where">{t('policy.accountManaged')}</span>}
                      {account.waiting > 0 && (
                        <span class="account-waiting">{tn('accounts.waiting', account.waiting)}</span>
                      )}
                    </span>
                    <span class="actions">
                      {!active && (
                        <button
                          type="button"
                          class="btn btn-sm"
                          aria-label={t('accounts.useNamed', { name: account.name })}
                          disabled={busy}
                          onClick={() => void activate(account)}
                        >
                          {t('accounts.use')}
                        </button>
                      )}
                      {!managed && (
                        <button
                          type="button"
                          class="btn btn-sm"
                          aria-label={t('accounts.renameNamed', { name: account.name })}
                          disabled={busy}
                          onClick={() => {
                            // One form at a time: one "Account name" field on the page.
                            setAdding(false);
                            setRenaming(account.id);
                          }}
                        >
                          {t('accounts.rename')}
                        </button>
                      )}
                      {accounts.length > 1 && !managed && (
                        <button
                          type="button"
                          class="btn btn-sm btn-danger"
                          aria-label={t('accounts.removeNamed', { name: account.name })}
                          disabled={busy}
                          onClick={() => void remove(account)}
                        >
                          {t('accounts.remove')}
                        </button>
                      )}
                    </span>
                  </>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <p class="hint">
        {atLimit
          ? t('accounts.atLimit', { max: actions.maxAccounts })
          : t('accounts.limit', { max: actions.maxAccounts })}
      </p>
      <button
        type="button"
        class="btn"
        aria-expanded={adding}
        disabled={view === null || (atLimit && !adding)}
        onClick={() => {
          setRenaming(null);
          setAdding(!adding);
        }}
      >
        {t('accounts.add')}
      </button>
      {adding && (
        <AddAccountForm
          busy={busy}
          run={run}
          checkedName={checkedName}
          actions={actions}
          onDone={() => setAdding(false)}
        />
      )}
      <StatusMessage status={status} label={t('accounts.heading')} />
      {dialog}
    </section>
  );
}

function RenameForm({
  account,
  busy,
  onSave,
  onCancel,
}: {
  account: AccountSummary;
  busy: boolean;
  onSave(name: string): void;
  onCancel(): void;
}) {
  const [name, setName] = useState(account.name);
  const id = useId();
  return (
    <form
      class="inline account-text"
      onSubmit={(event) => {
        event.preventDefault();
        onSave(name);
      }}
    >
      <label for={id}>{t('accounts.name')}</label>
      <input
        id={id}
        class="input"
        type="text"
        autoComplete="off"
        value={name}
        // The field replaces the name the user chose to edit.
        // biome-ignore lint/a11y/noAutofocus: focus goes where the user just asked to type
        autoFocus
        onInput={(event) => setName(event.currentTarget.value)}
      />
      <button type="submit" class="btn btn-sm btn-primary" aria-disabled={busy}>
        {t('accounts.saveName')}
      </button>
      <button type="button" class="btn btn-sm" onClick={onCancel}>
        {t('common.cancel')}
      </button>
    </form>
  );
}

type Run = ReturnType<typeof useRemoteAction>['run'];

function AddAccountForm({
  busy,
  run,
  checkedName,
  actions,
  onDone,
}: {
  busy: boolean;
  run: Run;
  checkedName(typed: string): string;
  actions: Pick<AccountsActions, 'add' | 'testConnection'>;
  onDone(): void;
}) {
  const [draft, setDraft] = useState<NewAccount>(EMPTY_DRAFT);
  const ids = { heading: useId(), name: useId(), nameHint: useId() };
  const update = (patch: Partial<NewAccount>) => setDraft((current) => ({ ...current, ...patch }));

  /** What the user typed, checked; throws an ApiError the status region shows. Nothing is lost. */
  const checked = (): NewAccount => {
    const name = checkedName(draft.name);
    const key = draft.key.trim();
    if (!key) throw new ApiError('invalid-input', t('setup.enterKeyFirst'), { field: 'key' });
    const base = validateBaseUrl(draft.baseUrl);
    if (!base.ok) throw new ApiError('invalid-input', base.message, { field: 'baseUrl' });
    return { name, key, baseUrl: base.value, form: draft.form };
  };

  const save = () =>
    run(
      t('accounts.adding'),
      async () => {
        const account = checked();
        const { active } = await actions.add(account);
        // The key leaves the page's memory with the form.
        setDraft(EMPTY_DRAFT);
        onDone();
        return { name: account.name, active };
      },
      ({ name, active }) => t(active ? 'accounts.addedActive' : 'accounts.added', { name }),
    );

  const testConnection = () =>
    run(
      t('setup.testing'),
      () => actions.testConnection(checked()),
      (profiles) => tn('setup.connected', profiles.length, { profiles: profiles.join(', ') }),
    );

  return (
    <form
      class="account-form"
      aria-labelledby={ids.heading}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <h3 id={ids.heading}>{t('accounts.newHeading')}</h3>
      <div class="field">
        <label for={ids.name}>{t('accounts.name')}</label>
        <input
          id={ids.name}
          class="input"
          type="text"
          autoComplete="off"
          aria-describedby={ids.nameHint}
          value={draft.name}
          // biome-ignore lint/a11y/noAutofocus: the form opened because the user is about to type
          autoFocus
          onInput={(event) => update({ name: event.currentTarget.value })}
        />
        <p id={ids.nameHint} class="hint">
          {t('accounts.nameHint')}
        </p>
      </div>
      <ConnectionFields value={draft} onChange={update} />
      <div class="actions">
        <button type="submit" class="btn btn-primary" aria-disabled={busy}>
          {t('accounts.save')}
        </button>
        <button type="button" class="btn" aria-disabled={busy} onClick={() => void testConnection()}>
          {t('setup.testConnection')}
        </button>
        <button type="button" class="btn" onClick={onDone}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
