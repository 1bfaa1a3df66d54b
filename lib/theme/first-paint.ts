/**
 * What the pages' first scripts do before any module has loaded: classic scripts, bundled one by
 * one (entrypoints/theme-init.ts, entrypoints/popup-start.ts), so nothing here may import zod,
 * WXT or the polyfill.
 */

/** Key of the synchronous copy of the theme choice (lib/theme/theme.ts keeps it up to date). */
export const THEME_CACHE_KEY = 'theme';

/** The page's localStorage, or undefined where it is disabled (reading the global then throws). */
export function pageLocalStorage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * Puts the cached theme on <html> before the first paint. Only 'light' and 'dark' are applied:
 * anything else (absent, 'system', a value someone wrote there) follows the system.
 */
export function applyCachedTheme(root: HTMLElement, cache: Pick<Storage, 'getItem'> | undefined): void {
  try {
    const theme = cache?.getItem(THEME_CACHE_KEY);
    if (theme === 'light' || theme === 'dark') root.setAttribute('data-theme', theme);
  } catch {
    // No readable copy: the page follows the system until storage answers.
  }
}
