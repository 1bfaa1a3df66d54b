import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { themeItem } from '@/lib/settings/storage';
import type { Theme } from '@/lib/settings/theme-choice';
import { applyCachedTheme, pageLocalStorage } from '@/lib/theme/first-paint';
import {
  applyTheme,
  cacheTheme,
  followStoredTheme,
  readCachedTheme,
  THEME_CACHE_KEY,
  type ThemeCache,
  type ThemeSource,
} from '@/lib/theme/theme';

const root = () => document.documentElement;

function memoryCache(initial?: string): ThemeCache & { values: Map<string, string> } {
  const values = new Map<string, string>(initial === undefined ? [] : [[THEME_CACHE_KEY, initial]]);
  return {
    values,
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, value),
  };
}

const brokenCache: ThemeCache = {
  getItem: () => {
    throw new Error('SecurityError');
  },
  setItem: () => {
    throw new Error('SecurityError');
  },
};

beforeEach(() => {
  fakeBrowser.reset();
  root().removeAttribute('data-theme');
  localStorage.clear();
});

describe('the cached copy', () => {
  it.each<[string, ThemeCache | undefined, Theme]>([
    ['nothing cached', memoryCache(), 'system'],
    ['dark', memoryCache('dark'), 'dark'],
    ['light', memoryCache('light'), 'light'],
    ['system', memoryCache('system'), 'system'],
    ['something else', memoryCache('purple'), 'system'],
    ['localStorage that throws', brokenCache, 'system'],
    ['no localStorage', undefined, 'system'],
  ])('%s reads as the right theme', (_name, cache, expected) => {
    expect(readCachedTheme(cache)).toBe(expected);
  });

  it('survives a localStorage that throws on write', () => {
    expect(() => cacheTheme(brokenCache, 'dark')).not.toThrow();
  });
});

describe('applyTheme', () => {
  it.each<[Theme, string | null]>([
    ['dark', 'dark'],
    ['light', 'light'],
    ['system', null],
  ])('%s sets data-theme to %s', (theme, attribute) => {
    applyTheme(root(), 'dark');
    applyTheme(root(), theme);
    expect(root().getAttribute('data-theme')).toBe(attribute);
  });
});

describe('followStoredTheme', () => {
  it('shows the cached theme at once and the stored one when storage answers, then caches it', async () => {
    await themeItem.setValue('light');
    const cache = memoryCache('dark');
    const stop = followStoredTheme({ root: root(), cache, item: themeItem });
    expect(root().getAttribute('data-theme')).toBe('dark');
    await expect.poll(() => root().getAttribute('data-theme')).toBe('light');
    expect(cache.values.get(THEME_CACHE_KEY)).toBe('light');
    // WXT keeps one storage listener for all watchers: a watcher left behind would outlive the reset.
    stop();
  });

  it('waits for the scheduled moment before touching storage', async () => {
    let reads = 0;
    let watches = 0;
    const item: ThemeSource = {
      getValue: async () => {
        reads++;
        return 'dark';
      },
      watch: () => {
        watches++;
        return () => undefined;
      },
    };
    const scheduled: Array<() => void> = [];
    followStoredTheme({ root: root(), cache: memoryCache(), item, schedule: (task) => scheduled.push(task) });
    expect([reads, watches]).toEqual([0, 0]);
    expect(root().hasAttribute('data-theme')).toBe(false);
    scheduled[0]?.();
    expect([reads, watches]).toEqual([1, 1]);
    await expect.poll(() => root().getAttribute('data-theme')).toBe('dark');
  });

  it('follows a change made on another page (the options page, a restored backup)', async () => {
    const stop = followStoredTheme({ root: root(), cache: memoryCache(), item: themeItem });
    await themeItem.setValue('dark');
    await expect.poll(() => root().getAttribute('data-theme')).toBe('dark');
    await themeItem.setValue('system');
    await expect.poll(() => root().hasAttribute('data-theme')).toBe(false);
    stop();
    await themeItem.setValue('light');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(root().hasAttribute('data-theme')).toBe(false);
  });
});

describe("applyCachedTheme, in the pages' first scripts", () => {
  it.each([
    ['dark', 'dark'],
    ['light', 'light'],
    ['system', null],
    ['<img onerror=alert(1)>', null],
  ])('cached %s gives data-theme %s', (cached, attribute) => {
    localStorage.setItem(THEME_CACHE_KEY, cached);
    applyCachedTheme(root(), pageLocalStorage());
    expect(root().getAttribute('data-theme')).toBe(attribute);
  });

  it('reads the key lib/theme/theme.ts writes', () => {
    cacheTheme(localStorage, 'dark');
    applyCachedTheme(root(), pageLocalStorage());
    expect(root().getAttribute('data-theme')).toBe('dark');
  });

  it('leaves the page to the system when localStorage cannot be read', () => {
    const throwing = {
      getItem: () => {
        throw new DOMException('disabled', 'SecurityError');
      },
    };
    applyCachedTheme(root(), throwing);
    expect(root().hasAttribute('data-theme')).toBe(false);
  });
});
