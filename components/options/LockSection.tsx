import { useEffect, useId, useState } from 'preact/hooks';
import { followedAccounts } from '@/lib/accounts';
import { t } from '@/lib/i18n';
import {
  approveRequest,
  changePassphrase,
  declineRequest,
  type LockStatus,
  lockNow,
  type OptionsLockOutcome,
  passphraseProblem,
  readLockStatus,
  requestText,
  saveSettings,
  turnOff,
  turnOn,
  unlock,
  watchLock,
} from '@/lib/lock/options-lock';
import { type AccessRequest, readAccessRequests, watchAccessRequests } from '@/lib/lock/requests';
import { MAX_IDLE_MINUTES, MIN_IDLE_MINUTES } from '@/lib/lock/schemas';
import type { BackgroundChoice } from '@/lib/lock/sealed-storage';
import { worker } from '@/lib/messaging/worker-client';
import { useStoredValue } from '../useStoredValue';

/** The lock's status, followed; null until read. */
export function useLockStatus(): LockStatus | null {
  const [status, setStatus] = useState<LockStatus | null>(null);
  useEffect(() => {
    let live = true;
    const read = () => void readLockStatus().then((next) => live && setStatus(next));
    read();
    const unwatch = watchLock(read);
    return () => {
      live = false;
      unwatch();
    };
  }, []);
  return status;
}

function Note({ outcome }: { outcome: OptionsLockOutcome | null }) {
  if (!outcome || outcome.message === '') return null;
  return (
    <p class={outcome.ok ? 'hint' : 'error-text'} role={outcome.ok ? 'status' : 'alert'}>
      {outcome.message}
    </p>
  );
}

function PasswordField({
  label,
  value,
  onInput,
  autocomplete = 'current-password',
}: {
  label: string;
  value: string;
  onInput(value: string): void;
  autocomplete?: string;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        class="input"
        type="password"
        autocomplete={autocomplete}
        value={value}
        onInput={(event) => onInput(event.currentTarget.value)}
      />
    </div>
  );
}

/** Runs a lock operation once at a time, keeping its outcome to show. */
function useOperation() {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<OptionsLockOutcome | null>(null);
  const run = async (operation: () => Promise<OptionsLockOutcome>) => {
    if (busy) return null;
    setBusy(true);
    setOutcome(null);
    try {
      const done = await operation();
      setOutcome(done);
      return done;
    } finally {
      setBusy(false);
    }
  };
  return { busy, outcome, setOutcome, run };
}

/** The idle time and each account's background choice, as turned on or changed. */
function LockChoices({
  idleMinutes,
  background,
  onChange,
}: {
  idleMinutes: number;
  background: Record<string, BackgroundChoice>;
  onChange(next: { idleMinutes: number; background: Record<string, BackgroundChoice> }): void;
}) {
  const accounts = useStoredValue(followedAccounts, null);
  const idleId = useId();
  const groupId = useId();
  return (
    <>
      <div class="field">
        <label for={idleId}>{t('lock.idleMinutes')}</label>
        <input
          id={idleId}
          class="input"
          type="number"
          min={MIN_IDLE_MINUTES}
          max={MAX_IDLE_MINUTES}
          step={1}
          value={idleMinutes}
          onInput={(event) => {
            const minutes = Math.round(Number(event.currentTarget.value));
            if (Number.isFinite(minutes)) onChange({ idleMinutes: minutes, background });
          }}
        />
      </div>
      <p class="hint">{t('lock.backgroundHint')}</p>
      {accounts?.accounts.map((account) => (
        <fieldset key={account.id} class="fieldset">
          <legend>{t('lock.backgroundHeading', { account: account.name })}</legend>
          {(['keep', 'strict'] as const).map((choice) => (
            <div class="check" key={choice}>
              <input
                id={`${groupId}-${account.id}-${choice}`}
                type="radio"
                name={`${groupId}-${account.id}`}
                checked={(background[account.id] ?? 'strict') === choice}
                onChange={() =>
                  onChange({ idleMinutes, background: { ...background, [account.id]: choice } })
                }
              />
              <label for={`${groupId}-${account.id}-${choice}`}>
                {t(choice === 'keep' ? 'lock.backgroundKeep' : 'lock.backgroundStrict')}
              </label>
            </div>
          ))}
        </fieldset>
      ))}
    </>
  );
}

