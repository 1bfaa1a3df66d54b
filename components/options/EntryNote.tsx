import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { t } from '@/lib/i18n';
import {
  type AccountNotes,
  type AccountNotesAccess,
  type EntryRecord,
  NOTE_MAX_CHARS,
  originLine,
} from '@/lib/notes';
import './entry-note.css';

/** The account's entry records, followed while the page shows them; null until read (or without them). */
export function useAccountNotes(access: AccountNotesAccess | undefined): AccountNotes | null {
  const [notes, setNotes] = useState<AccountNotes | null>(null);
  useEffect(() => {
    if (!access) return undefined;
    let live = true;
    access.read().then(
      (read) => {
        if (live) setNotes(read);
      },
      () => undefined,
    );
    const unfollow = access.follow((next) => setNotes(next));
    return () => {
      live = false;
      unfollow();
    };
  }, [access]);
  return notes;
}

/** The line under a list entry: where it came from, and its note. */
export function EntryOrigin({ record }: { record: EntryRecord | undefined }) {
  return (
    <span class="entry-origin">
      {originLine(record)}
      {record?.note === undefined ? null : (
        // The user's (or an imported file's) text: isolated, so no character in it reorders the line.
        <span class="entry-note-text">
          {' · “'}
          <bdi>{record.note}</bdi>
          {'”'}
        </span>
      )}
    </span>
  );
}

interface EntryNoteProps {
  domain: string;
  record: EntryRecord | undefined;
  busy: boolean;
  onSave: (text: string) => void | Promise<void>;
  onClose: () => void;
}

/** Writing or changing the note of one list entry; an empty note removes it. */
export function EntryNote({ domain, record, busy, onSave, onClose }: EntryNoteProps) {
  const [text, setText] = useState(record?.note ?? '');
  const box = useRef<HTMLTextAreaElement>(null);
  const headingId = useId();
  const boxId = useId();
  const hintId = useId();

  useEffect(() => {
    box.current?.focus();
  }, [domain]);

  return (
    <form
      class="entry-note"
      aria-labelledby={headingId}
      onSubmit={(event) => {
        event.preventDefault();
        void onSave(text);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
      }}
    >
      <p class="entry-note-heading" id={headingId}>
        {t('notes.editingFor', { domain })}
        <span class="entry-origin">{originLine(record)}</span>
      </p>
      <label for={boxId}>{t('notes.label')}</label>
      <textarea
        id={boxId}
        ref={box}
        rows={2}
        maxLength={NOTE_MAX_CHARS}
        aria-describedby={hintId}
        value={text}
        onInput={(event) => setText(event.currentTarget.value)}
      />
      <p class="hint" id={hintId}>
        {t('notes.hint', { max: NOTE_MAX_CHARS })}
      </p>
      <div class="actions">
        <button type="submit" class="btn btn-primary btn-sm" aria-disabled={busy}>
          {t('notes.save')}
        </button>
        <button type="button" class="btn btn-secondary btn-sm" onClick={onClose}>
          {t('notes.cancel')}
        </button>
      </div>
    </form>
  );
}
