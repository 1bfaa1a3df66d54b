import { useId, useRef, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { validateBaseUrl } from '@/lib/api';
import { createDraftClient } from '@/lib/api/configured-client';
import { ApiError } from '@/lib/api/errors';
import { describeForm } from '@/lib/api/forms';
import type { ApiForm } from '@/lib/api/types';
import { t, tn } from '@/lib/i18n';
import { hostPermissionFor } from '@/lib/permissions/host-permission';
import { confirmKeyDestination } from '@/lib/permissions/key-destination';
import { DEFAULT_BASE_URL } from '@/lib/settings/storage';
import { useConfirm } from '../ConfirmDialog';
import { StatusMessage } from '../StatusMessage';
import { useRemoteAction } from '../useRemoteAction';
import '../accounts.css';

/** An account as this section shows it: never its key. */
export interface AccountSummary {
  id: string;
  name: string;
  baseUrl: string;
  form: ApiForm;
  /** Changes queued for it and not yet delivered. */
  waiting: number;
}

export interface AccountsView {
  accounts: readonly AccountSummary[];
  /** Null while there is no account. */
  activeId: string | null;
}

export interface NewAccount {
  name: string;
  key: string;
  baseUrl: string;
  form: ApiForm;
}

/** What the section does with accounts (lib/accounts through the page's wiring); tests pass fakes. */
export interface AccountsActions {
  /** The most accounts kept (lib/accounts says why). */
  maxAccounts: number;
  maxNameLength: number;
  /** Resolves with whether the new account is the active one. Rejects with an ApiError to show. */
  add(account: NewAccount): Promise<{ active: boolean }>;
  rename(id: string, name: string): Promise<void>;
  /** Forgets the account, its key, its caches and its queued changes. */
  remove(id: string): Promise<void>;
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
  const [renaming, setRenaming] = useState<string | null>(null);

  const accounts = view?.accounts ?? [];
  const atLimit = accounts.length >= actions.maxAccounts;

  /** A name the user typed, checked: throws an ApiError on the name field. */
  const checkedName = (typed: string, except?: string): string => {
    const name = typed.trim().replace(/\s+/g, ' ');
    if (!name) throw new ApiError('invalid-input', t('accounts.enterName'), { field: 'name' });
    if (name.length > actions.maxNameLength) {
      throw new ApiError('invalid-input', t('accounts.nameTooLong', { max: actions.maxNameLength }), {
        field: 'name',
      });
    }
    const taken = accounts.some(
      (account) => account.id !== except && account.name.toLocaleLowerCase() === name.toLocaleLowerCase(),
    );
    if (taken) throw new ApiError('invalid-input', t('accounts.nameTaken', { name }), { field: 'name' });
    return name;
  };

  const activate = (account: AccountSummary) =>
    run(
      t('accounts.switching'),
      () => actions.activate(account.id),
      () => t('accounts.switched', { name: account.name }),
    );

  const remove = async (account: AccountSummary) => {
    const confirmed = await confirm({
      title: t('accounts.removeTitle', { name: account.name }),
      message: (
        <>
          <p>{t('accounts.removeText')}</p>
          <p>
            <strong>
              {account.waiting === 0
                ? t('accounts.removeNothingWaiting')
                : tn('accounts.removeWaiting', account.waiting)}
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

  return (
    <section aria-labelledby={headingId} class="accounts">
      <h2 id={headingId}>{t('accounts.heading')}</h2>
      <p class="hint">{t('accounts.intro')}</p>
      {view !== null && accounts.length === 0 && <p>{t('accounts.none')}</p>}
      {accounts.length > 0 && (
        <ul class="accounts-list" aria-label={t('accounts.listName')}>
          {accounts.map((account) => {
            const active = account.id === view?.activeId;
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
                      <span class="account-name">{account.name}</span>
                      {active && <span class="account-active-badge">{t('accounts.active')}</span>}
                      <span class="account-where">
                        <bdi>
                          {t('accounts.where', {
                            host: hostOf(account.baseUrl),
                            form: describeForm(account.form).path,
                          })}
                        </bdi>
                      </span>
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
                      <button
                        type="button"
                        class="btn btn-sm"
                        aria-label={t('accounts.renameNamed', { name: account.name })}
                        disabled={busy}
                        onClick={() => setRenaming(account.id)}
                      >
                        {t('accounts.rename')}
                      </button>
                      <button
                        type="button"
                        class="btn btn-sm btn-danger"
                        aria-label={t('accounts.removeNamed', { name: account.name })}
                        disabled={busy}
                        onClick={() => void remove(account)}
                      >
                        {t('accounts.remove')}
                      </button>
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
        onClick={() => setAdding(!adding)}
      >
        {t('accounts.add')}
      </button>
      {adding && (
        <AddAccountForm
          busy={busy}
          run={run}
          checkedName={checkedName}
          add={actions.add}
          onDone={() => setAdding(false)}
          confirm={confirm}
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
type Confirm = ReturnType<typeof useConfirm>['confirm'];

function AddAccountForm({
  busy,
  run,
  checkedName,
  add,
  onDone,
  confirm,
}: {
  busy: boolean;
  run: Run;
  checkedName(typed: string): string;
  add: AccountsActions['add'];
  onDone(): void;
  confirm: Confirm;
}) {
  const [draft, setDraft] = useState<NewAccount>(EMPTY_DRAFT);
  const [keyVisible, setKeyVisible] = useState(false);
  // Origins the user confirmed for Test connection in this form: not asked about twice.
  const confirmedOrigins = useRef(new Set<string>());
  const ids = {
    heading: useId(),
    name: useId(),
    nameHint: useId(),
    key: useId(),
    url: useId(),
    form: useId(),
  };
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
        const permission = hostPermissionFor(account.baseUrl);
        // Asked here, inside the click: browsers only show the prompt during a user gesture.
        if (permission && !(await browser.permissions.request({ origins: [permission] }))) {
          throw new ApiError('invalid-input', t('setup.permissionRefused', { baseUrl: account.baseUrl }), {
            field: 'baseUrl',
          });
        }
        const { active } = await add(account);
        setDraft(EMPTY_DRAFT);
        onDone();
        return { name: account.name, active };
      },
      ({ name, active }) => t(active ? 'accounts.addedActive' : 'accounts.added', { name }),
    );

  const testConnection = () =>
    run(
      t('setup.testing'),
      async () => {
        const account = checked();
        // The key typed here belongs to no saved account yet: any origin but the default
        // service is confirmed before it goes there.
        await confirmKeyDestination(account.baseUrl, {
          savedOrigin: async () => DEFAULT_BASE_URL,
          confirm: ({ origin, host }) =>
            confirm({
              title: t('setup.confirmTitle', { host }),
              message: <p>{t('accounts.confirmTestText', { origin })}</p>,
              confirmLabel: t('setup.confirmSend'),
            }),
          permissions: browser.permissions,
          confirmed: confirmedOrigins.current,
        });
        const client = await createDraftClient(account);
        return client.listProfiles();
      },
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
      <div class="field">
        <label for={ids.key}>{t('setup.apiKey')}</label>
        <div class="inline">
          <input
            id={ids.key}
            class="input"
            type={keyVisible ? 'text' : 'password'}
            autoComplete="off"
            spellcheck={false}
            value={draft.key}
            onInput={(event) => update({ key: event.currentTarget.value })}
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
      </div>
      <div class="field">
        <label for={ids.url}>{t('setup.baseUrl')}</label>
        <input
          id={ids.url}
          class="input"
          type="url"
          value={draft.baseUrl}
          onInput={(event) => update({ baseUrl: event.currentTarget.value })}
        />
      </div>
      <div class="field">
        <label for={ids.form}>{t('setup.apiForm')}</label>
        <select
          id={ids.form}
          class="select"
          value={draft.form}
          onChange={(event) => update({ form: event.currentTarget.value as ApiForm })}
        >
          <option value="A">{t('setup.formA')}</option>
          <option value="B">{t('setup.formB')}</option>
        </select>
      </div>
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