function TurnOnForm() {
  const [passphrase, setPassphrase] = useState('');
  const [repeated, setRepeated] = useState('');
  const [choices, setChoices] = useState({
    idleMinutes: 5,
    background: {} as Record<string, BackgroundChoice>,
  });
  const { busy, outcome, setOutcome, run } = useOperation();
  const submit = async (event: Event) => {
    event.preventDefault();
    const problem = passphraseProblem(passphrase, repeated);
    if (problem) return setOutcome({ ok: false, message: problem });
    const done = await run(() => turnOn({ passphrase, ...choices }));
    if (done?.ok) {
      setPassphrase('');
      setRepeated('');
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)}>
      <p class="hint">{t('lock.stateOff')}</p>
      <p class="warning">{t('lock.forgetWarning')}</p>
      <PasswordField
        label={t('lock.passphrase')}
        value={passphrase}
        onInput={setPassphrase}
        autocomplete="new-password"
      />
      <PasswordField
        label={t('lock.repeat')}
        value={repeated}
        onInput={setRepeated}
        autocomplete="new-password"
      />
      <LockChoices {...choices} onChange={setChoices} />
      <div class="actions">
        <button type="submit" class="btn btn-primary" disabled={busy}>
          {t('lock.turnOn')}
        </button>
      </div>
      <Note outcome={outcome} />
    </form>
  );
}

function SettingsWhenOn({ status }: { status: LockStatus }) {
  const [choices, setChoices] = useState({ idleMinutes: status.idleMinutes, background: status.background });
  const { busy, outcome, run } = useOperation();
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void run(() => saveSettings(choices));
      }}
    >
      <LockChoices {...choices} onChange={setChoices} />
      <div class="actions">
        <button type="submit" class="btn btn-secondary" disabled={busy}>
          {t('lock.saveSettings')}
        </button>
      </div>
      <Note outcome={outcome} />
    </form>
  );
}

function ChangePassphraseForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeated, setRepeated] = useState('');
  const { busy, outcome, setOutcome, run } = useOperation();
  const submit = async (event: Event) => {
    event.preventDefault();
    const problem = passphraseProblem(next, repeated);
    if (problem) return setOutcome({ ok: false, message: problem });
    const done = await run(() => changePassphrase(current, next));
    if (done?.ok) {
      setCurrent('');
      setNext('');
      setRepeated('');
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)}>
      <h3>{t('lock.changeHeading')}</h3>
      <PasswordField label={t('lock.currentPassphrase')} value={current} onInput={setCurrent} />
      <PasswordField
        label={t('lock.newPassphrase')}
        value={next}
        onInput={setNext}
        autocomplete="new-password"
      />
      <PasswordField
        label={t('lock.repeat')}
        value={repeated}
        onInput={setRepeated}
        autocomplete="new-password"
      />
      <div class="actions">
        <button type="submit" class="btn btn-secondary" disabled={busy}>
          {t('lock.changePassphrase')}
        </button>
      </div>
      <Note outcome={outcome} />
    </form>
  );
}

function TurnOffForm({ lockRequired }: { lockRequired: boolean }) {
  const [passphrase, setPassphrase] = useState('');
  const { busy, outcome, run } = useOperation();
  if (lockRequired) return <p class="hint">{t('lock.required')}</p>;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void run(() => turnOff(passphrase, { lockRequired }));
      }}
    >
      <h3>{t('lock.turnOffHeading')}</h3>
      <p class="hint">{t('lock.turnOffHint')}</p>
      <PasswordField label={t('lock.passphrase')} value={passphrase} onInput={setPassphrase} />
      <div class="actions">
        <button type="submit" class="btn btn-secondary" disabled={busy}>
          {t('lock.turnOff')}
        </button>
      </div>
      <Note outcome={outcome} />
    </form>
  );
}

