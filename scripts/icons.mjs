#!/usr/bin/env node
/**
 * Renders public/icon/icon.svg (the extension's mark, also drawn inline by components/icons) to
 * public/icon/<size>.png, where WXT finds the icons for the manifest (`icons` and the toolbar
 * action) by their file names. The PNGs are committed, so a build never needs this script: run it
 * after changing the SVG.
 *
 * Uses `rsvg-convert` (Debian: `apt-get install -y librsvg2-bin`) when present, otherwise the
 * Chromium the end-to-end tests use (puppeteer-core, already a dev dependency), rather than an npm
 * renderer whose prebuilt native binaries differ per platform and would complicate the lockfile.
 *
 *   node scripts/icons.mjs
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Chrome Web Store and AMO ask for 128 and 48 (or 96); 16 and 32 serve the toolbar and menus. */
const SIZES = [16, 32, 48, 96, 128];

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'public', 'icon');
const source = join(outDir, 'icon.svg');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function withRsvg() {
  for (const size of SIZES) {
    const target = join(outDir, `${size}.png`);
    const result = spawnSync('rsvg-convert', ['-w', String(size), '-h', String(size), '-o', target, source], {
      stdio: 'inherit',
    });
    if (result.status !== 0) throw new Error(`Rendering ${size}px failed.`);
    console.log(`public/icon/${size}.png (rsvg-convert)`);
  }
}

async function withChromium() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      'Neither rsvg-convert nor Chromium was found. Install one: apt-get install -y librsvg2-bin (or chromium)',
    );
  }
  const { default: puppeteer } = await import('puppeteer-core');
  const svg = readFileSync(source, 'utf8');
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage();
    for (const size of SIZES) {
      await page.setViewport({ width: size, height: size, deviceScaleFactor: 1 });
      const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
      await page.setContent(
        `<html><body style="margin:0;background:transparent"><img src="${src}" width="${size}" height="${size}" style="display:block"></body></html>`,
        { waitUntil: 'load' },
      );
      const target = join(outDir, `${size}.png`);
      await page.screenshot({
        path: target,
        omitBackground: true,
        clip: { x: 0, y: 0, width: size, height: size },
      });
      console.log(`public/icon/${size}.png (Chromium)`);
    }
  } finally {
    await browser.close();
  }
}

mkdirSync(outDir, { recursive: true });
const rsvg = spawnSync('rsvg-convert', ['--version'], { encoding: 'utf8' });
try {
  if (!rsvg.error && rsvg.status === 0) withRsvg();
  else await withChromium();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
