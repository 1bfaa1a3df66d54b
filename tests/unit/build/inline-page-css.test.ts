// @vitest-environment node
import type { IndexHtmlTransformContext } from 'vite';
import { describe, expect, it } from 'vitest';
import { inlinePageCss } from '../../../scripts/build/inline-page-css';

const page = (css: string) => `<head>
    <script type="module" crossorigin src="/chunks/page-1.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/${css}">
  </head>`;

function transform(filename: string, html: string, bundle: Record<string, unknown>): string {
  const hook = inlinePageCss(['popup/index.html']).transformIndexHtml as {
    handler(html: string, ctx: IndexHtmlTransformContext): string;
  };
  return hook.handler(html, { filename, bundle } as unknown as IndexHtmlTransformContext);
}

describe('inlinePageCss', () => {
  it("puts the named page's stylesheet into the page and drops the file", () => {
    const bundle: Record<string, unknown> = {
      'assets/popup-1.css': { type: 'asset', source: 'body{margin:0}' },
    };
    const html = transform('/src/entrypoints/popup/index.html', page('popup-1.css'), bundle);
    expect(html).toContain('<style>body{margin:0}</style>');
    expect(html).not.toContain('<link rel="stylesheet"');
    expect(bundle).toEqual({});
  });

  it('no chunk asks for the inlined stylesheet when it is loaded later (the file is gone)', () => {
    const lazyChunk = { type: 'chunk', viteMetadata: { importedCss: new Set(['assets/popup-1.css']) } };
    const bundle: Record<string, unknown> = {
      'assets/popup-1.css': { type: 'asset', source: 'body{margin:0}' },
      'chunks/popup-1.js': lazyChunk,
    };
    transform('/src/entrypoints/popup/index.html', page('popup-1.css'), bundle);
    expect(Object.keys(bundle)).toEqual(['chunks/popup-1.js']);
    expect(lazyChunk.viteMetadata.importedCss.size).toBe(0);
  });

  it('leaves other pages and their stylesheet files alone', () => {
    const bundle: Record<string, unknown> = {
      'assets/options-1.css': { type: 'asset', source: 'body{margin:0}' },
    };
    const html = transform('/src/entrypoints/options/index.html', page('options-1.css'), bundle);
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/options-1.css">');
    expect(Object.keys(bundle)).toEqual(['assets/options-1.css']);
  });

  it('a stylesheet cannot end the <style> element early', () => {
    const bundle: Record<string, unknown> = {
      'assets/popup-1.css': { type: 'asset', source: 'a::after{content:"</style><script>"}' },
    };
    const html = transform('/src/entrypoints/popup/index.html', page('popup-1.css'), bundle);
    expect(html.match(/<\/style/g)).toHaveLength(1);
  });
});
