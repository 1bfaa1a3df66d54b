import type { Plugin } from 'vite';

/** The link that asks for the module at `src` (as the page's script names it) before it is needed. */
export const modulePreloadLink = (src: string) => `<link rel="modulepreload" crossorigin href="${src}">`;

/**
 * Asks for the named pages' module script before their first script: a
 * `<link rel="modulepreload">` of it, put ahead of the first `<script>` in the page. The popup's
 * first script is a classic one that the parser waits for (entrypoints/popup-start.ts). Firefox
 * does not begin fetching the module below it until that script has run; asked for first, the
 * module arrives sooner (docs/performance.md). Chromium's preload scanner finds the module anyway;
 * there the link does no harm.
 */
export function preloadPageModule(pages: readonly string[]): Plugin {
  return {
    name: 'preload-page-module',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { filename }) {
        if (!pages.some((page) => filename.endsWith(page))) return html;
        // The page's own module, a file of the extension: not the dev server's scripts (`wxt`).
        const module = /<script type="module"[^>]*\ssrc="(\/[^"]+)"[^>]*><\/script>/.exec(html);
        const firstScript = html.indexOf('<script');
        if (!module || firstScript === -1) return html;
        return `${html.slice(0, firstScript)}${modulePreloadLink(module[1]!)}\n    ${html.slice(firstScript)}`;
      },
    },
  };
}
