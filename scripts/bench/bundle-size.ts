/**
 * Gzipped JavaScript of each part of the built extension, read from the build output: the
 * scripts an HTML page names (module script and modulepreload links) plus every chunk they import
 * statically, recursively. Chunks reached only through `import()` are counted apart ("lazy"):
 * they load when the code asks for them, not with the page.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

const SCRIPT_SRC = /<script\b[^>]*\bsrc="([^"]+\.js)"[^>]*>/g;
const MODULE_PRELOAD = /<link\b[^>]*\brel="modulepreload"[^>]*>/g;
const HREF = /\bhref="([^"]+\.js)"/;
// Minified Rollup output: `import{a as b}from"./x.js"`, `export{c}from"./x.js"`, `import"./x.js"`.
const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*["'](\.{1,2}\/[^"']+\.js)["']/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["'](\.{1,2}\/[^"']+\.js)["']\s*\)/g;

/** Script paths an HTML page loads at once, as written (e.g. `/chunks/popup-abc.js`). */
export function htmlScripts(html: string): string[] {
  const found = [...html.matchAll(SCRIPT_SRC)].map((match) => match[1]!);
  for (const [tag] of html.matchAll(MODULE_PRELOAD)) {
    const href = HREF.exec(tag)?.[1];
    if (href) found.push(href);
  }
  return [...new Set(found)];
}

/** Relative specifiers a chunk imports, split into static and dynamic (`import("./x.js")`). */
export function chunkImports(code: string): { staticImports: string[]; dynamicImports: string[] } {
  const dynamicImports = [...new Set([...code.matchAll(DYNAMIC_IMPORT)].map((match) => match[1]!))];
  // `import("./x.js")` also matches the static pattern's `import"./x.js"` form only without the
  // parenthesis, so the two sets do not overlap.
  const staticImports = [...new Set([...code.matchAll(STATIC_IMPORT)].map((match) => match[1]!))];
  return { staticImports, dynamicImports };
}

export interface ScriptSet {
  /** Paths relative to the build folder, in discovery order. */
  files: string[];
  gzipBytes: number;
  rawBytes: number;
}

export interface EntrySize {
  /** Loaded with the page (or the worker's own script). */
  initial: ScriptSet;
  /** Reachable only through dynamic imports (and their static imports), not already initial. */
  lazy: ScriptSet;
}

export function gzipBytes(content: Buffer | string): number {
  return gzipSync(content).length;
}

/**
 * Files reachable from `entries` (paths relative to `buildDir`) by static imports; with
 * `dynamic`, by dynamic imports too.
 */
export function reachableScripts(
  buildDir: string,
  entries: readonly string[],
  read: (path: string) => string = (path) => readFileSync(join(buildDir, path), 'utf8'),
  dynamic = false,
): string[] {
  const seen = new Set<string>();
  const queue = entries.map((entry) => normalize(entry.replace(/^\//, '')));
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const { staticImports, dynamicImports } = chunkImports(read(file));
    const next = dynamic ? [...staticImports, ...dynamicImports] : staticImports;
    for (const specifier of next) queue.push(relative('.', normalize(join(dirname(file), specifier))));
  }
  return [...seen];
}

function scriptSet(buildDir: string, files: string[]): ScriptSet {
  let gzip = 0;
  let raw = 0;
  for (const file of files) {
    const content = readFileSync(join(buildDir, file));
    raw += content.length;
    gzip += gzipBytes(content);
  }
  return { files, gzipBytes: gzip, rawBytes: raw };
}

export function sizeOfScripts(buildDir: string, entries: readonly string[]): EntrySize {
  const initial = reachableScripts(buildDir, entries);
  const all = reachableScripts(buildDir, entries, undefined, true);
  const lazy = all.filter((file) => !initial.includes(file));
  return { initial: scriptSet(buildDir, initial), lazy: scriptSet(buildDir, lazy) };
}

export function sizeOfPage(buildDir: string, htmlFile: string): EntrySize {
  return sizeOfScripts(buildDir, htmlScripts(readFileSync(join(buildDir, htmlFile), 'utf8')));
}

/** The worker's script as the manifest names it. */
export function sizeOfWorker(buildDir: string): EntrySize {
  const manifest = JSON.parse(readFileSync(join(buildDir, 'manifest.json'), 'utf8')) as {
    background?: { service_worker?: string };
  };
  const script = manifest.background?.service_worker;
  if (!script) throw new Error('The manifest names no background service worker');
  return sizeOfScripts(buildDir, [script]);
}

/** Gzipped bytes of the given files (e.g. the scripts a page really loaded). */
export function sizeOfFiles(buildDir: string, files: readonly string[]): ScriptSet {
  return scriptSet(
    buildDir,
    files.map((file) => normalize(file.replace(/^\//, ''))),
  );
}
