/**
 * What the popup needs when a cached view is stale: the API client and the fetchers. Imported
 * statically (entrypoints/popup/main.tsx): a lazy chunk kept about 11 kB gzipped out of a warm
 * opening, but an opening with a stale cache then waited about 20 ms for that file before it could
 * call the service, while loading it with the rest cost a warm opening nothing measurable (the
 * API schemas are built on first use). Measured with scripts/bench.
 */

/** @public Used through the namespace the popup's controller is given (`PopupDeps.loadRemote`). */
export { createConfiguredClient } from '@/lib/api/configured-client';
/** @public */
export { refreshBlockedToday, refreshLists, refreshProfiles } from '@/lib/cache/refresh';
