import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { type DiagnosisEventDeps, onCommitted, onRequestError, onTabRemoved } from '@/lib/diagnosis/events';
import {
  afterCommit,
  afterMainFrameFailure,
  afterSubresourceFailure,
  ERROR_PAGE_COMMIT_MS,
  type Failure,
  type RecordChange,
  recordForPage,
  recordsOfTabs,
  tabsWithRecords,
} from '@/lib/diagnosis/records';
import {
  diagnosisSettingsItem,
  failedHostsOfTabItem,
  failedHostsTabsItem,
  MAX_FAILED_HOSTS_PER_TAB,
  type TabFailures,
} from '@/lib/settings/storage';

const failure = (host: string, at = 1000): Failure => ({
  host,
  kind: 'name-not-resolved',
  error: 'net::ERR_NAME_NOT_RESOLVED',
  at,
});
const hostsOf = (record: TabFailures | undefined) => record?.hosts.map((entry) => entry.host);

describe('a tab record, step by step', () => {
  it('collects sub-resource hosts once each, counting repeats', () => {
    let record = afterCommit(undefined, 'news.example', 0);
    record = afterSubresourceFailure(record, failure('cdn.example.net'));
    record = afterSubresourceFailure(record, failure('ads.example.org'));
    record = afterSubresourceFailure(record, failure('cdn.example.net'));
    expect(hostsOf(record)).toEqual(['cdn.example.net', 'ads.example.org']);
    expect(record.hosts[0]?.count).toBe(2);
    expect(record.pageHost).toBe('news.example');
  });

  it('starts over when the tab shows a new page', () => {
    const old = afterSubresourceFailure(afterCommit(undefined, 'a.example', 0), failure('cdn.example.net'));
    expect(afterCommit(old, 'b.example', 5000)).toEqual({
      pageHost: 'b.example',
      mainFrame: null,
      hosts: [],
    });
    // Reloading the same page is a new load too.
    expect(afterCommit(old, 'a.example', 5000).hosts).toEqual([]);
  });

  it('keeps a failure of the new page that was handled before the page’s commit', () => {
    // The old page's failure at 1000; the new page commits at 5000, its script fails at 5020, and
    // the browser's report of that failure is handled first.
    const old = afterSubresourceFailure(afterCommit(undefined, 'a.example', 0), failure('old-cdn.example'));
    const early = afterSubresourceFailure(old, failure('js.broken-cdn.example', 5020));
    const record = afterCommit(early, 'b.example', 5000);
    expect(record.pageHost).toBe('b.example');
    expect(hostsOf(record)).toEqual(['js.broken-cdn.example']);
  });

  it('a failed main frame replaces the page, and its error page committing right after keeps it', () => {
    const old = afterSubresourceFailure(afterCommit(undefined, 'a.example', 0), failure('cdn.example.net'));
    const failed = afterMainFrameFailure(old, failure('blocked.example', 10_000));
    expect(failed.pageHost).toBe('blocked.example');
    expect(failed.mainFrame?.host).toBe('blocked.example');
    expect(hostsOf(failed)).toEqual(['blocked.example']);
    expect(afterCommit(failed, 'blocked.example', 10_000 + ERROR_PAGE_COMMIT_MS - 1)).toBe(failed);
    // Later, the same page loading again is a new load: the old failure must not stay.
    expect(afterCommit(failed, 'blocked.example', 10_000 + ERROR_PAGE_COMMIT_MS).mainFrame).toBeNull();
  });

  it('the same main-frame failure reported by two APIs counts once', () => {
    const first = afterMainFrameFailure(undefined, failure('blocked.example', 10_000));
    expect(afterMainFrameFailure(first, failure('blocked.example', 10_050))).toBe(first);
  });

  it('keeps at most the cap of hosts per tab', () => {
    let record = afterCommit(undefined, 'busy.example', 0);
    for (let i = 0; i < MAX_FAILED_HOSTS_PER_TAB + 20; i++) {
      record = afterSubresourceFailure(record, failure(`t${i}.example`));
    }
    expect(record.hosts).toHaveLength(MAX_FAILED_HOSTS_PER_TAB);
  });

  it.each([
    ['page of the record', 'news.example', true],
    ['another page', 'other.example', false],
  ])('is shown for the %s', (_case, pageHost, shown) => {
    const record = afterSubresourceFailure(afterCommit(undefined, 'news.example', 0), failure('cdn.example'));
    expect(recordForPage(record, pageHost) !== null).toBe(shown);
    expect(recordForPage(null, pageHost)).toBeNull();
  });

  it('a record of an unseen page load is shown (diagnosis turned on after it loaded)', () => {
    const record = afterSubresourceFailure(undefined, failure('cdn.example'));
    expect(record.pageHost).toBeNull();
    expect(recordForPage(record, 'anything.example')).toBe(record);
  });
});

