import { useId } from 'preact/hooks';

interface OneLineFormProps {
  label: string;
  hint: string;
  value: string;
  onInput(value: string): void;
  submitLabel: string;
  /** Marks the button unavailable but keeps it focusable; `onSubmit` ignores a press meanwhile. */
  busy: boolean;
  onSubmit(): void;
}

/** One text field with its label, its button beside it and its hint below (a new profile, a TLD). */
export function OneLineForm({ label, hint, value, onInput, submitLabel, busy, onSubmit }: OneLineFormProps) {
  const inputId = useId();
  const hintId = useId();
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <div class="field">
        <label for={inputId}>{label}</label>
        <div class="inline">
          <input
            id={inputId}
            type="text"
            autoComplete="off"
            spellcheck={false}
            aria-describedby={hintId}
            value={value}
            onInput={(event) => onInput(event.currentTarget.value)}
          />
          <button type="submit" aria-disabled={busy}>
            {submitLabel}
          </button>
        </div>
        <p class="hint" id={hintId}>
          {hint}
        </p>
      </div>
    </form>
  );
}
