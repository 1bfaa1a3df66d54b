/**
 * A figure of the benchmark: samples of one quantity, summarised as median, quartiles, min and max, with its
 * goal. Missing a goal marks the figure; it never fails the run (a slow machine is not a bug).
 */

export interface Summary {
  median: number;
  /** First and third quartiles (linear interpolation between the closest samples). */
  q1: number;
  q3: number;
  min: number;
  max: number;
  runs: number;
}

function quantile(sorted: readonly number[], p: number): number {
  const at = (sorted.length - 1) * p;
  const below = Math.floor(at);
  const above = Math.ceil(at);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (at - below);
}

export function summarise(samples: readonly number[]): Summary {
  const finite = samples.filter(Number.isFinite);
  if (finite.length === 0) {
    return { median: Number.NaN, q1: Number.NaN, q3: Number.NaN, min: Number.NaN, max: Number.NaN, runs: 0 };
  }
  const sorted = [...finite].sort((a, b) => a - b);
  return {
    median: quantile(sorted, 0.5),
    q1: quantile(sorted, 0.25),
    q3: quantile(sorted, 0.75),
    min: sorted[0]!,
    max: sorted[sorted.length - 1]!,
    runs: finite.length,
  };
}

/** `at-most`: the median must not exceed `limit`; `below`: strictly under; `at-least`: not under. */
export type GoalKind = 'at-most' | 'below' | 'at-least';

export interface Goal {
  kind: GoalKind;
  limit: number;
  /** How the goal reads in the table, e.g. "≤ 1.3 × floor". */
  text: string;
}

export interface Figure extends Summary {
  id: string;
  /** What is measured, as the table shows it. */
  name: string;
  unit: string;
  samples: number[];
  goal: Goal | null;
  /** null without a goal, or when nothing could be measured. */
  met: boolean | null;
  note?: string;
}

export function meets(goal: Goal, value: number): boolean {
  if (!Number.isFinite(value)) return false;
  if (goal.kind === 'at-most') return value <= goal.limit;
  if (goal.kind === 'below') return value < goal.limit;
  return value >= goal.limit;
}

export function figure(
  id: string,
  name: string,
  unit: string,
  samples: readonly number[],
  goal: Goal | null = null,
  note?: string,
): Figure {
  const summary = summarise(samples);
  const met = goal === null || summary.runs === 0 ? null : meets(goal, summary.median);
  return { id, name, unit, samples: [...samples], goal, met, ...summary, ...(note ? { note } : {}) };
}

/** A figure that could not be measured: shown with the reason instead of numbers. */
export function unmeasured(
  id: string,
  name: string,
  unit: string,
  goal: Goal | null,
  reason: string,
): Figure {
  return { ...figure(id, name, unit, [], goal), note: `not measured: ${reason}` };
}

export const atMost = (limit: number, text: string): Goal => ({ kind: 'at-most', limit, text });
export const below = (limit: number, text: string): Goal => ({ kind: 'below', limit, text });
export const atLeast = (limit: number, text: string): Goal => ({ kind: 'at-least', limit, text });

/** 0.0123 → 0.01, 12.34 → 12.3, 100.33 → 100.3 (a goal of 100 must not hide behind rounding), 1234 → 1234. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return '–';
  const abs = Math.abs(value);
  const decimals = abs >= 1000 ? 0 : abs >= 10 ? 1 : 2;
  return value.toFixed(decimals);
}

/**
 * The median as the table shows it, with more decimals where rounding would hide which side of
 * the goal it is on (100.001 kB against "< 100 kB" must not read "100.0").
 */
function medianText(f: Figure): string {
  const text = formatNumber(f.median);
  if (f.goal === null || f.met === null) return text;
  const shown = Number(text);
  const ambiguous = meets(f.goal, shown) !== f.met || (shown === f.goal.limit && f.median !== f.goal.limit);
  return ambiguous ? f.median.toFixed(3) : text;
}

const MARK = { met: 'ok', missed: 'MISSED', none: '' } as const;

/** The figures as a plain-text table, one row each, goals and misses in their own columns. */
export function formatTable(figures: readonly Figure[]): string {
  const header = ['Figure', 'Median', 'Q1', 'Q3', 'Min', 'Max', 'Runs', 'Goal', ''];
  const rows = figures.map((f) => [
    f.name,
    f.runs === 0 ? '–' : `${medianText(f)} ${f.unit}`,
    f.runs === 0 ? '–' : formatNumber(f.q1),
    f.runs === 0 ? '–' : formatNumber(f.q3),
    f.runs === 0 ? '–' : formatNumber(f.min),
    f.runs === 0 ? '–' : formatNumber(f.max),
    String(f.runs),
    f.goal?.text ?? '(report)',
    f.met === null ? MARK.none : f.met ? MARK.met : MARK.missed,
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column >= 1 && column <= 6 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!),
      )
      .join('  ')
      .trimEnd();
  const notes = figures
    .filter((f) => f.note)
    .map((f) => `  - ${f.name}: ${f.note}`)
    .join('\n');
  return [
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    ...(notes ? ['', 'Notes:', notes] : []),
  ].join('\n');
}
