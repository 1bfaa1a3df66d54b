// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLineSplitter, type FindBreak } from '@/lib/api/line-splitter';

/** `indexOf` that counts the characters it had to look at. */
function countingFindBreak() {
  const counter = { scanned: 0 };
  const findBreak: FindBreak = (text, from) => {
    const found = text.indexOf('\n', from);
    counter.scanned += (found < 0 ? text.length : found + 1) - from;
    return found;
  };
  return { findBreak, counter };
}

describe('createLineSplitter', () => {
  it('looks at each character once, even for a day without line breaks', () => {
    const { findBreak, counter } = countingFindBreak();
    const splitter = createLineSplitter({ findBreak });
    const chunk = 'x'.repeat(1000);
    const chunks = 500;
    for (let index = 0; index < chunks; index += 1) expect(splitter.push(chunk)).toEqual([]);
    expect(splitter.push('y\nnext')).toEqual([`${chunk.repeat(chunks)}y`]);
    expect(splitter.end()).toBe('next');
    // Re-reading the pending line with every chunk would look at about 125 million characters.
    expect(counter.scanned).toBeLessThanOrEqual(chunk.length * chunks + 'y\nnext'.length);
  });

  it('gives the same lines as splitting the whole text, however it is cut', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'bc', '\n', '\r\n', 'é', ' '), { maxLength: 60 }),
        fc.array(fc.nat({ max: 60 }), { maxLength: 8 }),
        (parts, cutPoints) => {
          const whole = parts.join('');
          const cuts = [...new Set(cutPoints.map((cut) => Math.min(cut, whole.length)))].sort(
            (a, b) => a - b,
          );
          const splitter = createLineSplitter();
          const lines: string[] = [];
          let start = 0;
          for (const cut of [...cuts, whole.length]) {
            lines.push(...(splitter.push(whole.slice(start, cut)) ?? []));
            start = cut;
          }
          lines.push(splitter.end());
          expect(lines).toEqual(whole.split('\n'));
        },
      ),
    );
  });

  it('refuses a line longer than the limit, whether it comes in pieces or whole', () => {
    const inPieces = createLineSplitter({ maxLineChars: 10 });
    expect(inPieces.push('123456')).toEqual([]);
    expect(inPieces.push('78901')).toBeNull();
    const whole = createLineSplitter({ maxLineChars: 10 });
    expect(whole.push('ok\n12345678901\n')).toBeNull();
    const atLimit = createLineSplitter({ maxLineChars: 10 });
    expect(atLimit.push('1234567890\n')).toEqual(['1234567890']);
  });
});
