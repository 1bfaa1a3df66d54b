/**
 * Everything the popup knows and does, without Preact: it reads the tab and the cached views at
 * once, answers from them, refreshes what is stale in the background, and sends one-click changes
 * to the worker's outbox. The view model (view.ts) derives what to show from its state
 * (state.ts); the components subscribe to it (components/popup/PopupApp.tsx).
 *
 * This file assembles it: the state store and the methods the popup calls. The parts, each
 * given the shared ./controller-context.ts: ./start.ts (to the first view), ./refresh.ts (what
 * is fetched after it), ./actions.ts (what the user does).
 */

import { act, chooseProfile, sendPendingNow, undo } from './actions';
import { type ControllerContext, type PopupDeps, problemOf } from './controller-context';
import { readListsFor, refreshStale, requestStatistics } from './refresh';
import { registrableDomainsOf } from './registrable';
import { readShownAccountId } from './shown-account';
import { startToFirstView } from './start';
import type { PopupState, ReadyState } from './state';

/** `act`'s parameters after the context: what one click says. */
type Click = Parameters<typeof act> extends [ControllerContext, ...infer Rest] ? Rest : never;

export function createPopupController(deps: PopupDeps) {
  let state: PopupState = { phase: 'starting' };
  const listeners = new Set<() => void>();
  /** The stable id of the account the view shows (./shown-account.ts), once asked for. */
  let shownAccount: Promise<string | null> | null = null;
  const shownAccountId = (): Promise<string | null> => {
    const current = ready();
    if (current === null) return Promise.resolve(null);
    shownAccount ??= readShownAccountId(current.account).catch(() => null);
    return shownAccount;
  };

  const set = (next: PopupState) => {
    state = next;
    for (const listener of listeners) listener();
  };
  const ready = (): ReadyState | null => (state.phase === 'ready' ? state : null);
  const update = (patch: Partial<ReadyState>) => {
    const current = ready();
    if (current) set({ ...current, ...patch });
  };

  const ctx: ControllerContext = {
    deps,
    set,
    ready,
    update,
    shownAccountId,
    disposers: [],
    generation: 0,
    clientSettings: undefined,
    statsFetch: null,
    statisticsRequested: false,
    otherListHosts: new Set<string>(),
  };

  return {
    getState: (): PopupState => state,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Never rejects: a failure shows as the `failed` phase. */
    start: () =>
      startToFirstView(ctx).catch((error: unknown) => {
        if (state.phase === 'starting') set({ phase: 'failed', message: problemOf(error).message });
      }),
    refresh: () => refreshStale(ctx, true),
    requestStatistics: () => requestStatistics(ctx),
    /**
     * The stable id of the account the popup shows, for the requests the panels send themselves
     * (temporary allow, unbreak); null when another account became active since it was read.
     */
    shownAccountId,
    /**
     * Registrable domains of other hosts (page diagnosis's failed hosts), asked of the worker like
     * the page's own; never rejects.
     */
    registrableDomainsOf: (hosts: readonly string[]) => {
      void readListsFor(ctx, hosts);
      return registrableDomainsOf(hosts, deps.askWorkerForDomains ?? (async () => null));
    },
    chooseProfile: (profile: string) => chooseProfile(ctx, profile),
    chooseDomain(domain: string) {
      update({ chosenDomain: domain });
    },
    /** One click on the domain the popup shows (./actions.ts `act`). */
    act: (...click: Click) => act(ctx, ...click),
    /** "Send now" on the changes waiting for this domain (./actions.ts `sendPendingNow`). */
    sendPendingNow: (ids: readonly string[]) => sendPendingNow(ctx, ids),
    undo: () => undo(ctx),
    dispose() {
      for (const dispose of ctx.disposers.splice(0)) dispose();
      listeners.clear();
    },
  };
}

export type PopupController = ReturnType<typeof createPopupController>;
