import { describe, expect, it } from 'vitest';
import { rowWindow } from '@/components/logs/RawLogTable';

const ROW = 24;
const VIEW = 20 * ROW;

describe('rowWindow', () => {
  it.each([
    ['top of a short list', 0, 100, 0, 0],
    ['one row down', ROW, 100, 1, ROW],
    ['half a row down stays on the first row', ROW / 2, 100, 0, 0],
    ['a list shorter than the box', 0, 5, 0, 0],
    ['an empty list', 0, 0, 0, 0],
  ])('%s', (_name, scrollTop, count, first, firstTop) => {
    expect(rowWindow(scrollTop, VIEW, count)).toMatchObject({ first, firstTop, spacerHeight: count * ROW });
  });

  it('maps the scroll range of two million rows proportionally, reaching the last row', () => {
    const count = 2_000_000;
    const top = rowWindow(0, VIEW, count);
    expect(top.spacerHeight).toBeLessThan(count * ROW);
    expect(top.first).toBe(0);
    const maxScroll = top.spacerHeight - VIEW;
    const middle = rowWindow(maxScroll / 2, VIEW, count);
    expect(Math.abs(middle.first - count / 2)).toBeLessThan(100);
    const bottom = rowWindow(maxScroll, VIEW, count);
    // The rows from `first` on fill the box and include the last one.
    expect(bottom.first + bottom.visible - 1).toBe(count);
    expect(bottom.firstTop).toBe(maxScroll);
    // Scrolling one pixel moves by many rows, never backwards.
    expect(rowWindow(1000, VIEW, count).first).toBeGreaterThan(rowWindow(999, VIEW, count).first - 1);
  });
});
