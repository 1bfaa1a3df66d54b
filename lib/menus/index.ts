/**
 * The context menu. The worker builds it in `runtime.onInstalled` and rebuilds it when the
 * connection, the cached profiles or the menu setting change.
 */
import { exclusively } from '@/lib/outbox/lease';
import type { MenuItem } from './menu-items';

export {
  buildMenuItems,
  domainForUrl,
  type MenuItem,
  parseMenuItemId,
} from './menu-items';

/** The part of `browser.contextMenus` (Firefox: `menus`) the rebuild uses. */
export interface ContextMenusApi {
  removeAll(): Promise<void>;
  create(properties: MenuItem, callback?: () => void): unknown;
}

/**
 * Replaces the whole menu with the items `readItems` gives. Rebuilds never overlap, and each
 * removes everything first, so an id is never created twice (which Chrome reports as an error and
 * Firefox as a duplicate). Each reads its items when its turn comes: a rebuild that began before
 * a change cannot finish after the rebuild the change asked for and put the old menu back.
 */
export function rebuildMenus(
  api: ContextMenusApi,
  readItems: () => Promise<MenuItem[]>,
  lastError?: () => unknown,
): Promise<void> {
  return exclusively('context-menu', async () => {
    const items = await readItems();
    await api.removeAll();
    for (const item of items) {
      await new Promise<void>((resolve) => {
        // Reading lastError in the callback marks a failure as handled; the menu is best effort.
        api.create(item, () => {
          lastError?.();
          resolve();
        });
      });
    }
  });
}
export { readMenuInput, refreshProfilesCache } from './profiles';
