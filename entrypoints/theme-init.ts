import { applyCachedTheme, pageLocalStorage } from '@/lib/theme/first-paint';

/**
 * The options page's first script (`defer blocking="render"`): the stored theme before the first
 * paint, without holding up the parser. The popup does the same in its own first script
 * (popup-start.ts).
 */
export default defineUnlistedScript(() => {
  applyCachedTheme(document.documentElement, pageLocalStorage());
});
