/**
 * What the popup controller's parts share (./controller.ts assembles them): its dependencies, the
 * state store, and the few values they keep between calls. The parts (./start.ts, ./refresh.ts,
 * ./actions.ts) each take this one object, so each reads on its own.
 */

import type { ClientSettings } from '@/lib/api/configured-client';
import { isApiError } from '@/lib/api/errors';
import type { DnsFilterApi } from '@/lib/api/types';
import { localDate } from '@/lib/cache/freshness';
import type { CachedView, Saving, ViewCache } from '@/lib/cache/view-cache';
import { t } from '@/lib/i18n';
import type { ChangeOutcome, ListChange } from '@/lib/messaging/protocol';
import type { TabAddress } from './read-tab';
import type { AskWorkerForDomains } from './registrable';
import type { PopupState, Problem, ReadyState } from './state';

type RemoteModule = typeof import('./remote');

export interface PopupDeps {
  readTab(): Promise<TabAddress>;
  cache: ViewCache;
  /** The API client and fetchers (./remote.ts; tests pass fakes). */
  loadRemote(): Promise<
    Pick<RemoteModule, 'refreshLists' | 'refreshProfiles' | 'refreshBlockedToday'> & {
      createConfiguredClient(deps?: { settings?: ClientSettings }): Promise<DnsFilterApi | null>;
    }
  >;
  /** Sends `{ type: 'submit-change' }` to the worker, with `sentWith`. Never rejects. */
  submitChange(change: ListChange, sentWith: SubmitOptions): Promise<ChangeOutcome>;
  /**
   * Sends `{ type: 'retry-outbox' }`: the worker sends the waiting changes now, ignoring their
   * backoff. Resolves with how many still wait, or null when the worker did not answer. Never rejects.
   */
  retryOutbox?(): Promise<number | null>;
  /** The worker's registrable domains of hosts (Public Suffix List); loaded here when it has no answer. */
  askWorkerForDomains?: AskWorkerForDomains;
  /** Called once the first view is set, when the storage reads it needed are done. */
  onFirstView?(): void;
  /** Whether the passphrase lock keeps the key now (lib/lock/popup-lock.ts); absent: no lock. */
  lockedNow?(): Promise<boolean>;
  now(): number;
}

/** What a change request carries besides the change (lib/messaging/protocol.ts 'submit-change'). */
export interface SubmitOptions {
  /** The account the popup shows (its stable id, ./shown-account.ts): the worker refuses it for another. */
  accountId: string;
  /** The user typed the domain, a public suffix, to confirm adding it. */
  publicSuffixConfirmed?: true;
}

/** What a click adds to a change request (the account is the popup's). */
export type Confirmation = Omit<SubmitOptions, 'accountId'>;

export interface ControllerContext {
  deps: PopupDeps;
  set(next: PopupState): void;
  /** The state when the popup shows a verdict, else null. */
  ready(): ReadyState | null;
  /** Patches the ready state; does nothing in any other phase. */
  update(patch: Partial<ReadyState>): void;
  /**
   * Read when the popup is idle after its first view, or by the first request that needs it if
   * that comes first: either way checked against the identity the view was read for.
   */
  shownAccountId(): Promise<string | null>;
  /** Undone by `dispose`: the storage watches set up after the first view. */
  disposers: Array<() => void>;
  /** Bumped on each profile switch: answers for an earlier scope are dropped. */
  generation: number;
  /** The client's settings as read at start (the key when first needed), so a refresh need not read them again. */
  clientSettings: (() => Promise<ClientSettings>) | undefined;
  /** Today's statistics on their way (fetchStatistics), so they are never asked for twice at once. */
  statsFetch: Promise<unknown> | null;
  /** Page diagnosis asked for today's statistics (requestStatistics): it asks once per opening. */
  statisticsRequested: boolean;
  /**
   * Hosts besides the tab's whose list entries are read (page diagnosis's failed hosts): the
   * cached lists are read only for the hosts shown (lib/cache/list-buckets.ts).
   */
  otherListHosts: Set<string>;
}

/** For promises awaited elsewhere: marks a rejection as handled without hiding it from that await. */
export const ignoreHere = () => undefined;

export const listHosts = (ctx: ControllerContext, current: ReadyState) => [
  current.host,
  ...ctx.otherListHosts,
];

export const today = (ctx: ControllerContext) => localDate(new Date(ctx.deps.now()));

/** Shown at once; the storage write finishes on its own (a failed one means a fetch next time). */
export const shown = <T>({ view, saved }: Saving<T>): CachedView<T> => {
  saved.catch(ignoreHere);
  return view;
};

export function problemOf(error: unknown): Problem {
  if (isApiError(error)) {
    // A refused key or settings that cannot work (a bad base URL): the fix is in the settings.
    const settingsField = ['baseUrl', 'key', 'form'].includes(error.details.field ?? '');
    const inSettings = error.kind === 'bad-key' || (error.kind === 'invalid-input' && settingsField);
    return { kind: inSettings ? 'settings' : 'other', message: error.message };
  }
  return { kind: 'other', message: t('common.genericFailure') };
}
