import { useId, useMemo, useState } from 'preact/hooks';
import type { DomainListKind } from '@/lib/api/types';
import { filterRanked, type Ranked } from '@/lib/logs/stats';

const PAGE = 25;

export interface RankedTableProps {
  /** Heading, e.g. "Top blocked domains". */
  title: string;
  /** Column header of the keys, e.g. "Domain". */
  keyHeader: string;
  /** What the rows are, for the filter's label and "Show more", e.g. "blocked domains". */
  noun: string;
  entries: readonly Ranked[];
  /** Shown instead of the table when there is nothing to rank. */
  emptyText: string;
  /** Adds Whitelist/Blocklist buttons next to each key; `targetOf` gives the domain a click adds, or null for none. */
  listAction?: {
    targetOf: (key: string) => string | null;
    onAdd: (domain: string, list: DomainListKind) => void;
    busy: boolean;
  };
  /** Optional display name of a key (category descriptions). */
  describe?: (key: string) => string;
}

/**
 * The first entries of a ranking, with a filter and "Show more": a day can rank 120,000 domains,
 * and a table of them all would take seconds to lay out and be of no use to read.
 */
export function RankedTable({
  title,
  keyHeader,
  noun,
  entries,
  emptyText,
  listAction,
  describe,
}: RankedTableProps) {
  const [filter, setFilter] = useState('');
  const [limit, setLimit] = useState(PAGE);
  const headingId = useId();
  const filterId = useId();
  const { shown, matching } = useMemo(() => filterRanked(entries, filter, limit), [entries, filter, limit]);

  return (
    <section class="ranked" aria-labelledby={headingId}>
      <h4 id={headingId}>{title}</h4>
      {entries.length === 0 ? (
        <p class="hint">{emptyText}</p>
      ) : (
        <>
          <div class="field inline-field">
            <label for={filterId}>Filter {noun}</label>
            <input
              id={filterId}
              type="search"
              value={filter}
              onInput={(event) => {
                setFilter(event.currentTarget.value);
                setLimit(PAGE);
              }}
            />
          </div>
          <table>
            <caption class="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">{keyHeader}</th>
                <th scope="col" class="num">
                  Queries
                </th>
                {listAction && <th scope="col">Add to a list</th>}
              </tr>
            </thead>
            <tbody>
              {shown.map((entry) => {
                const target = listAction?.targetOf(entry.key);
                return (
                  <tr key={entry.key}>
                    <td class="key">{describe ? describe(entry.key) : entry.key}</td>
                    <td class="num">{entry.count.toLocaleString('en')}</td>
                    {listAction && target == null && <td class="hint">not a list entry</td>}
                    {listAction && target != null && (
                      <td class="row-actions">
                        <button
                          type="button"
                          disabled={listAction.busy}
                          aria-label={`Whitelist ${target}`}
                          onClick={() => listAction.onAdd(target, 'whitelist')}
                        >
                          Whitelist
                        </button>
                        <button
                          type="button"
                          disabled={listAction.busy}
                          aria-label={`Blocklist ${target}`}
                          onClick={() => listAction.onAdd(target, 'blocklist')}
                        >
                          Blocklist
                        </button>
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
          <p class="hint" aria-live="polite">
            {matching === 0
              ? 'Nothing matches the filter.'
              : `Showing ${shown.length.toLocaleString('en')} of ${matching.toLocaleString('en')}${filter.trim() ? ' matching' : ''}.`}
          </p>
          {shown.length < matching && (
            <button type="button" onClick={() => setLimit((current) => current + PAGE * 4)}>
              Show more {noun}
            </button>
          )}
        </>
      )}
    </section>
  );
}