function AccessRequests() {
  const [requests, setRequests] = useState<AccessRequest[]>([]);
  const { busy, outcome, run } = useOperation();
  useEffect(() => {
    void readAccessRequests().then(setRequests);
    return watchAccessRequests(setRequests);
  }, []);
  return (
    <section class="lock-requests">
      <h3>{t('lock.requestsHeading')}</h3>
      {requests.length === 0 && <p class="hint">{t('lock.requestsNone')}</p>}
      <ul class="plain-list">
        {requests.map((request) => (
          <li key={request.id} class="card lock-request">
            <p>{requestText(request)}</p>
            <div class="actions">
              <button
                type="button"
                class="btn btn-primary btn-sm"
                disabled={busy}
                onClick={() => void run(() => approveRequest(request, 'whitelist', worker))}
              >
                {t('lock.approve', { site: request.site })}
              </button>
              <button
                type="button"
                class="btn btn-secondary btn-sm"
                disabled={busy}
                onClick={() => void run(() => approveRequest(request, 'hour', worker))}
              >
                {t('lock.approveForAWhile', { site: request.site })}
              </button>
              <button
                type="button"
                class="btn btn-secondary btn-sm"
                disabled={busy}
                onClick={() => void run(() => declineRequest(request))}
              >
                {t('lock.decline')}
              </button>
              <button
                type="button"
                class="btn btn-ghost btn-sm"
                onClick={() =>
                  void run(async () => {
                    await navigator.clipboard.writeText(requestText(request));
                    return { ok: true, message: t('lock.copied') };
                  })
                }
              >
                {t('lock.copy')}
              </button>
            </div>
          </li>
        ))}
      </ul>
      <Note outcome={outcome} />
    </section>
  );
}

/**
 * The Lock section (docs/lock.md): turning the lock on (after saying what a forgotten passphrase
 * costs), Lock now, the idle time and background choices, changing the passphrase or turning it
 * off (each with the passphrase), and the open requests for access. `lockRequired`: a policy
 * requires the lock (managed deployment), so it cannot be turned off here.
 */
export function LockSection({
  status,
  lockRequired = false,
}: {
  status: LockStatus | null;
  lockRequired?: boolean;
}) {
  const headingId = useId();
  if (status === null) return null;
  return (
    <section aria-labelledby={headingId} class="lock-section">
      <h2 id={headingId}>{t('lock.section')}</h2>
      <p class="hint">{t('lock.intro')}</p>
      {!status.on ? (
        <>
          {lockRequired && (
            <p class="message message-info" role="note">
              {t('lock.requiredOff')}
            </p>
          )}
          <TurnOnForm />
        </>
      ) : (
        <>
          <p role="status">{t('lock.stateUnlocked', { minutes: status.idleMinutes })}</p>
          <div class="actions">
            <button type="button" class="btn btn-primary" onClick={() => void lockNow()}>
              {t('lock.lockNow')}
            </button>
          </div>
          <AccessRequests />
          <SettingsWhenOn status={status} />
          <ChangePassphraseForm />
          <TurnOffForm lockRequired={lockRequired} />
        </>
      )}
    </section>
  );
}

/** The whole page while locked (docs/lock.md, "The options page"): the passphrase first. */
export function LockedPage() {
  const [passphrase, setPassphrase] = useState('');
  const { busy, outcome, run } = useOperation();
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} class="lock-section">
      <h2 id={headingId}>{t('lock.section')}</h2>
      <p>{t('lock.optionsLocked')}</p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void run(() => unlock(passphrase)).then((done) => done?.ok && setPassphrase(''));
        }}
      >
        <PasswordField label={t('lock.passphrase')} value={passphrase} onInput={setPassphrase} />
        <div class="actions">
          <button type="submit" class="btn btn-primary" disabled={busy || passphrase === ''}>
            {t('lock.unlock')}
          </button>
        </div>
        <Note outcome={outcome} />
      </form>
    </section>
  );
}
