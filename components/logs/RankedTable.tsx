import { useId, useMemo, useState } from 'preact/hooks';
import type { DomainListKind } from '@/lib/api/types';
import { formatNumber, t } from '@/lib/i18n';
import { filterRanked, type Ranked } from '@/lib/logs/stats';

const PAGE = 25;

export interface RankedTableProps {
  /** Heading, e.g. "Top blocked domains". */
  title: string;
  /** Column header of the keys, e.g. "Domain". */
  keyHeader: string;
  /** The filter box's label, e.g. "Filter blocked domains". */
  filterLabel: string;
  /** The button that shows more rows, e.g. "Show more blocked domains". */
  showMoreLabel: string;
  entries: readonly Ranked[];
  /** Shown instead of the table when there is nothing to rank. */
  emptyText: string;
  /** Adds Whitelist/Blocklist buttons next to each key; `targetOf` gives the domain a click adds, or null for none. */
  listAction?: {
    targetOf: (key: string) => string | null;
    onAdd: (domain: string, list: DomainListKind) => void;
    busy: boolean;
  };
  /** Optional display name of a key (a category's name for its id): people read names, not ids. */
  describe?: (key: string) => string;
  /** Optional line under the name (a category's description). */
  detail?: (key: string) => string | undefined;
}

/**
 * The first entries of a ranking, with a filter and "Show more": a day can rank 120,000 domains,
 * and a table of them all would take seconds to lay out and be of no use to read.
 */
export function RankedTable({
  title,
  keyHeader,
  filterLabel,
  showMoreLabel,
  entries,
  emptyText,
  listAction,
  describe,
  detail,
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
            <label for={filterId}>{filterLabel}</label>
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
          <table class="table">
            <caption class="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">{keyHeader}</th>
                <th scope="col" class="num">
                  {t('ranked.queries')}
                </th>
                {listAction && <th scope="col">{t('ranked.addToList')}</th>}
              </tr>
            </thead>
            <tbody>
              {shown.map((entry) => {
                const target = listAction?.targetOf(entry.key);
                return (
                  <tr key={entry.key}>
                    <td class="key">
                      {describe ? describe(entry.key) : entry.key}
                      {detail?.(entry.key) ? <span class="key-detail">{detail(entry.key)}</span> : null}
                    </td>
                    <td class="num">{formatNumber(entry.count)}</td>
                    {listAction && target == null && <td class="hint">{t('ranked.notEntry')}</td>}
                    {listAction && target != null && (
                      <td class="row-actions">
                        <button
                          type="button"
                          disabled={listAction.busy}
                          aria-label={t('ranked.whitelistNamed', { domain: target })}
                          onClick={() => listAction.onAdd(target, 'whitelist')}
                        >
                          {t('ranked.whitelist')}
                        </button>
                        <button
                          type="button"
                          disabled={listAction.busy}
                          aria-label={t('ranked.blocklistNamed', { domain: target })}
                          onClick={() => listAction.onAdd(target, 'blocklist')}
                        >
                          {t('ranked.blocklist')}
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
              ? t('ranked.noMatch')
              : t(filter.trim() ? 'ranked.showingMatching' : 'ranked.showing', {
                  shown: formatNumber(shown.length),
                  count: formatNumber(matching),
                })}
          </p>
          {shown.length < matching && (
            <button type="button" onClick={() => setLimit((current) => current + PAGE * 4)}>
              {showMoreLabel}
            </button>
          )}
        </>
      )}
    </section>
  );
}
