import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { t } from '@/lib/i18n';
import type { PopupLock, PopupLockStatus } from '@/lib/lock/popup-lock';

function useLockStatus(lock: PopupLock | undefined): [PopupLockStatus, (status: PopupLockStatus) => void] {
  const [status, setStatus] = useState<PopupLockStatus>({ on: false, locked: false });
  useEffect(() => {
    if (!lock) return;
    let live = true;
    const read = () => void lock.status().then((next) => live && setStatus(next));
    read();
    const unwatch = lock.watch(read);
    return () => {
      live = false;
      unwatch();
    };
  }, [lock]);
  return [status, setStatus];
}

/**
 * The popup's changes behind the lock (docs/lock.md, "The popup"): while locked, a click on any
 * button inside asks for the passphrase in the popup itself and is carried out once it unlocks;
 * "Ask for access" records a request instead. Unlocked, it offers "Lock now".
 */
export function LockGate({
  lock,
  site,
  profile,
  children,
}: {
  lock: PopupLock | undefined;
  site: string;
  profile: string | undefined;
  children: ComponentChildren;
}) {
  const [status, setStatus] = useLockStatus(lock);
  const [passphrase, setPassphrase] = useState('');
  const [message, setMessage] = useState('');
  const [note, setNote] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const waiting = useRef<HTMLButtonElement | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const ids = { passphrase: useId(), message: useId(), note: useId() };

  const onClickCapture = (event: MouseEvent) => {
    if (!status.locked) return;
    const button = (event.target as Element | null)?.closest('button');
    if (!button || button.closest('[data-lock-panel]')) return;
    // Carried out once unlocked: the same button is clicked again then.
    event.preventDefault();
    event.stopPropagation();
    waiting.current = button;
    setNote({ text: t('lock.popupLocked'), error: false });
    field.current?.focus();
  };

  const unlock = async (event: Event) => {
    event.preventDefault();
    if (!lock || busy || passphrase === '') return;
    setBusy(true);
    setNote({ text: t('lock.unlocking'), error: false });
    const outcome = await lock.unlock(passphrase);
    setBusy(false);
    if (!outcome.ok) {
      setNote({ text: outcome.message, error: true });
      field.current?.select();
      return;
    }
    setPassphrase('');
    setNote(null);
    setStatus({ on: true, locked: false });
    const button = waiting.current;
    waiting.current = null;
    // The click that asked for the passphrase goes on, once this render no longer holds it back.
    if (button) setTimeout(() => button.isConnected && button.click(), 0);
  };

  const ask = async () => {
    if (!lock || busy) return;
    setBusy(true);
    const outcome = await lock.ask({ site, profile, message });
    setBusy(false);
    setMessage('');
    setNote({ text: outcome.message ?? '', error: !outcome.ok });
  };

  return (
    <div class="lock-gate" onClickCapture={onClickCapture}>
      {status.locked && (
        <section class="card lock-card" data-lock-panel aria-label={t('lock.section')}>
          <p class="lock-title">{t('lock.popupLocked')}</p>
          <form class="lock-row" onSubmit={(event) => void unlock(event)}>
            <label class="visually-hidden" for={ids.passphrase}>
              {t('lock.passphrase')}
            </label>
            <input
              ref={field}
              id={ids.passphrase}
              class="input"
              type="password"
              autocomplete="current-password"
              placeholder={t('lock.passphrase')}
              value={passphrase}
              aria-describedby={note ? ids.note : undefined}
              onInput={(event) => setPassphrase(event.currentTarget.value)}
            />
            <button type="submit" class="btn btn-primary" disabled={busy}>
              {t('lock.unlock')}
            </button>
          </form>
          {note && (
            <p
              id={ids.note}
              class={note.error ? 'lock-note error' : 'lock-note'}
              role={note.error ? 'alert' : 'status'}
            >
              {note.text}
            </p>
          )}
          <div class="lock-ask">
            <label for={ids.message}>{t('lock.askMessage')}</label>
            <input
              id={ids.message}
              class="input"
              type="text"
              maxLength={500}
              value={message}
              onInput={(event) => setMessage(event.currentTarget.value)}
            />
            <button type="button" class="btn btn-secondary" disabled={busy} onClick={() => void ask()}>
              {t('lock.askForAccess')}
            </button>
          </div>
        </section>
      )}
      {children}
      {status.on && !status.locked && lock && (
        <div class="lock-now-row">
          <button type="button" class="btn btn-secondary btn-sm" onClick={() => void lock.lockNow()}>
            {t('lock.lockNow')}
          </button>
        </div>
      )}
    </div>
  );
}
