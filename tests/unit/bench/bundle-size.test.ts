// @vitest-environment node
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  chunkImports,
  gzipBytes,
  htmlScripts,
  sizeOfPage,
  sizeOfWorker,
} from '../../../scripts/bench/bundle-size';

describe('htmlScripts', () => {
  it('reads the module script and the modulepreload links, not stylesheets', () => {
    const html = `<head>
      <script type="module" crossorigin src="/chunks/popup-a1.js"></script>
      <link rel="modulepreload" crossorigin href="/chunks/shared-b2.js">
      <link rel="stylesheet" crossorigin href="/assets/popup-c3.css">
    </head>`;
    expect(htmlScripts(html)).toEqual(['/chunks/popup-a1.js', '/chunks/shared-b2.js']);
  });
});

describe('chunkImports', () => {
  it.each([
    ['named import', 'import{a as b}from"./x-1.js";', ['./x-1.js'], []],
    ['re-export', 'export{c}from"./y-2.js";', ['./y-2.js'], []],
    ['side-effect import', 'import"./z-3.js";', ['./z-3.js'], []],
    ['dynamic import only', 'const m=()=>import("./lazy-4.js");', [], ['./lazy-4.js']],
    [
      'both, deduplicated',
      'import{a}from"./s.js";import{b}from"./s.js";import("./d.js")',
      ['./s.js'],
      ['./d.js'],
    ],
    ['bare package names are not files', 'import{h}from"preact";', [], []],
  ])('%s', (_name, code, staticImports, dynamicImports) => {
    expect(chunkImports(code)).toEqual({ staticImports, dynamicImports });
  });
});

describe('sizes from a build folder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-size-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (path: string, content: string) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  };
  write('popup.html', '<script type="module" src="/chunks/popup.js"></script>');
  write('chunks/popup.js', 'import{a}from"./shared.js";const l=()=>import("./lazy.js");'.padEnd(400, ' '));
  write('chunks/shared.js', 'export const a=1;'.repeat(50));
  write('chunks/lazy.js', 'import{a}from"./shared.js";import"./lazy-dep.js";');
  write('chunks/lazy-dep.js', 'console.log(1)');
  write('manifest.json', JSON.stringify({ background: { service_worker: 'background.js' } }));
  write('background.js', 'self.x=1'.repeat(100));

  it('counts the page script and its static imports as initial, dynamic ones (and their imports) as lazy', () => {
    const popup = sizeOfPage(dir, 'popup.html');
    expect(popup.initial.files).toEqual(['chunks/popup.js', 'chunks/shared.js']);
    expect(popup.lazy.files).toEqual(['chunks/lazy.js', 'chunks/lazy-dep.js']);
    const expected = ['chunks/popup.js', 'chunks/shared.js']
      .map((file) => gzipBytes(readFileSync(join(dir, file))))
      .reduce((a, b) => a + b);
    expect(popup.initial.gzipBytes).toBe(expected);
    expect(popup.initial.rawBytes).toBe(400 + 'export const a=1;'.length * 50);
  });

  it("the worker is the manifest's service worker script", () => {
    const worker = sizeOfWorker(dir);
    expect(worker.initial.files).toEqual(['background.js']);
    expect(worker.initial.gzipBytes).toBe(gzipBytes('self.x=1'.repeat(100)));
  });
});
