/**
 * Light or dark pages: follow the system unless the user chose one on the options page.
 *
 * The choice lives in storage (`themeItem`, lib/settings/storage.ts), which is the truth and goes
 * into a settings backup. Storage is asynchronous, and the popup must not wait for an extra read
 * before its verdict, so each page also keeps a copy in the extension origin's `localStorage`,
 * which each page's first classic script (entrypoints/theme-init.ts, entrypoints/popup-start.ts)
 * applies before the first paint (lib/theme/first-paint.ts). Once the page runs,
 * `followStoredTheme` reads storage when the browser is idle and corrects the copy if they differ
 * (a restored backup, a cleared localStorage).
 *
 * The stylesheets (components/theme.css) switch on `data-theme` on <html>: absent means "system".
 */
import { followStored } from '@/lib/settings/follow';
import { isThemeChoice, type Theme } from '@/lib/settings/theme-choice';
import { THEME_CACHE_KEY } from './first-paint';

export { THEME_CACHE_KEY } from './first-paint';

/** The part of `localStorage` used; absent or throwing (storage disabled) reads as "system". */
export type ThemeCache = Pick<Storage, 'getItem' | 'setItem'>;

export function readCachedTheme(cache: ThemeCache | undefined): Theme {
  try {
    const cached = cache?.getItem(THEME_CACHE_KEY);
    return isThemeChoice(cached) ? cached : 'system';
  } catch {
    return 'system';
  }
}

export function cacheTheme(cache: ThemeCache | undefined, theme: Theme): void {
  try {
    cache?.setItem(THEME_CACHE_KEY, theme);
  } catch {
    // Without localStorage the page still follows storage, one idle moment after it opens.
  }
}

export function applyTheme(root: HTMLElement, theme: Theme): void {
  if (theme === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', theme);
}

/** The stored theme item, as far as this module needs it. */
export interface ThemeSource {
  getValue(): Promise<Theme>;
  watch(callback: (theme: Theme) => void): () => void;
}

export interface FollowThemeDeps {
  root: HTMLElement;
  cache: ThemeCache | undefined;
  item: ThemeSource;
  /** When to read storage; the popup passes an idle callback so its verdict comes first. */
  schedule?: (task: () => void) => void;
}

/**
 * Applies the cached choice at once, then the stored one when it arrives and every later change
 * (the options page changing it, a backup restored in another tab). Returns the unwatch function.
 */
export function followStoredTheme({ root, cache, item, schedule }: FollowThemeDeps): () => void {
  const show = (theme: Theme) => {
    applyTheme(root, theme);
    if (readCachedTheme(cache) !== theme) cacheTheme(cache, theme);
  };
  applyTheme(root, readCachedTheme(cache));
  let stopped = false;
  let unwatch: (() => void) | undefined;
  // Watching counts as using the item, which WXT answers with a storage read of its own: both
  // wait for the scheduled moment.
  const follow = () => {
    if (!stopped) unwatch = followStored(item, show);
  };
  if (schedule) schedule(follow);
  else follow();
  return () => {
    stopped = true;
    unwatch?.();
  };
}

/** `requestIdleCallback` where the browser has it (Firefox and Chrome do), with a time limit. */
export function whenIdle(task: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(task, { timeout: 500 });
  else setTimeout(task, 0);
}
