import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useId, useRef, useState } from 'preact/hooks';
import { t } from '@/lib/i18n';
import { WarningIcon } from './icons/Icon';

export interface ConfirmRequest {
  title: string;
  message: ComponentChildren;
  /** Text of the confirming button, e.g. "Delete". */
  confirmLabel: string;
  cancelLabel?: string;
  /** A typed confirmation: the confirming button stays disabled until `matches` accepts what was typed. */
  typed?: { label: string; matches: (typed: string) => boolean };
}

interface ConfirmDialogProps extends ConfirmRequest {
  onClose: (confirmed: boolean) => void;
}

/**
 * A modal confirmation built on the native <dialog>: the browser traps focus inside it, closes it
 * with Escape and gives focus back to the button that opened it. Focus starts on Cancel so an
 * accidental Enter never confirms a destructive action.
 */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  cancelLabel = t('common.cancel'),
  typed,
  onClose,
}: ConfirmDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const messageId = useId();
  const typedId = useId();
  const [typedText, setTypedText] = useState('');
  const mayConfirm = typed === undefined || typed.matches(typedText);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    cancelRef.current?.focus();
    return () => {
      if (dialog.open) dialog.close();
    };
  }, []);

  return (
    <dialog
      ref={dialogRef}
      class="confirm-dialog"
      aria-labelledby={titleId}
      aria-describedby={messageId}
      onCancel={(event) => {
        event.preventDefault();
        onClose(false);
      }}
    >
      <h2 id={titleId}>
        <WarningIcon class="confirm-icon" />
        {title}
      </h2>
      <div id={messageId} class="confirm-message">
        {message}
      </div>
      {typed && (
        <div class="field">
          <label for={typedId}>{typed.label}</label>
          <input
            id={typedId}
            type="text"
            autoComplete="off"
            spellcheck={false}
            value={typedText}
            onInput={(event) => setTypedText(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && typed.matches(event.currentTarget.value)) onClose(true);
            }}
          />
        </div>
      )}
      <div class="actions">
        <button type="button" class="btn-secondary" ref={cancelRef} onClick={() => onClose(false)}>
          {cancelLabel}
        </button>
        <button
          type="button"
          class="btn-danger"
          disabled={!mayConfirm}
          onClick={() => mayConfirm && onClose(true)}
        >
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

/**
 * `const { confirm, dialog } = useConfirm()`: render `dialog` anywhere in the component, and
 * `await confirm({...})` resolves true only when the user chose the confirming button.
 */
export function useConfirm() {
  const [request, setRequest] = useState<(ConfirmRequest & { resolve: (ok: boolean) => void }) | null>(null);
  const pending = useRef<((ok: boolean) => void) | null>(null);

  useEffect(() => () => pending.current?.(false), []);

  const confirm = useCallback(
    (next: ConfirmRequest) =>
      new Promise<boolean>((resolve) => {
        pending.current?.(false);
        pending.current = resolve;
        setRequest({ ...next, resolve });
      }),
    [],
  );

  const dialog = request ? (
    <ConfirmDialog
      title={request.title}
      message={request.message}
      confirmLabel={request.confirmLabel}
      cancelLabel={request.cancelLabel}
      typed={request.typed}
      onClose={(confirmed) => {
        pending.current = null;
        setRequest(null);
        request.resolve(confirmed);
      }}
    />
  ) : null;

  return { confirm, dialog };
}
