/**
 * Per-tab records of the hosts that failed with a DNS-type error, as pure steps (what a browser
 * event does to a tab's record) and their storage (`failedHostsOfTabItem`, one key per tab, and
 * `failedHostsTabsItem`, which tabs have one; written by the worker only). The popup reads its
 * tab's record for its "Failed hosts on this page" list and the verdict's "probably blocked by the
 * filter"; the badge counts the hosts of each tab.
 *
 * A record belongs to one page load: a new document committing in the tab's main frame starts a
 * new record, and a main frame that fails starts one too (the browser then shows its error page
 * in place of the old page). Sub-resources and frames add their hosts to the current record.
 */
import { exclusively } from '@/lib/outbox/lease';
import { getValues } from '@/lib/settings/item';
import {
  type FailedHost,
  failedHostsOfTabItem,
  failedHostsTabsItem,
  MAX_FAILED_HOSTS_PER_TAB,
  type TabFailures,
} from '@/lib/settings/storage';

/** One failed request: a host's record before it is counted. */
export type Failure = Omit<FailedHost, 'count'>;

/**
 * Firefox may report its error page as a committed document after the main frame failed; a
 * commit of the failed host this soon after the failure is that error page, not a new load.
 */
export const ERROR_PAGE_COMMIT_MS = 3_000;

export const emptyRecord = (pageHost: string | null): TabFailures => ({
  pageHost,
  mainFrame: null,
  hosts: [],
});

/** `hosts` with the failure counted; the same array when the record is full and the host new. */
function withHost(hosts: readonly FailedHost[], failure: Failure): readonly FailedHost[] {
  const index = hosts.findIndex((entry) => entry.host === failure.host);
  if (index >= 0) {
    return hosts.map((entry, i) => (i === index ? { ...entry, count: entry.count + 1 } : entry));
  }
  if (hosts.length >= MAX_FAILED_HOSTS_PER_TAB) return hosts;
  return [...hosts, { ...failure, count: 1 }];
}

/**
 * A document committed in the main frame at `at`: a new page, unless it is the error page of a
 * failure. The new page keeps the hosts that failed after its commit: the browser reports
 * requests and navigations apart, and a page's first failures (a script in its head) can be
 * handled before its commit is.
 */
export function afterCommit(
  record: TabFailures | undefined,
  pageHost: string | null,
  at: number,
): TabFailures {
  const failed = record?.mainFrame;
  if (record && failed && failed.host === pageHost && at - failed.at < ERROR_PAGE_COMMIT_MS) return record;
  return { ...emptyRecord(pageHost), hosts: record?.hosts.filter((entry) => entry.at > at) ?? [] };
}

/** The main frame itself failed: the tab now shows the browser's error page for that host. */
export function afterMainFrameFailure(record: TabFailures | undefined, failure: Failure): TabFailures {
  // Reported twice in Chromium (webRequest and webNavigation): the second report changes nothing.
  if (record?.mainFrame?.host === failure.host && failure.at - record.mainFrame.at < ERROR_PAGE_COMMIT_MS) {
    return record;
  }
  const mainFrame: FailedHost = { ...failure, count: 1 };
  return { pageHost: failure.host, mainFrame, hosts: [mainFrame] };
}

/** A sub-resource or a frame of the page failed. */
export function afterSubresourceFailure(record: TabFailures | undefined, failure: Failure): TabFailures {
  const current = record ?? emptyRecord(null);
  const hosts = withHost(current.hosts, failure);
  return hosts === current.hosts ? current : { ...current, hosts: [...hosts] };
}

/** Whether the hosts a person sees changed (a repeat failure only bumps a count). */
export function sameHosts(a: TabFailures | undefined, b: TabFailures | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return (
    a.pageHost === b.pageHost &&
    a.mainFrame?.host === b.mainFrame?.host &&
    a.hosts.length === b.hosts.length &&
    a.hosts.every((entry, i) => entry.host === b.hosts[i]?.host)
  );
}

/** Whether two records would show the same in the popup (every host with its count): plain data, compared as JSON. */
export function sameRecord(a: TabFailures | undefined, b: TabFailures | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b));
}

/**
 * The record of a tab for the popup: only when it belongs to the page the tab shows now (a record
 * of an unknown page is shown too: diagnosis was turned on after that page loaded).
 */
export function recordForPage(record: TabFailures | null, pageHost: string): TabFailures | null {
  if (!record) return null;
  if (record.pageHost !== null && record.pageHost !== pageHost) return null;
  return record;
}

export interface RecordChange {
  tabId: number;
  before: TabFailures | undefined;
  after: TabFailures | undefined;
}

/**
 * Applies `step` to the tab's stored record. Serialised: a page's failures arrive in bursts, and
 * two read-modify-writes must not interleave and lose a host. Reads and writes that tab's record
 * only, and only when it changed; the list of tabs when the tab gets its first record or loses it.
 */
export function updateTabRecord(
  tabId: number,
  step: (record: TabFailures | undefined) => TabFailures | undefined,
): Promise<RecordChange> {
  return exclusively('failed-hosts', async () => {
    const item = failedHostsOfTabItem(tabId);
    const before = (await item.getValue()) ?? undefined;
    const after = step(before);
    if (sameRecord(before, after)) return { tabId, before, after };
    if (after === undefined) {
      await item.removeValue();
      await setTabListed(tabId, false);
    } else {
      // Listed first: a tab listed without a record reads as having none, never the other way.
      if (before === undefined) await setTabListed(tabId, true);
      await item.setValue(after);
    }
    return { tabId, before, after };
  });
}

async function setTabListed(tabId: number, listed: boolean): Promise<void> {
  const { tabs } = await failedHostsTabsItem.getValue();
  if (tabs.includes(tabId) === listed) return;
  await failedHostsTabsItem.setValue({
    tabs: listed ? [...tabs, tabId] : tabs.filter((tab) => tab !== tabId),
  });
}

/** The tabs that have a record. */
export async function tabsWithRecords(): Promise<number[]> {
  return (await failedHostsTabsItem.getValue()).tabs;
}

/** The stored records of `tabIds` (null for a tab without one), in one storage read. */
export function recordsOfTabs(tabIds: readonly number[]): Promise<(TabFailures | null)[]> {
  return getValues(tabIds.map(failedHostsOfTabItem));
}

/** Forgets every record (diagnosis turned off, permission withdrawn); returns the tabs they were for. */
export function clearAllRecords(): Promise<number[]> {
  return exclusively('failed-hosts', async () => {
    const { tabs } = await failedHostsTabsItem.getValue();
    await Promise.all(tabs.map((tab) => failedHostsOfTabItem(tab).removeValue()));
    await failedHostsTabsItem.setValue({ tabs: [] });
    return tabs;
  });
}
