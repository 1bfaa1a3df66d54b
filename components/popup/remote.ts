/**
 * What the popup needs only when a cached view is stale: the API client and the fetchers. Loaded
 * with a dynamic import, so a popup answering from a fresh cache never loads or parses it.
 */
export { refreshBlockedToday, refreshLists, refreshProfiles } from '@/lib/cache/refresh';
export { createConfiguredClient } from '@/lib/settings/api-client';
