// @vitest-environment node
/**
 * What page diagnosis writes to storage when a page has many failed requests while other tabs
 * hold records too (pages full of blocked trackers are the normal case): one write per change the
 * popup would show, carrying that tab's record alone.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { type DiagnosisEventDeps, onCommitted, onRequestError } from '@/lib/diagnosis/events';
import { recordsOfTabs } from '@/lib/diagnosis/records';
import { MAX_FAILED_HOSTS_PER_TAB } from '@/lib/settings/storage';

const OTHER_TABS = 50;
const HOSTS_PER_OTHER_TAB = 20;
const PAGE_TAB = OTHER_TABS + 1;
const FAILURES = 1_000;
/** More hosts than a record keeps: the failures of the hosts past the cap change nothing shown. */
const PAGE_HOSTS = MAX_FAILED_HOSTS_PER_TAB + 50;

const deps: DiagnosisEventDeps = {
  isEnabled: async () => true,
  onHostsChanged: async () => undefined,
  now: () => 1_000_000,
};
const fail = (tabId: number, host: string) =>
  onRequestError(deps, {
    tabId,
    url: `https://${host}/x.js`,
    type: 'script',
    error: 'net::ERR_NAME_NOT_RESOLVED',
  });
const otherTabHost = (tab: number, i: number) => `t${i}.tracker${tab}.example`;
const pageHost = (i: number) => `t${i % PAGE_HOSTS}.ads.example`;

/** Every `set` of storage.session from now on, as the JSON it writes. */
function recordWrites(): string[] {
  const writes: string[] = [];
  const session = fakeBrowser.storage.session;
  const set = session.set.bind(session);
  session.set = (items: Record<string, unknown>) => {
    writes.push(JSON.stringify(items));
    return set(items);
  };
  return writes;
}

beforeEach(() => {
  fakeBrowser.reset();
});

describe('a page with 1,000 failed requests beside 50 tabs', () => {
  it('writes its own record alone, once per change the popup would show', async () => {
    for (let tab = 1; tab <= OTHER_TABS; tab++) {
      await onCommitted(deps, { tabId: tab, frameId: 0, url: `https://site${tab}.example/` });
      for (let i = 0; i < HOSTS_PER_OTHER_TAB; i++) await fail(tab, otherTabHost(tab, i));
    }
    await onCommitted(deps, { tabId: PAGE_TAB, frameId: 0, url: 'https://news.example/' });

    const writes = recordWrites();
    for (let i = 0; i < FAILURES; i++) await fail(PAGE_TAB, pageHost(i));

    // A failure changes what the popup shows when its host is (or becomes) one of the hosts the
    // record keeps: a new row, or a row's count of requests.
    const kept = new Set<string>();
    let shownChanges = 0;
    for (let i = 0; i < FAILURES; i++) {
      const host = pageHost(i);
      if (!kept.has(host) && kept.size < MAX_FAILED_HOSTS_PER_TAB) kept.add(host);
      if (kept.has(host)) shownChanges++;
    }
    expect(shownChanges).toBeLessThan(FAILURES);
    expect(writes.length).toBeLessThanOrEqual(shownChanges);

    // No write carries another tab's record: its size is bounded by the page's own record.
    expect(writes.filter((json) => /tracker\d+\.example/.test(json))).toEqual([]);
    const [record] = await recordsOfTabs([PAGE_TAB]);
    const fullRecordBytes = JSON.stringify(record).length;
    const bytes = writes.reduce((sum, json) => sum + json.length, 0);
    expect(bytes).toBeLessThanOrEqual(shownChanges * fullRecordBytes);

    // Nothing the popup shows was lost on the way: every kept host with all its requests.
    expect(record?.hosts.map((entry) => entry.host)).toEqual([...kept]);
    expect(record?.hosts.reduce((sum, entry) => sum + entry.count, 0)).toBe(shownChanges);
    const otherTabs = await recordsOfTabs([1, OTHER_TABS]);
    expect(otherTabs.map((other) => other?.hosts.length)).toEqual([HOSTS_PER_OTHER_TAB, HOSTS_PER_OTHER_TAB]);
  });
});
