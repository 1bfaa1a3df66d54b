// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  atLeast,
  atMost,
  below,
  figure,
  formatTable,
  summarise,
  unmeasured,
} from '../../../scripts/bench/figures';

describe('summarise', () => {
  it.each([
    ['odd count', [5, 1, 3], { median: 3, q1: 2, q3: 4, min: 1, max: 5, runs: 3 }],
    [
      'even count: mean of the middle two',
      [4, 1, 3, 2],
      { median: 2.5, q1: 1.75, q3: 3.25, min: 1, max: 4, runs: 4 },
    ],
    ['one sample', [7], { median: 7, q1: 7, q3: 7, min: 7, max: 7, runs: 1 }],
    [
      'failed samples (NaN) are left out',
      [Number.NaN, 2, 4],
      { median: 3, q1: 2.5, q3: 3.5, min: 2, max: 4, runs: 2 },
    ],
  ])('%s', (_name, samples, expected) => {
    expect(summarise(samples)).toEqual(expected);
  });

  it('no samples: no numbers, zero runs', () => {
    expect(summarise([]).runs).toBe(0);
    expect(summarise([]).median).toBeNaN();
  });
});

describe('goals', () => {
  it.each([
    ['at most, equal', atMost(1.3, '≤ 1.3'), [1.3], true],
    ['at most, above', atMost(1.3, '≤ 1.3'), [1.31], false],
    ['below, equal misses', below(80, '< 80 kB'), [80], false],
    ['below, under', below(80, '< 80 kB'), [79.9], true],
    ['at least, equal', atLeast(50, '≥ 50 MB/s'), [50], true],
    ['at least, under', atLeast(50, '≥ 50 MB/s'), [49], false],
    ['judged on the median, not the worst run', below(500, '< 500 ms'), [100, 120, 900], true],
  ] as const)('%s', (_name, goal, samples, met) => {
    expect(figure('id', 'name', 'ms', samples, goal).met).toBe(met);
  });

  it('a figure without a goal, or without samples, is neither met nor missed', () => {
    expect(figure('id', 'name', 'ms', [1]).met).toBeNull();
    expect(unmeasured('id', 'name', 'ms', below(1, '< 1'), 'browser crashed').met).toBeNull();
  });
});

describe('formatTable', () => {
  it('shows more decimals when rounding would put a missed median on the goal', () => {
    const table = formatTable([figure('w', 'Worker JS, gzip', 'kB', [100.001], below(100, '< 100 kB'))]);
    expect(table).toMatch(/Worker JS, gzip\s+100\.001 kB .* MISSED$/m);
  });

  it('marks a missed goal, keeps met ones plain, and lists notes', () => {
    const table = formatTable([
      figure('a', 'Popup warm ÷ floor', '×', [1.5, 1.6, 1.4], atMost(1.3, '≤ 1.3')),
      figure('b', 'Worker JS, gzip', 'kB', [97.4], below(100, '< 100 kB'), 'background.js'),
      unmeasured('c', 'Raw log', 'MB/s', atLeast(50, '≥ 50 MB/s'), 'the emulator has no big day'),
    ]);
    const [header, , popup, worker, dump] = table.split('\n');
    expect(header).toMatch(/^Figure\s+Median\s+Q1\s+Q3\s+Min\s+Max\s+Runs\s+Goal$/);
    expect(popup).toMatch(
      /Popup warm ÷ floor\s+1\.50 ×\s+1\.45\s+1\.55\s+1\.40\s+1\.60\s+3\s+≤ 1\.3\s+MISSED$/,
    );
    expect(worker).toMatch(/Worker JS, gzip\s+97\.4 kB .* < 100 kB\s+ok$/);
    expect(dump).toMatch(/Raw log\s+–\s+–\s+–\s+–\s+–\s+0\s+≥ 50 MB\/s$/);
    expect(table).toContain('- Worker JS, gzip: background.js');
    expect(table).toContain('- Raw log: not measured: the emulator has no big day');
  });
});
