import { useEffect, useRef, useState } from 'preact/hooks';
import { describeCategory } from '@/lib/api/categories';
import type { ApiForm, DomainListKind } from '@/lib/api/types';
import { type DaySummary, hourlyChartLabel, type Ranked } from '@/lib/logs/stats';
import type { BarChartSpec, Chart } from './charts';
import { RankedTable } from './RankedTable';

const ALLOWED_COLOR = '#2e7d32';
const BLOCKED_COLOR = '#c62828';
const NEUTRAL_COLOR = '#3f6fb5';

/** Loaded on first use: keeps chart.js out of the options page's first paint and out of the popup. */
const loadCharts = () => import('./charts');

function listLabel(
  prefix: string,
  entries: readonly Ranked[],
  name: (key: string) => string,
  max = 20,
): string {
  if (entries.length === 0) return `${prefix}: none.`;
  const parts = entries.slice(0, max).map((e) => `${name(e.key)} ${e.count.toLocaleString('en')}`);
  const rest = entries.length > max ? `, and ${entries.length - max} more` : '';
  return `${prefix}: ${parts.join(', ')}${rest}.`;
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

  useEffect(() => {
    let disposed = false;
    const charts: Chart[] = [];
    const hours = Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, '0'));
    const specs: [HTMLCanvasElement | null, BarChartSpec][] = [
      [
        hourlyRef.current,
        {
          labels: hours,
          stacked: true,
          series: [
            { label: 'Allowed', values: summary.allowedByHour, color: ALLOWED_COLOR },
            { label: 'Blocked', values: summary.blockedByHour, color: BLOCKED_COLOR },
          ],
        },
      ],
      [
        categoriesRef.current,
        {
          labels: summary.blocksByCategory.map((e) => categoryName(e.key)),
          horizontal: true,
          series: [
            { label: 'Blocks', values: summary.blocksByCategory.map((e) => e.count), color: BLOCKED_COLOR },
          ],
        },
      ],
      [
        typesRef.current,
        {
          labels: summary.requestTypes.map((e) => e.key),
          series: [
            { label: 'Queries', values: summary.requestTypes.map((e) => e.count), color: NEUTRAL_COLOR },
          ],
        },
      ],
    ];
    loadCharts().then(
      ({ drawBarChart }) => {
        if (disposed) return;
        for (const [canvas, spec] of specs) if (canvas) charts.push(drawBarChart(canvas, spec));
        setChartFailure(null);
        performance.mark('stats-rendered', { detail: { date } });
      },
      () => {
        if (!disposed)
          setChartFailure('The charts could not be drawn; the tables below have the same figures.');
      },
    );
    return () => {
      disposed = true;
      for (const chart of charts) chart.destroy();
    };
    // categoryName depends on form only.
  }, [summary, form, date]);

  const total = summary.totals.allowed + summary.totals.blocked;
  const unplaced = summary.unplaced.allowed + summary.unplaced.blocked;

  return (
    <div class="day-stats">
      <p>
        {total === 0
          ? `No queries were recorded on ${date}.`
          : `${total.toLocaleString('en')} queries on ${date}: ${summary.totals.allowed.toLocaleString('en')} allowed, ${summary.totals.blocked.toLocaleString('en')} blocked.`}
        {unplaced > 0 &&
          ` ${unplaced.toLocaleString('en')} of them had no readable hour and are left out of the hourly chart.`}
      </p>
      {chartFailure && <p class="status-failed">{chartFailure}</p>}
      <figure class="chart chart-wide">
        <figcaption>Queries per hour (allowed and blocked)</figcaption>
        <div class="chart-box">
          <canvas ref={hourlyRef} role="img" aria-label={hourlyChartLabel(date, summary)} />
        </div>
      </figure>
      <div class="chart-row">
        <figure class="chart">
          <figcaption>Blocks per category</figcaption>
          <div
            class="chart-box"
            style={{ height: `${Math.max(160, summary.blocksByCategory.length * 26 + 40)}px` }}
          >
            <canvas
              ref={categoriesRef}
              role="img"
              aria-label={listLabel('Blocks per category', summary.blocksByCategory, categoryName)}
            />
          </div>
        </figure>
        <figure class="chart">
          <figcaption>Request types</figcaption>
          <div class="chart-box">
            <canvas
              ref={typesRef}
              role="img"
              aria-label={listLabel('Request types', summary.requestTypes, (k) => k)}
            />
          </div>
        </figure>
      </div>
      <div class="ranked-row">
        <RankedTable
          title="Top blocked domains"
          keyHeader="Domain"
          noun="blocked domains"
          entries={summary.blockedDomains}
          emptyText="Nothing was blocked on this day."
          listAction={listAction}
        />
        <RankedTable
          title="Top allowed domains"
          keyHeader="Domain"
          noun="allowed domains"
          entries={summary.allowedDomains}
          emptyText="Nothing was allowed on this day."
          listAction={listAction}
        />
      </div>
      <div class="ranked-row">
        <RankedTable
          title="Top client IPs"
          keyHeader="Client IP"
          noun="client IPs"
          entries={summary.clientIps}
          emptyText="No client addresses were recorded."
        />
        <RankedTable
          title="Blocks by category"
          keyHeader="Category"
          noun="categories"
          entries={summary.blocksByCategory}
          emptyText="No blocks on this day."
          describe={(id) => {
            const info = describeCategory(form, id);
            return info.description ? `${info.label} (${id}): ${info.description}` : id;
          }}
        />
      </div>
    </div>
  );
}
