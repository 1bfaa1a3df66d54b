// @vitest-environment node
/**
 * Rules about the product's source that no single behaviour test can see: text from the service
 * never becomes markup, nothing listens to other extensions or web pages, and nothing is stored
 * where the browser would copy it to other devices.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const PRODUCT_DIRS = ['components', 'entrypoints', 'lib'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|js|mjs|html)$/.test(name) ? [path] : [];
  });
}

const files = PRODUCT_DIRS.flatMap((dir) => sourceFiles(join(ROOT, dir))).map((path) => ({
  path: relative(ROOT, path),
  text: readFileSync(path, 'utf8'),
}));

function offending(pattern: RegExp): string[] {
  return files.flatMap(({ path, text }) =>
    text
      .split('\n')
      .map((line, index) => ({ line, number: index + 1 }))
      // Comments may name what the code must never do.
      .filter(({ line }) => !/^\s*(\/\/|\*|\/\*)/.test(line) && pattern.test(line))
      .map(({ line, number }) => `${path}:${number}: ${line.trim()}`),
  );
}

describe('product source', () => {
  it('reads the files it checks', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.map((file) => file.path)).toContain('components/options/SetupSection.tsx');
  });

  it.each([
    ['innerHTML / outerHTML', /\b(inner|outer)HTML\b/],
    ['dangerouslySetInnerHTML', /dangerouslySetInnerHTML/],
    ['insertAdjacentHTML', /insertAdjacentHTML/],
    ['document.write', /document\.write(ln)?\s*\(/],
    ['createContextualFragment / DOMParser', /createContextualFragment|new DOMParser/],
    [
      'eval / new Function / string timers',
      /\beval\s*\(|new Function\s*\(|set(Timeout|Interval)\s*\(\s*['"`]/,
    ],
  ])('never turns text into markup or code: no %s', (_name, pattern) => {
    expect(offending(pattern)).toEqual([]);
  });

  it('never listens to other extensions or web pages', () => {
    expect(offending(/onMessageExternal|onConnectExternal|externally_connectable/)).toEqual([]);
  });

  it('never stores anything in storage.sync (the key must not leave this browser)', () => {
    expect(offending(/storage\.sync|['"`]sync:/)).toEqual([]);
  });

  it('a link opened from extension pages never gives the opened page a handle back', () => {
    const blankTargets = offending(/target=["'{]_blank/);
    const withoutNoopener = blankTargets.filter((line) => !/noopener|noreferrer/.test(line));
    expect(withoutNoopener).toEqual([]);
  });
});
