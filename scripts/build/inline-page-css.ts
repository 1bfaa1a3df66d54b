import type { Plugin } from 'vite';

/**
 * Puts the stylesheet of the named pages into the page itself (`<style>`), and drops the file.
 * The popup's one stylesheet was a separate file that its module script waited for, a request on
 * every opening before the verdict (docs/performance.md). Extension pages' default CSP limits
 * scripts, not styles, so an inline <style> is allowed; and, unlike styles injected by a script,
 * it is there before the first paint, so a dark popup never flashes white.
 */
export function inlinePageCss(pages: readonly string[]): Plugin {
  return {
    name: 'inline-page-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { filename, bundle }) {
        if (!bundle || !pages.some((page) => filename.endsWith(page))) return html;
        return html.replace(
          /<link rel="stylesheet"[^>]*href="\/?([^"]+\.css)"[^>]*>/g,
          (tag, file: string) => {
            const asset = bundle[file];
            if (asset?.type !== 'asset') return tag;
            const css = String(asset.source);
            // Only this page uses it (Vite emits one stylesheet per page).
            delete bundle[file];
            // Nor is it a file for a lazily loaded chunk to fetch first: the page has it already.
            // (Vite's preload list for a dynamic import names the stylesheets of the chunks it
            // imports, the page's own module among them; a missing file fails that import.)
            for (const chunk of Object.values(bundle))
              if (chunk.type === 'chunk') chunk.viteMetadata?.importedCss.delete(file);
            // `</style` inside the CSS would end the element early; our CSS has none, but be sure.
            return `<style>${css.replaceAll('</style', '<\\/style')}</style>`;
          },
        );
      },
    },
  };
}
