// @vitest-environment node
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The sources archive for Firefox's review (`npm run zip`) leaves out what only tests, checks,
 * benchmarks and the demo use. A pattern that names a path which no longer exists leaves out
 * nothing, and whatever replaced that path ships in the archive unnoticed.
 */
const ROOT = join(import.meta.dirname, '../../..');
/** Patterns for what runs write (absent in a fresh clone), not for files of the repository. */
const OUTPUTS = new Set([
  'test-results/**',
  'bench-results/**',
  'demo-screenshots/**',
  'stats.html',
  '**/*.log',
]);

describe('sources archive', () => {
  it('every left-out path of the repository exists', async () => {
    const { default: config } = await import('../../../wxt.config');
    const patterns = config.zip?.excludeSources ?? [];
    const repositoryPaths = patterns.filter((pattern) => !OUTPUTS.has(pattern));
    expect(repositoryPaths.length).toBeGreaterThan(0);
    const missing = repositoryPaths.filter(
      (pattern) => !existsSync(join(ROOT, pattern.replace(/\/\*\*$/, ''))),
    );
    expect(missing).toEqual([]);
  });
});
