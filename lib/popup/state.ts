/**
 * The popup's state, as the controller (controller.ts) keeps it and the view model (view.ts) and
 * the components read it. Types only: both sides import them from here, never from each other.
 */
import type { ApiForm } from '@/lib/api/types';
import type { CachedView, ListsView } from '@/lib/cache/view-cache';
import type { ListChange } from '@/lib/messaging/protocol';
import type { AccountNotes, EntryRecord } from '@/lib/notes';
import type { DomainsOwned } from '@/lib/schedules/manual';
import type { OutboxEntry, SettledChange } from '@/lib/settings/storage';

export interface ChangeStatus {
  state: 'idle' | 'running' | 'delivered' | 'pending' | 'failed';
  message: string;
  /** Pending after the user pressed Send now: the popup says "still waiting". */
  retried?: boolean;
}

export interface UndoOffer {
  change: ListChange;
  /** What the undo button does, in words ("Put example.com back on the blocklist"). */
  description: string;
  /** What the popup says while undoing ("Undoing: put example.com back on the blocklist…"). */
  progress: string;
  /** The record of the entry put back (lib/notes), restored with it: its removal took it. */
  record?: EntryRecord;
  /** The change undone was of a public suffix the user typed to confirm: so is putting it back. */
  publicSuffixConfirmed?: true;
}

/** `settings`: the key was refused or the settings cannot work; the fix is on the options page. */
export type Problem = { kind: 'settings' | 'other'; message: string };

export type PopupState =
  | { phase: 'starting' }
  | { phase: 'nothing-to-filter'; unreadable: boolean }
  | { phase: 'no-key' }
  /** Storage could not be read: nothing else can be shown. */
  | { phase: 'failed'; message: string }
  | ReadyState;

export interface ReadyState {
  phase: 'ready';
  host: string;
  /** The tab the popup is about (read-tab.ts); page diagnosis finds its record by it. */
  tabId: number | undefined;
  /**
   * From the Public Suffix List, remembered per host (lib/cache/registrable-domains.ts); null when
   * the host is itself a public suffix (co.uk): no list entry may stand for it unasked.
   */
  registrable: string | null | undefined;
  form: ApiForm;
  /** Form A: the chosen profile; Form B: undefined (whole account). */
  profile: string | undefined;
  scope: string;
  /** The configured account's identity (lib/identity/identity.ts): views and changes of another are not shown. */
  account: string;
  profiles: CachedView<readonly string[]> | null;
  lists: CachedView<ListsView> | null;
  blockedToday: CachedView<ReadonlyMap<string, number>> | null;
  blockedTlds: readonly string[];
  defaultBlock: boolean;
  outbox: readonly OutboxEntry[];
  settled: readonly SettledChange[];
  refreshing: boolean;
  /** The lists could not be refreshed. */
  problem: Problem | null;
  /** Today's statistics could not be fetched (the verdict then rests on the lists alone). */
  statsProblem: string | null;
  /** The domain the user switched to; the view falls back to its default when unset. */
  chosenDomain: string | undefined;
  change: ChangeStatus;
  undo: UndoOffer | null;
  /**
   * The schedules that own the domain just changed (docs/schedules.md, "Manual changes"), read
   * only once a change went through: they would put it back at their next check unless kept.
   */
  scheduleOwned?: readonly DomainsOwned[];
  /** The account's records of entries added here, with their notes (lib/notes); unset until read. */
  entryNotes?: AccountNotes;
}