describe('browser events into storage', () => {
  let changes: RecordChange[];
  let clock: number;
  const deps: DiagnosisEventDeps = {
    isEnabled: async () => (await diagnosisSettingsItem.getValue()).enabled,
    onHostsChanged: async (change) => {
      changes.push(change);
    },
    now: () => clock,
  };
  const subresource = (tabId: number, url: string, error = 'net::ERR_NAME_NOT_RESOLVED') =>
    onRequestError(deps, { tabId, url, error, type: 'script' });

  beforeEach(async () => {
    fakeBrowser.reset();
    changes = [];
    clock = 1_000_000;
    await diagnosisSettingsItem.setValue({ enabled: true });
  });

  it('keeps a page’s first failure when the browser reports it before the page’s commit', async () => {
    await onCommitted(deps, { tabId: 3, frameId: 0, url: 'https://old.example/', timeStamp: 500_000 });
    await onRequestError(deps, {
      tabId: 3,
      url: 'https://js.broken-cdn.example/app.js',
      error: 'net::ERR_NAME_NOT_RESOLVED',
      type: 'script',
      timeStamp: 900_020,
    });
    await onCommitted(deps, { tabId: 3, frameId: 0, url: 'https://news.example/story', timeStamp: 900_000 });
    await subresource(3, 'https://img.unused-cdn.example/a.png');
    const record = await failedHostsOfTabItem(3).getValue();
    expect(record?.pageHost).toBe('news.example');
    expect(hostsOf(record ?? undefined)).toEqual(['js.broken-cdn.example', 'img.unused-cdn.example']);
  });

  it('records DNS-type failures per tab, main frame and sub-resources, and nothing else', async () => {
    await onCommitted(deps, { tabId: 3, frameId: 0, url: 'https://news.example/story' });
    await subresource(3, 'https://cdn.broken.example/app.js');
    await subresource(3, 'https://user-stopped.example/x.js', 'net::ERR_ABORTED');
    await subresource(3, 'https://adblocked.example/x.js', 'net::ERR_BLOCKED_BY_CLIENT');
    await subresource(3, 'http://10.0.0.1/x.js');
    await subresource(-1, 'https://extension-own.example/api');
    await onRequestError(deps, {
      tabId: 4,
      url: 'https://blocked.example/',
      error: 'net::ERR_NAME_NOT_RESOLVED',
      type: 'main_frame',
    });
    const [tab3, tab4] = await recordsOfTabs([3, 4]);
    expect(hostsOf(tab3 ?? undefined)).toEqual(['cdn.broken.example']);
    expect(tab4?.mainFrame?.host).toBe('blocked.example');
    expect(changes.map((change) => change.tabId)).toEqual([3, 3, 4]);
  });

  it('clears a tab on a main-frame commit only, and forgets a closed tab', async () => {
    await onCommitted(deps, { tabId: 3, frameId: 0, url: 'https://news.example/' });
    await subresource(3, 'https://cdn.broken.example/app.js');
    await onCommitted(deps, { tabId: 3, frameId: 5, url: 'https://frame.example/' });
    await onCommitted(deps, {
      tabId: 3,
      frameId: 0,
      url: 'https://other.example/',
      documentLifecycle: 'prerender',
    });
    expect(hostsOf((await failedHostsOfTabItem(3).getValue()) ?? undefined)).toEqual(['cdn.broken.example']);
    await onCommitted(deps, { tabId: 3, frameId: 0, url: 'https://news.example/next' });
    expect(await failedHostsOfTabItem(3).getValue()).toEqual({
      pageHost: 'news.example',
      mainFrame: null,
      hosts: [],
    });
    await onTabRemoved(3);
    expect(await failedHostsOfTabItem(3).getValue()).toBeNull();
    expect(await tabsWithRecords()).toEqual([]);
  });

  it('a burst of failures at once loses none of them', async () => {
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => subresource(9, `https://t${i}.broken.example/x.js`)),
    );
    expect((await failedHostsOfTabItem(9).getValue())?.hosts).toHaveLength(12);
  });

  it('records nothing while "Diagnose pages" is off', async () => {
    await diagnosisSettingsItem.setValue({ enabled: false });
    await subresource(3, 'https://cdn.broken.example/app.js');
    await onCommitted(deps, { tabId: 3, frameId: 0, url: 'https://news.example/' });
    expect(await tabsWithRecords()).toEqual([]);
    expect(await failedHostsOfTabItem(3).getValue()).toBeNull();
  });

  it('keeps the records in storage.session, where the browser has it', () => {
    expect(failedHostsTabsItem.key).toBe('session:failedHosts');
    expect(failedHostsOfTabItem(3).key).toBe('session:failedHosts:3');
  });
});

describe('records stored by version 1 (every tab in one value)', () => {
  it('are read after the update migrated them, each under its own tab', async () => {
    fakeBrowser.reset();
    const record: TabFailures = {
      pageHost: 'news.example',
      mainFrame: null,
      hosts: [
        {
          host: 'cdn.broken.example',
          kind: 'name-not-resolved',
          error: 'net::ERR_NAME_NOT_RESOLVED',
          count: 2,
          at: 1,
        },
      ],
    };
    await fakeBrowser.storage.session.set({ failedHosts: { '5': record } });
    vi.resetModules();
    // The worker migrates stored values when the extension is updated (lib/settings/migrate.ts).
    await (await import('@/lib/settings/migrate')).migrateStoredValues();
    const fresh = await import('@/lib/diagnosis/records');
    expect(await fresh.tabsWithRecords()).toEqual([5]);
    expect(await fresh.recordsOfTabs([5])).toEqual([record]);
  });
});
