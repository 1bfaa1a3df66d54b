#!/usr/bin/env node
/**
 * Renders scripts/icon.svg to public/icon/<size>.png, where WXT finds the icons for the manifest
 * (`icons` and the toolbar action) by their file names. The PNGs are committed, so a build never
 * needs this script: run it after changing the SVG.
 *
 * Uses `rsvg-convert` (Debian: `apt-get install -y librsvg2-bin`) rather than an npm renderer,
 * whose prebuilt native binaries differ per platform and would complicate the lockfile.
 *
 *   node scripts/icons.mjs
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Chrome Web Store and AMO ask for 128 and 48 (or 96); 16 and 32 serve the toolbar and menus. */
const SIZES = [16, 32, 48, 96, 128];

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'scripts', 'icon.svg');
const outDir = join(root, 'public', 'icon');

const probe = spawnSync('rsvg-convert', ['--version'], { encoding: 'utf8' });
if (probe.error || probe.status !== 0) {
  console.error('rsvg-convert is missing. Install it with: apt-get install -y librsvg2-bin');
  process.exit(1);
}

mkdirSync(outDir, { recursive: true });
for (const size of SIZES) {
  const target = join(outDir, `${size}.png`);
  const result = spawnSync('rsvg-convert', ['-w', String(size), '-h', String(size), '-o', target, source], {
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error(`Rendering ${size}px failed.`);
    process.exit(1);
  }
  console.log(`public/icon/${size}.png`);
}
