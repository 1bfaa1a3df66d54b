/**
 * Builds the floor extension (scripts/bench/floor-extension/README.md) for one browser, with
 * Vite's build API and Preact's preset and nothing of the product's build.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import preact from '@preact/preset-vite';
import { build } from 'vite';

const ROOT = resolve(import.meta.dirname, '../..');
const SOURCE = join(import.meta.dirname, 'floor-extension');
export const FLOOR_ADDON_ID = 'bench-floor@example.org';

export type FloorTarget = 'chrome' | 'firefox';

/** What differs between the two browsers' manifests. */
const BACKGROUND: Record<FloorTarget, object> = {
  chrome: { service_worker: 'background.js' },
  firefox: { scripts: ['background.js'] },
};

function manifest(target: FloorTarget): object {
  return {
    manifest_version: 3,
    name: 'Bench floor',
    version: '1.0.0',
    permissions: ['storage'],
    action: { default_title: 'Bench floor', default_popup: 'popup.html' },
    background: BACKGROUND[target],
    ...(target === 'firefox' ? { browser_specific_settings: { gecko: { id: FLOOR_ADDON_ID } } } : {}),
  };
}

/** Builds into `.output/bench-floor-extension-<target>/` and returns that folder. */
export async function buildFloorExtension(target: FloorTarget): Promise<string> {
  const outDir = join(ROOT, '.output', `bench-floor-extension-${target}`);
  mkdirSync(outDir, { recursive: true });
  await build({
    configFile: false,
    root: SOURCE,
    base: './',
    logLevel: 'warn',
    plugins: [preact()],
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      modulePreload: false,
      rollupOptions: { input: { popup: join(SOURCE, 'popup.html') } },
    },
  });
  writeFileSync(join(outDir, 'manifest.json'), `${JSON.stringify(manifest(target), null, 2)}\n`);
  return outDir;
}
