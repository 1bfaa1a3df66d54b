import { useEffect, useRef, useState } from 'preact/hooks';
import { describeCategory } from '@/lib/api/categories';
import type { ApiForm, DomainListKind } from '@/lib/api/types';
import { formatDay, formatNumber, messageLocale, t } from '@/lib/i18n';
import { type DaySummary, hourlyChartLabel, type Ranked } from '@/lib/logs/stats';
import { resolvedColor, useColorScheme } from './chart-colors';
import type { BarChartSpec, Chart } from './charts';
import { RankedTable } from './RankedTable';

/** Loaded on first use: keeps chart.js out of the options page's first paint and out of the popup. */
const loadCharts = () => import('./charts');

function listLabel(
  title: string,
  entries: readonly Ranked[],
  name: (key: string) => string,
  max = 20,
): string {
  if (entries.length === 0) return t('dayStats.listNone', { title });
  const parts = entries
    .slice(0, max)
    .map((e) => t('dayStats.listEntry', { name: name(e.key), count: formatNumber(e.count) }))
    .join(', ');
  const all =
    entries.length > max
      ? t('dayStats.listMore', { entries: parts, count: formatNumber(entries.length - max) })
      : parts;
  return t('dayStats.listLabel', { title, entries: all });
}

export interface DayStatsViewProps {
  date: string;
  summary: DaySummary;
  form: ApiForm;
  /** One-click list changes for the domain tables; absent hides the buttons. */
  listAction?: {
    targetOf: (domain: string) => string | null;
    onAdd: (domain: string, list: DomainListKind) => void;
    busy: boolean;
  };
}

