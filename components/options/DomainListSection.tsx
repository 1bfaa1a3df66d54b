import { useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import type { DomainListKind } from '@/lib/api/types';
import { formatNumber, t, tn } from '@/lib/i18n';
import { type BulkOutcome, runBulkAdd } from '@/lib/lists/bulk-add';
import { parseDomainLines } from '@/lib/lists/domain-lines';
import { filterDomains, withDomain, withoutDomain } from '@/lib/lists/sorted-domains';
import { type EntryRecord, recordMatches } from '@/lib/notes';
import { activeRulesOwningDomains, type DomainsOwned } from '@/lib/schedules/manual';
import { ScheduleOwnedNotice } from '../ScheduleOwnedNotice';
import { FailureNotice, StatusMessage } from '../StatusMessage';
import { useRemoteAction } from '../useRemoteAction';
import type { useRemoteData } from '../useRemoteData';
import { VirtualList } from '../VirtualList';
import { propagationNote, scopePhrase, useAccount } from './account-context';
import { EntryNote, EntryOrigin, useAccountNotes } from './EntryNote';
import { ScopeNote } from './ScopeNote';

const title = (list: DomainListKind) =>
  t(list === 'whitelist' ? 'domainList.title.whitelist' : 'domainList.title.blocklist');
const about = (list: DomainListKind) =>
  t(list === 'whitelist' ? 'domainList.about.whitelist' : 'domainList.about.blocklist');
/** The list's name inside a sentence ("the whitelist"). */
const listName = (list: DomainListKind) => t(list === 'whitelist' ? 'common.whitelist' : 'common.blocklist');
const ROW_HEIGHT = 36;
/** Rows with the line saying where the entry came from (lib/notes). */
const ROW_HEIGHT_WITH_ORIGIN = 50;
const CONFLICTS_NAMED = 10;

type ResultRow = BulkOutcome | { domain: string; state: 'refused'; message: string };

interface DomainListSectionProps {
  list: DomainListKind;
  remote: ReturnType<typeof useRemoteData<readonly string[]>>;
  /** Domains on both lists of this scope. */
  conflicts: readonly string[];
}

export function DomainListSection({ list, remote, conflicts }: DomainListSectionProps) {
  const { client, form, profile, scope, onListChanged, entryNotes } = useAccount();
  const other: DomainListKind = list === 'whitelist' ? 'blocklist' : 'whitelist';
  const { status, run, setStatus, busy } = useRemoteAction();
  const [draft, setDraft] = useState('');
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<readonly ResultRow[]>([]);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const stopper = useRef<AbortController | null>(null);
  const listBox = useRef<HTMLDivElement>(null);
  const filterBox = useRef<HTMLInputElement>(null);
  const focusRowAfterRemoval = useRef<number | null>(null);
  const headingId = useId();
  const draftId = useId();
  const draftHintId = useId();
  const filterId = useId();
  const accountNotes = useAccountNotes(entryNotes);
  const [noteFor, setNoteFor] = useState<string | null>(null);
  // Schedules owning what was just added or removed: they say so (docs/schedules.md, "Manual changes").
  const [owned, setOwned] = useState<readonly DomainsOwned[]>([]);
  /** This list's records (when, where from, note) by domain. */
  const records = useMemo(() => {
    const mine = new Map<string, EntryRecord>();
    for (const record of accountNotes?.entries ?? []) {
      if (record.scope === scope && record.list === list) mine.set(record.domain, record);
    }
    return mine;
  }, [accountNotes, scope, list]);

  const entries = remote.data.data;
  const shown = useMemo(() => {
    if (!entries) return [];
    const byDomain = filterDomains(entries, query);
    if (!entryNotes || query.trim() === '') return byDomain;
    // The filter searches the notes and where entries came from too.
    const found = new Set(byDomain);
    return entries.filter((domain) => found.has(domain) || recordMatches(records.get(domain), query));
  }, [entries, query, records, entryNotes]);
  const conflictSet = useMemo(() => new Set(conflicts), [conflicts]);
  const where = scopePhrase(form, profile);
  const name = listName(list);

  useEffect(() => {
    const index = focusRowAfterRemoval.current;
    if (index === null) return;
    focusRowAfterRemoval.current = null;
    // Keep the keyboard where it was: on the next entry's Remove button, or the filter box.
    const row = listBox.current?.querySelector<HTMLButtonElement>(
      `[data-index="${Math.min(index, shown.length - 1)}"] button`,
    );
    (row ?? filterBox.current)?.focus();
  }, [shown]);

  const changed = (op: 'add' | 'remove', domains: readonly string[]) => {
    const changes = domains.map((domain) => ({ op, list, domain }));
    // The list itself changed whatever happens to the popup's cache: its failure is not this action's.
    void Promise.resolve(onListChanged?.({ list, profile, scope, changes })).catch(() => undefined);
    void activeRulesOwningDomains(profile, domains, Date.now()).then(setOwned, () => setOwned([]));
  };

  const addDomains = async () => {
    setOwned([]);
    const parsed = parseDomainLines(draft);
    const refused: ResultRow[] = parsed.refused.map(({ line, message }) => ({
      domain: line,
      state: 'refused',
      message,
    }));
    if (parsed.domains.length === 0) {
      setResults(refused);
      setStatus({
        state: 'failed',
        message:
          refused.length > 0 ? tn('domainList.nothingAdded', refused.length) : t('domainList.enterDomains'),
      });
      return;
    }
    const controller = new AbortController();
    stopper.current = controller;
    const total = parsed.domains.length;
    setResults(refused);
    setProgress({ done: 0, total });
    const summary = await run(
      t('domainList.addingProgress', { list: name, done: formatNumber(0), total: formatNumber(total) }),
      () =>
        runBulkAdd({
          domains: parsed.domains,
          existing: new Set(entries ?? []),
          signal: controller.signal,
          add: (domain, signal) => client.addDomain(list, domain, profile, signal ? { signal } : undefined),
          onProgress: ({ done, outcome }) => {
            setProgress({ done, total });
            setStatus({
              state: 'running',
              message: t('domainList.addingProgress', {
                list: name,
                done: formatNumber(done),
                total: formatNumber(total),
              }),
            });
            setResults((current) => [...current, outcome]);
            if (outcome.state === 'added') remote.update((current) => withDomain(current, outcome.domain));
          },
        }),
      (done) => {
        const parts = [
          tn('domainList.summaryAdded', total, { added: formatNumber(done.added), list: name, scope: where }),
        ];
        if (done.already > 0) parts.push(tn('domainList.summaryAlready', done.already));
        if (done.failed > 0) parts.push(tn('domainList.summaryFailed', done.failed));
        if (done.stoppedBecause !== undefined)
          parts.push(t('domainList.summaryStopped', { reason: done.stoppedBecause }));
        if (refused.length > 0) parts.push(tn('domainList.summaryRefused', refused.length));
        if (done.failed + done.notTried + refused.length > 0) parts.push(t('domainList.summaryKept'));
        if (done.added > 0) parts.push(propagationNote());
        return parts.join(' ');
      },
    );
    stopper.current = null;
    setProgress(null);
    if (summary === undefined) return;
    const keep = [
      ...parsed.refused.map((item) => item.line),
      ...summary.outcomes
        .filter((outcome) => outcome.state === 'failed' || outcome.state === 'not-tried')
        .map((outcome) => outcome.domain),
    ];
    setDraft(keep.join('\n'));
    const added = summary.outcomes
      .filter((outcome) => outcome.state === 'added')
      .map((outcome) => outcome.domain);
    if (added.length > 0) changed('add', added);
    if (summary.added + summary.already === 0) {
      // Nothing went through: say so as a failure, with the same explanation.
      setStatus((current) =>
        current.state === 'done' ? { state: 'failed', message: current.message } : current,
      );
    }
  };

  const removeDomain = async (domain: string, index: number) => {
    setOwned([]);
    const done = await run(
      t('domainList.removing', { domain, list: name }),
      async () => {
        await client.deleteDomain(list, domain, profile);
        return true;
      },
      () => t('domainList.removed', { domain, list: name, scope: where, note: propagationNote() }),
    );
    if (!done) return;
    focusRowAfterRemoval.current = index;
    remote.update((current) => withoutDomain(current, domain));
    changed('remove', [domain]);
  };

  const saveNote = async (domain: string, text: string) => {
    if (!entryNotes) return;
    const cleared = text.trim() === '';
    const done = await run(
      t('notes.saving', { domain }),
      async () => {
        await entryNotes.setNote({ scope, list, domain }, text);
        return true;
      },
      () => t(cleared ? 'notes.cleared' : 'notes.saved', { domain }),
    );
    if (!done) return;
    setNoteFor(null);
    // Back to the entry's Note button, or the filter box when the row is out of view.
    const button = [...(listBox.current?.querySelectorAll<HTMLButtonElement>('[data-note-for]') ?? [])].find(
      (candidate) => candidate.dataset.noteFor === domain,
    );
    (button ?? filterBox.current)?.focus();
  };

  const conflictNote =
    conflicts.length > 0 ? (
      <div class="warning" role="note">
        <strong>{tn('domainList.conflicts', conflicts.length)}</strong>
        {': '}
        {conflicts.length > CONFLICTS_NAMED
          ? t('domainList.conflictsMore', {
              domains: conflicts.slice(0, CONFLICTS_NAMED).join(', '),
              count: formatNumber(conflicts.length - CONFLICTS_NAMED),
            })
          : conflicts.join(', ')}
        . {t('domainList.conflictsAdvice')}
      </div>
    ) : null;

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{title(list)}</h2>
      <ScopeNote />
      <p class="hint">
        {about(list)} {t('domainList.coversSubdomains')}
      </p>
      {conflictNote}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void addDomains();
        }}
      >
        <div class="field">
          <label for={draftId}>{t('domainList.draftLabel', { list: name })}</label>
          <textarea
            id={draftId}
            rows={4}
            spellcheck={false}
            autoComplete="off"
            aria-describedby={draftHintId}
            value={draft}
            onInput={(event) => setDraft(event.currentTarget.value)}
          />
          <p class="hint" id={draftHintId}>
            {t('domainList.draftHint')}
          </p>
        </div>
        <div class="actions">
          <button type="submit" aria-disabled={busy}>
            {t('domainList.add', { list: name })}
          </button>
          {progress !== null ? (
            <>
              <progress
                max={progress.total}
                value={progress.done}
                aria-label={t('domainList.addingLabel', { list: name })}
              />
              <button type="button" onClick={() => stopper.current?.abort()}>
                {t('domainList.stop')}
              </button>
            </>
          ) : null}
        </div>
      </form>
      <StatusMessage status={status} />
      {owned.map((one) => (
        <ScheduleOwnedNotice
          key={one.status.rule.id}
          accountId={one.accountId}
          status={one.status}
          what={one.domains.join(', ')}
        />
      ))}
      {results.length > 0 ? (
        <div class="results">
          <VirtualList
            items={results}
            label={t('domainList.resultsLabel', { list: name })}
            rowHeight={28}
            visibleRows={8}
            itemKey={(row, index) => `${index}:${row.domain}`}
            renderItem={(row) => (
              <span class={`result result-${row.state}`} title={row.domain}>
                {row.state === 'refused'
                  ? t('domainList.refusedLine', { line: row.domain, reason: row.message })
                  : t('domainList.resultLine', { domain: row.domain, outcome: row.message })}
              </span>
            )}
          />
          <button type="button" onClick={() => setResults([])}>
            {t('domainList.clearResults')}
          </button>
        </div>
      ) : null}
      {remote.data.state === 'failed' ? (
        <FailureNotice message={remote.data.message} advice={remote.data.advice}>
          <button type="button" onClick={remote.reload}>
            {t('domainList.loadAgain', { list: name })}
          </button>
        </FailureNotice>
      ) : entries === undefined ? (
        <p class="hint">{t('domainList.loading', { list: name })}</p>
      ) : (
        <div class="entries">
          <div class="field inline">
            <label for={filterId}>{t('domainList.filterLabel', { list: name })}</label>
            <input
              id={filterId}
              ref={filterBox}
              type="text"
              autoComplete="off"
              spellcheck={false}
              value={query}
              onInput={(event) => setQuery(event.currentTarget.value)}
            />
            {entryNotes ? <span class="hint">{t('notes.filterHint')}</span> : null}
            <span class="hint" aria-live="polite">
              {query.trim() === ''
                ? tn('domainList.count', entries.length)
                : tn('domainList.shownCount', entries.length, { shown: formatNumber(shown.length) })}
            </span>
          </div>
          {noteFor !== null && entryNotes ? (
            <EntryNote
              key={noteFor}
              domain={noteFor}
              record={records.get(noteFor)}
              busy={busy}
              onSave={(text) => saveNote(noteFor, text)}
              onClose={() => setNoteFor(null)}
            />
          ) : null}
          {entries.length === 0 ? (
            <p class="hint">{t('domainList.empty', { list: name })}</p>
          ) : (
            <div ref={listBox}>
              <VirtualList
                items={shown}
                label={t(
                  list === 'whitelist'
                    ? 'domainList.entriesLabel.whitelist'
                    : 'domainList.entriesLabel.blocklist',
                )}
                rowHeight={entryNotes ? ROW_HEIGHT_WITH_ORIGIN : ROW_HEIGHT}
                itemKey={(domain) => domain}
                renderItem={(domain, index) => (
                  <>
                    {entryNotes ? (
                      <span class="entry-text">
                        <span class="row-text" title={domain}>
                          {domain}
                        </span>
                        <EntryOrigin record={records.get(domain)} />
                      </span>
                    ) : (
                      <span class="row-text" title={domain}>
                        {domain}
                      </span>
                    )}
                    {conflictSet.has(domain) ? (
                      <span class="badge badge-warning">
                        {t('domainList.alsoOn', { list: listName(other) })}
                      </span>
                    ) : null}
                    <button
                      type="button"
                      aria-label={t('domainList.removeNamed', { domain, list: name })}
                      aria-disabled={busy}
                      onClick={() => void removeDomain(domain, index)}
                    >
                      {t('domainList.remove')}
                    </button>
                    {entryNotes ? (
                      <button
                        type="button"
                        data-note-for={domain}
                        aria-label={t('notes.editNamed', { domain })}
                        aria-expanded={noteFor === domain}
                        onClick={() => setNoteFor(domain)}
                      >
                        {t('notes.edit')}
                      </button>
                    ) : null}
                  </>
                )}
              />
            </div>
          )}
        </div>
      )}
    </section>
  );
}
