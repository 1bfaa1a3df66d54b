/**
 * Chart.js, trimmed to what the Logs section draws (bar charts with a legend and tooltips) and
 * registered once. Imported only through `loadCharts()`, so the chart code is a separate chunk
 * that the options page fetches when statistics are shown, and never part of the popup.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  Legend,
  LinearScale,
  Tooltip,
} from 'chart.js';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

export interface BarSeries {
  label: string;
  values: number[];
  color: string;
}

export interface BarChartSpec {
  labels: string[];
  series: BarSeries[];
  /** Bars stacked on one another (allowed + blocked per hour). */
  stacked?: boolean;
  /** Horizontal bars, for long category names. */
  horizontal?: boolean;
}

/** How the chart reads: the page's text and grid colours and the language of its numbers. */
export interface ChartLook {
  /** A BCP 47 tag (the catalogue's `locale`): 1,400 in English, 1.400 in German. */
  locale: string;
  text: string;
  grid: string;
}

/**
 * The Chart.js configuration of `spec`, without animation: the figures are there at once (and the
 * render time a benchmark reads is the real one). Numbers on the value axis and in tooltips are
 * written in `look.locale` (Chart.js formats with `Intl.NumberFormat` of its `locale` option; the
 * tick callback makes the axis independent of its defaults).
 */
export function barChartConfig(spec: BarChartSpec, look: ChartLook): ChartConfiguration<'bar'> {
  const numbers = new Intl.NumberFormat(look.locale, { maximumFractionDigits: 0 });
  const valueTicks = {
    color: look.text,
    precision: 0,
    callback: (value: number | string) => (typeof value === 'number' ? numbers.format(value) : value),
  };
  const labelTicks = { color: look.text };
  const valueAxis = spec.horizontal ? 'x' : 'y';
  const grid = { color: look.grid };
  return {
    type: 'bar',
    data: {
      labels: spec.labels,
      datasets: spec.series.map((series) => ({
        label: series.label,
        data: series.values,
        backgroundColor: series.color,
        borderWidth: 0,
      })),
    },
    options: {
      locale: look.locale,
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      indexAxis: spec.horizontal ? 'y' : 'x',
      plugins: {
        legend: { display: spec.series.length > 1, labels: { color: look.text } },
        tooltip: { enabled: true },
      },
      scales: {
        x: {
          stacked: spec.stacked,
          ticks: valueAxis === 'x' ? valueTicks : labelTicks,
          grid,
          beginAtZero: true,
        },
        y: {
          stacked: spec.stacked,
          ticks: valueAxis === 'y' ? valueTicks : labelTicks,
          grid,
          beginAtZero: true,
        },
      },
    },
  };
}

/** Draws `spec` on `canvas`; returns the chart so the caller can destroy it. */
export function drawBarChart(canvas: HTMLCanvasElement, spec: BarChartSpec, look: ChartLook): Chart<'bar'> {
  return new Chart(canvas, barChartConfig(spec, look));
}

export type { Chart };
