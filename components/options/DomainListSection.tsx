import { useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import { type BulkOutcome, runBulkAdd } from '@/lib/account/bulk-add';
import { parseDomainLines } from '@/lib/account/domain-lines';
import { filterDomains, withDomain, withoutDomain } from '@/lib/account/sorted-domains';
import type { DomainListKind } from '@/lib/api/types';
import { StatusMessage } from '../StatusMessage';
import { useRemoteAction } from '../useRemoteAction';
import type { useRemoteData } from '../useRemoteData';
import { VirtualList } from '../VirtualList';
import { PROPAGATION_NOTE, scopePhrase, useAccount } from './account-context';
import { ScopeNote } from './ScopeNote';

const TITLES: Record<DomainListKind, string> = { whitelist: 'Whitelist', blocklist: 'Blocklist' };
const ABOUT: Record<DomainListKind, string> = {
  whitelist: 'Domains on the whitelist are always allowed, even when they fall in a blocked category.',
  blocklist: 'Domains on the blocklist are always blocked, whatever the category settings.',
};
const ROW_HEIGHT = 36;
const CONFLICTS_NAMED = 10;

type ResultRow = BulkOutcome | { domain: string; state: 'refused'; message: string };

interface DomainListSectionProps {
  list: DomainListKind;
  remote: ReturnType<typeof useRemoteData<readonly string[]>>;
  /** Domains on both lists of this scope. */
  conflicts: readonly string[];
}

function plural(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en')} ${count === 1 ? one : many}`;
}

export function DomainListSection({ list, remote, conflicts }: DomainListSectionProps) {
  const { client, form, profile, scope, onListChanged } = useAccount();
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

  const entries = remote.data.data;
  const shown = useMemo(() => (entries ? filterDomains(entries, query) : []), [entries, query]);
  const conflictSet = useMemo(() => new Set(conflicts), [conflicts]);
  const where = scopePhrase(form, profile);

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
  };

  const addDomains = async () => {
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
          refused.length > 0
            ? `Nothing added: ${plural(refused.length, 'line is', 'lines are')} not a domain (see the results).`
            : 'Enter one or more domains, one per line, such as example.com.',
      });
      return;
    }
    const controller = new AbortController();
    stopper.current = controller;
    const total = parsed.domains.length;
    setResults(refused);
    setProgress({ done: 0, total });
    const summary = await run(
      `Adding to the ${list}: 0 of ${total} done…`,
      () =>
        runBulkAdd({
          domains: parsed.domains,
          existing: new Set(entries ?? []),
          signal: controller.signal,
          add: (domain, signal) => client.addDomain(list, domain, profile, signal ? { signal } : undefined),
          onProgress: ({ done, outcome }) => {
            setProgress({ done, total });
            setStatus({ state: 'running', message: `Adding to the ${list}: ${done} of ${total} done…` });
            setResults((current) => [...current, outcome]);
            if (outcome.state === 'added') remote.update((current) => withDomain(current, outcome.domain));
          },
        }),
      (done) => {
        const parts = [
          `Added ${done.added} of ${plural(total, 'domain', 'domains')} to the ${list} of ${where}.`,
        ];
        if (done.already > 0) parts.push(`${plural(done.already, 'was', 'were')} already there.`);
        if (done.failed > 0) parts.push(`${plural(done.failed, 'failed', 'failed')}.`);
        if (done.stoppedBecause !== undefined) parts.push(`Stopped: ${done.stoppedBecause}`);
        if (refused.length > 0) parts.push(`${plural(refused.length, 'line is', 'lines are')} not a domain.`);
        if (done.failed + done.notTried + refused.length > 0)
          parts.push('Those not added are kept in the box.');
        if (done.added > 0) parts.push(PROPAGATION_NOTE);
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
    const done = await run(
      `Removing ${domain} from the ${list}…`,
      async () => {
        await client.deleteDomain(list, domain, profile);
        return true;
      },
      () => `Removed ${domain} from the ${list} of ${where}. ${PROPAGATION_NOTE}`,
    );
    if (!done) return;
    focusRowAfterRemoval.current = index;
    remote.update((current) => withoutDomain(current, domain));
    changed('remove', [domain]);
  };

  const conflictNote =
    conflicts.length > 0 ? (
      <div class="warning" role="note">
        <strong>
          {plural(conflicts.length, 'domain is', 'domains are')} on both the whitelist and the blocklist
        </strong>
        {': '}
        {conflicts.slice(0, CONFLICTS_NAMED).join(', ')}
        {conflicts.length > CONFLICTS_NAMED
          ? ` and ${(conflicts.length - CONFLICTS_NAMED).toLocaleString('en')} more`
          : ''}
        . The whitelist wins for them; remove each from the list where it does not belong.
      </div>
    ) : null;

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{TITLES[list]}</h2>
      <ScopeNote />
      <p class="hint">{ABOUT[list]} An entry covers the domain and all its subdomains.</p>
      {conflictNote}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void addDomains();
        }}
      >
        <div class="field">
          <label for={draftId}>Domains to add to the {list}</label>
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
            One domain per line (or paste a list). A pasted web address is reduced to its domain.
          </p>
        </div>
        <div class="actions">
          <button type="submit" aria-disabled={busy}>
            Add to {list}
          </button>
          {progress !== null ? (
            <>
              <progress max={progress.total} value={progress.done} aria-label={`Adding to the ${list}`} />
              <button type="button" onClick={() => stopper.current?.abort()}>
                Stop adding
              </button>
            </>
          ) : null}
        </div>
      </form>
      <StatusMessage status={status} />
      {results.length > 0 ? (
        <div class="results">
          <VirtualList
            items={results}
            label={`Results of adding to the ${list}`}
            rowHeight={28}
            visibleRows={8}
            itemKey={(row, index) => `${index}:${row.domain}`}
            renderItem={(row) => (
              <span class={`result result-${row.state}`} title={row.domain}>
                {row.domain}: {row.state === 'refused' ? `not a domain: ${row.message}` : row.message}
              </span>
            )}
          />
          <button type="button" onClick={() => setResults([])}>
            Clear results
          </button>
        </div>
      ) : null}
      {remote.data.state === 'failed' ? (
        <div class="load-failed">
          <p>
            Could not load the {list}: {remote.data.message}
          </p>
          <button type="button" onClick={remote.reload}>
            Load the {list} again
          </button>
        </div>
      ) : entries === undefined ? (
        <p class="hint">Loading the {list}…</p>
      ) : (
        <div class="entries">
          <div class="field inline">
            <label for={filterId}>Filter the {list}</label>
            <input
              id={filterId}
              ref={filterBox}
              type="text"
              autoComplete="off"
              spellcheck={false}
              value={query}
              onInput={(event) => setQuery(event.currentTarget.value)}
            />
            <span class="hint" aria-live="polite">
              {query.trim() === ''
                ? plural(entries.length, 'domain', 'domains')
                : `${shown.length.toLocaleString('en')} of ${plural(entries.length, 'domain', 'domains')} shown`}
            </span>
          </div>
          {entries.length === 0 ? (
            <p class="hint">The {list} is empty.</p>
          ) : (
            <div ref={listBox}>
              <VirtualList
                items={shown}
                label={`${TITLES[list]} entries`}
                rowHeight={ROW_HEIGHT}
                itemKey={(domain) => domain}
                renderItem={(domain, index) => (
                  <>
                    <span class="row-text" title={domain}>
                      {domain}
                    </span>
                    {conflictSet.has(domain) ? (
                      <span class="badge badge-warning">also on the {other}</span>
                    ) : null}
                    <button
                      type="button"
                      aria-label={`Remove ${domain} from the ${list}`}
                      aria-disabled={busy}
                      onClick={() => void removeDomain(domain, index)}
                    >
                      Remove
                    </button>
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
