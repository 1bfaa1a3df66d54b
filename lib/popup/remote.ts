/**
 * What the popup needs when a cached view is stale or missing: the API client and the fetchers,
 * loaded as a chunk of their own (entrypoints/popup/main.tsx says why): a warm opening never
 * loads them.
 */

/** @public Used through the namespace the popup's controller is given (`PopupDeps.loadRemote`). */
export { createConfiguredClient } from '@/lib/api/configured-client';
/** @public */
export { refreshBlockedToday, refreshLists, refreshProfiles } from '@/lib/cache/refresh';