/** Charts and rankings of one day's statistics. */
export function DayStatsView({ date, summary, form, listAction }: DayStatsViewProps) {
  const hourlyRef = useRef<HTMLCanvasElement>(null);
  const categoriesRef = useRef<HTMLCanvasElement>(null);
  const typesRef = useRef<HTMLCanvasElement>(null);
  const [chartFailure, setChartFailure] = useState<string | null>(null);
  const categoryName = (id: string) => describeCategory(form, id).label;
  const scheme = useColorScheme();

  useEffect(() => {
    let disposed = false;
    const page = hourlyRef.current?.closest('.day-stats') ?? document.body;
    const ALLOWED_COLOR = resolvedColor(page, 'var(--color-allowed)');
    const BLOCKED_COLOR = resolvedColor(page, 'var(--color-blocked)');
    const NEUTRAL_COLOR = resolvedColor(page, 'var(--color-info)');
    const look = {
      locale: messageLocale(),
      text: resolvedColor(page, 'var(--color-text)'),
      grid: resolvedColor(page, 'var(--color-divider)'),
    };
    const charts: Chart[] = [];
    const hours = Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, '0'));
    const specs: [HTMLCanvasElement | null, BarChartSpec][] = [
      [
        hourlyRef.current,
        {
          labels: hours,
          stacked: true,
          series: [
            { label: t('dayStats.allowed'), values: summary.allowedByHour, color: ALLOWED_COLOR },
            { label: t('dayStats.blocked'), values: summary.blockedByHour, color: BLOCKED_COLOR },
          ],
        },
      ],
      [
        categoriesRef.current,
        {
          labels: summary.blocksByCategory.map((e) => categoryName(e.key)),
          horizontal: true,
          series: [
            {
              label: t('dayStats.blocks'),
              values: summary.blocksByCategory.map((e) => e.count),
              color: BLOCKED_COLOR,
            },
          ],
        },
      ],
      [
        typesRef.current,
        {
          labels: summary.requestTypes.map((e) => e.key),
          series: [
            {
              label: t('dayStats.queries'),
              values: summary.requestTypes.map((e) => e.count),
              color: NEUTRAL_COLOR,
            },
          ],
        },
      ],
    ];
    loadCharts().then(
      ({ drawBarChart }) => {
        if (disposed) return;
        for (const [canvas, spec] of specs) if (canvas) charts.push(drawBarChart(canvas, spec, look));
        setChartFailure(null);
        performance.mark('stats-rendered', { detail: { date } });
      },
      () => {
        if (!disposed) setChartFailure(t('dayStats.chartsFailed'));
      },
    );
    return () => {
      disposed = true;
      for (const chart of charts) chart.destroy();
    };
    // categoryName depends on form only; the colours on the scheme.
  }, [summary, form, date, scheme]);

  const total = summary.totals.allowed + summary.totals.blocked;
  const unplaced = summary.unplaced.allowed + summary.unplaced.blocked;

  return (
    <div class="day-stats">
      <p>
        {total === 0
          ? t('dayStats.noQueries', { date: formatDay(date) })
          : t('dayStats.totals', {
              total: formatNumber(total),
              date: formatDay(date),
              allowed: formatNumber(summary.totals.allowed),
              blocked: formatNumber(summary.totals.blocked),
            })}
        {unplaced > 0 && ` ${t('dayStats.unplaced', { count: formatNumber(unplaced) })}`}
      </p>
      {chartFailure && <p class="status-failed">{chartFailure}</p>}
      <figure class="chart chart-wide">
        <figcaption>{t('dayStats.hourlyCaption')}</figcaption>
        <div class="chart-box">
          <canvas ref={hourlyRef} role="img" aria-label={hourlyChartLabel(date, summary)} />
        </div>
      </figure>
      <div class="chart-row">
        <figure class="chart">
          <figcaption>{t('dayStats.categoriesCaption')}</figcaption>
          <div
            class="chart-box"
            style={{ height: `${Math.max(160, summary.blocksByCategory.length * 26 + 40)}px` }}
          >
            <canvas
              ref={categoriesRef}
              role="img"
              aria-label={listLabel(t('dayStats.categoriesCaption'), summary.blocksByCategory, categoryName)}
            />
          </div>
        </figure>
        <figure class="chart">
          <figcaption>{t('dayStats.typesCaption')}</figcaption>
          <div class="chart-box">
            <canvas
              ref={typesRef}
              role="img"
              aria-label={listLabel(t('dayStats.typesCaption'), summary.requestTypes, (k) => k)}
            />
          </div>
        </figure>
      </div>
      <div class="ranked-row">
        <RankedTable
          title={t('dayStats.topBlocked')}
          keyHeader={t('dayStats.domain')}
          filterLabel={t('dayStats.filterBlocked')}
          showMoreLabel={t('dayStats.moreBlocked')}
          entries={summary.blockedDomains}
          emptyText={t('dayStats.noneBlocked')}
          listAction={listAction}
        />
        <RankedTable
          title={t('dayStats.topAllowed')}
          keyHeader={t('dayStats.domain')}
          filterLabel={t('dayStats.filterAllowed')}
          showMoreLabel={t('dayStats.moreAllowed')}
          entries={summary.allowedDomains}
          emptyText={t('dayStats.noneAllowed')}
          listAction={listAction}
        />
      </div>
      <div class="ranked-row">
        <RankedTable
          title={t('dayStats.topClients')}
          keyHeader={t('dayStats.clientIp')}
          filterLabel={t('dayStats.filterClients')}
          showMoreLabel={t('dayStats.moreClients')}
          entries={summary.clientIps}
          emptyText={t('dayStats.noClients')}
        />
        <RankedTable
          title={t('dayStats.byCategory')}
          keyHeader={t('dayStats.category')}
          filterLabel={t('dayStats.filterCategories')}
          showMoreLabel={t('dayStats.moreCategories')}
          entries={summary.blocksByCategory}
          emptyText={t('dayStats.noBlocks')}
          describe={(id) => describeCategory(form, id).label}
          detail={(id) => describeCategory(form, id).description || undefined}
        />
      </div>
    </div>
  );
}
