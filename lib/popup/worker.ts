/**
 * The worker client for the popup, loaded when the popup first asks the worker something: the
 * message schemas it checks answers with (lib/messaging/protocol.ts, built with zod as the module
 * loads) are not needed before the verdict, which a warm opening shows without asking the worker
 * (docs/architecture.md, "The popup's start path: invariants").
 */
export const loadWorker = () => import('@/lib/messaging/worker-client').then(({ worker }) => worker);
