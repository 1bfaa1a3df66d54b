#!/usr/bin/env node
/**
 * `npm test` step: no import cycles in the product, the emulator or the scripts (madge).
 *
 * The `@/…` alias lives in `.wxt/tsconfig.json`, which madge's resolver does not follow through
 * `extends`, so the alias is given here. An import of our own code that madge cannot resolve
 * fails the check too: a cycle hidden behind an unresolved import would otherwise pass unseen.
 * Package imports (preact, wxt/…, zod) are not followed.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import madge from 'madge';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const FOLDERS = ['lib', 'components', 'entrypoints', 'emulator', 'scripts'];

const result = await madge(
  FOLDERS.map((folder) => join(ROOT, folder)),
  {
    baseDir: ROOT,
    fileExtensions: ['ts', 'tsx', 'mjs'],
    tsConfig: {
      compilerOptions: {
        baseUrl: ROOT,
        moduleResolution: 'bundler',
        paths: { '@/*': ['./*'], '~/*': ['./*'] },
      },
    },
    detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
  },
);

const ownUnresolved = result
  .warnings()
  .skipped.filter((name) => name.startsWith('.') || name.startsWith('@/') || name.startsWith('~/'));
const cycles = result.circular();
const files = Object.keys(result.obj()).length;

for (const name of ownUnresolved) console.error(`unresolved import of our own code: ${name}`);
for (const cycle of cycles) console.error(`import cycle: ${cycle.join(' → ')} → ${cycle[0]}`);

if (files === 0) {
  console.error('no files were read: the check would pass on nothing');
  process.exit(1);
}
if (cycles.length > 0 || ownUnresolved.length > 0) process.exit(1);
console.log(`No import cycles in ${files} files (${FOLDERS.join(', ')}).`);
