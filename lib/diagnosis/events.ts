/**
 * What the worker does with each browser event of page diagnosis. The listeners themselves are
 * added in entrypoints/background (see addDiagnosisListeners there); these functions read and
 * write storage only, so a worker restarted between two events loses nothing.
 */
import { hostnameFromUrl } from '@/lib/filtering/domain';
import { classifyFailure } from './classify';
import {
  afterCommit,
  afterMainFrameFailure,
  afterSubresourceFailure,
  type RecordChange,
  sameHosts,
  updateTabRecord,
} from './records';

/** The fields of webRequest.onErrorOccurred and webNavigation.onErrorOccurred details used here. */
export interface ErrorDetails {
  tabId: number;
  url: string;
  error: string;
  /** webRequest: 'main_frame', 'sub_frame', 'script' … */
  type?: string;
  /** webNavigation: 0 for the main frame. */
  frameId?: number;
  ip?: string;
  /** Chromium: 'prerender' for a page loaded ahead, not shown (yet). */
  documentLifecycle?: string;
  /** When it happened (ms since the epoch), as both browsers give it. */
  timeStamp?: number;
}

/** The fields of webNavigation.onCommitted details used here; `timeStamp`: when the page committed. */
export type CommitDetails = Pick<ErrorDetails, 'tabId' | 'url' | 'documentLifecycle' | 'timeStamp'> & {
  frameId: number;
};

export interface DiagnosisEventDeps {
  /** "Diagnose pages" is on (permissions are granted, or no event would arrive). */
  isEnabled(): Promise<boolean>;
  /** A tab's list of failed hosts changed: its badge follows. */
  onHostsChanged(change: RecordChange): Promise<unknown>;
  now?: () => number;
}

const isMainFrame = (details: ErrorDetails) =>
  details.type === undefined ? details.frameId === 0 : details.type === 'main_frame';

/**
 * When an event happened: its own time where the browser gives it, not this handler's. A page's
 * first failures can be handled before the page's commit is, and the commit keeps only what
 * failed after it (./records.ts `afterCommit`).
 */
const eventTime = (deps: DiagnosisEventDeps, details: { timeStamp?: number }) =>
  details.timeStamp ?? (deps.now ?? Date.now)();

async function report(deps: DiagnosisEventDeps, change: RecordChange): Promise<void> {
  if (!sameHosts(change.before, change.after)) await deps.onHostsChanged(change);
}

export async function onRequestError(deps: DiagnosisEventDeps, details: ErrorDetails): Promise<void> {
  // Requests of no tab: the extension's own, other extensions', service workers'.
  if (details.tabId < 0 || details.documentLifecycle === 'prerender') return;
  const kind = classifyFailure(details);
  if (kind === null) return;
  // IP addresses, localhost and the like: no list entry could name them, nothing to offer.
  const host = hostnameFromUrl(details.url);
  if (host === null || !(await deps.isEnabled())) return;
  const failure = { host, kind, error: details.error, at: eventTime(deps, details) };
  const change = await updateTabRecord(details.tabId, (record) =>
    isMainFrame(details) ? afterMainFrameFailure(record, failure) : afterSubresourceFailure(record, failure),
  );
  await report(deps, change);
}

export async function onCommitted(deps: DiagnosisEventDeps, details: CommitDetails): Promise<void> {
  if (details.tabId < 0 || details.frameId !== 0 || details.documentLifecycle === 'prerender') return;
  if (!(await deps.isEnabled())) return;
  const pageHost = hostnameFromUrl(details.url);
  const at = eventTime(deps, details);
  const change = await updateTabRecord(details.tabId, (record) => afterCommit(record, pageHost, at));
  await report(deps, change);
}

/** A closed tab's id may be reused: its record goes with it. */
export async function onTabRemoved(tabId: number): Promise<void> {
  await updateTabRecord(tabId, () => undefined);
}
