import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/**
 * `npm run bench -- --bare` only (WXT_BENCH=bare): popup.html loads the bench's bare reference
 * popup (scripts/bench/bare-popup/README.md) instead of entrypoints/popup/main.tsx. The page, its
 * first script and its stylesheet stay the product's. No other build resolves the bench's file.
 */
export function barePopupEntry(): Plugin {
  const bareMain = fileURLToPath(new URL('../bench/bare-popup/main.tsx', import.meta.url));
  return {
    name: 'bench-bare-popup',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      const fromPopupPage = importer?.replaceAll('\\', '/').endsWith('entrypoints/popup/index.html');
      return fromPopupPage && /(^|\/)main\.tsx$/.test(source) ? bareMain : null;
    },
  };
}
