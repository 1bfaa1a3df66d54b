/**
 * Chart.js, trimmed to what the Logs section draws (bar charts with a legend and tooltips) and
 * registered once. Imported only through `loadCharts()`, so the chart code is a separate chunk
 * that the options page fetches when statistics are shown, and never part of the popup.
 */
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';

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

/**
 * Draws `spec` on `canvas` without animation: the figures are there at once (and the render
 * time a benchmark reads is the real one). Returns the chart so the caller can destroy it.
 */
export function drawBarChart(canvas: HTMLCanvasElement, spec: BarChartSpec): Chart<'bar'> {
  const textColor = getComputedStyle(canvas).color || '#333';
  return new Chart(canvas, {
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
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      indexAxis: spec.horizontal ? 'y' : 'x',
      plugins: {
        legend: { display: spec.series.length > 1, labels: { color: textColor } },
        tooltip: { enabled: true },
      },
      scales: {
        x: { stacked: spec.stacked, ticks: { color: textColor }, beginAtZero: true },
        y: { stacked: spec.stacked, ticks: { color: textColor, precision: 0 }, beginAtZero: true },
      },
    },
  });
}

export type { Chart };
