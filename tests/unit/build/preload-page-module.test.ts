// @vitest-environment node
import type { IndexHtmlTransformContext } from 'vite';
import { describe, expect, it } from 'vitest';
import { preloadPageModule } from '../../../scripts/build/preload-page-module';

const page = `<head>
    <meta charset="utf-8">
    <script src="/popup-start.js"></script>
    <title>Popup</title>
    <script type="module" crossorigin src="/chunks/popup-1.js"></script>
  </head>`;

function transform(filename: string, html: string): string {
  const hook = preloadPageModule(['popup/index.html']).transformIndexHtml as {
    handler(html: string, ctx: IndexHtmlTransformContext): string;
  };
  return hook.handler(html, { filename } as IndexHtmlTransformContext);
}

describe('preloadPageModule', () => {
  it("asks for the named page's module before its first script", () => {
    const html = transform('/src/entrypoints/popup/index.html', page);
    const link = html.indexOf('<link rel="modulepreload" crossorigin href="/chunks/popup-1.js">');
    expect(link).toBeGreaterThan(html.indexOf('<meta charset'));
    expect(link).toBeLessThan(html.indexOf('<script src="/popup-start.js">'));
    expect(html.match(/modulepreload/g)).toHaveLength(1);
  });

  it("preloads the extension's own module, never the dev server's client (wxt dev)", () => {
    const devPage = page.replace(
      '<meta charset="utf-8">',
      '<script type="module" src="http://localhost:3000/@vite/client"></script>\n    <meta charset="utf-8">',
    );
    const html = transform('/src/entrypoints/popup/index.html', devPage);
    expect(html.match(/<link rel="modulepreload"[^>]*>/g)).toEqual([
      '<link rel="modulepreload" crossorigin href="/chunks/popup-1.js">',
    ]);
  });

  it('leaves other pages, and pages without a module script, as they are', () => {
    expect(transform('/src/entrypoints/options/index.html', page)).toBe(page);
    const classicOnly = '<head><script src="/popup-start.js"></script></head>';
    expect(transform('/src/entrypoints/popup/index.html', classicOnly)).toBe(classicOnly);
  });
});
