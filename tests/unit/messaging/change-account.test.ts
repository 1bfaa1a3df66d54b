/**
 * Every change request names the account the page showed when it was made (its stable id,
 * lib/accounts), and the worker refuses it when another account is active by the time it arrives:
 * a popup or an options tab still showing the previous account must not act on the new one.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { createMessageListener, createRequestHandlers } from '@/lib/messaging/handlers';
import { fakeWorkerJobs } from '../../fakes/fake-worker-jobs';

const HOME = 'home-account-0001';
const WORK = 'work-account-0002';
const GONE = 'gone-account-0003';

// Work became active after the page was opened on Home.
const jobs = fakeWorkerJobs({
  accountNames: async () => ({
    activeId: WORK,
    names: new Map([
      [HOME, 'Home'],
      [WORK, 'Work'],
    ]),
  }),
});

const onMessage = createMessageListener(createRequestHandlers(jobs), fakeBrowser.runtime);
const BASE = fakeBrowser.runtime.getURL('/');
const POPUP = { id: fakeBrowser.runtime.id, url: `${BASE}popup.html` };
const OPTIONS = { id: fakeBrowser.runtime.id, url: `${BASE}options.html#logs` };

const change = { op: 'add', list: 'whitelist', domain: 'example.com', profile: 'default', source: 'popup' };
const requests = (accountId: string) => ({
  'submit-change': { type: 'submit-change', change, accountId },
  'temporary-allow': {
    type: 'temporary-allow',
    domain: 'example.com',
    profile: 'default',
    durationMs: 3_600_000,
    before: 'none',
    accountId,
  },
  unbreak: {
    type: 'unbreak',
    pageHost: 'www.news.example',
    durationMs: 3_600_000,
    domains: [{ domain: 'cdn.example', before: 'none' }],
    accountId,
  },
  'unbreak-review': { type: 'unbreak-review', id: '1 news.example', keep: true, accountId },
});

const startedJobs = () =>
  jobs.submit.mock.calls.length +
  jobs.temporaryAllow.mock.calls.length +
  jobs.unbreak.mock.calls.length +
  jobs.reviewUnbreak.mock.calls.length;

beforeEach(() => vi.clearAllMocks());

describe('a change request made for another account than the active one', () => {
  it.each(Object.keys(requests(HOME)) as (keyof ReturnType<typeof requests>)[])(
    '%s from the popup is refused, naming both accounts, and nothing runs',
    async (type) => {
      expect(await onMessage(requests(HOME)[type], POPUP)).toMatchObject({
        state: 'failed',
        message: 'This popup was showing account Home; it is now Work: reopen it. Nothing was changed.',
      });
      expect(startedJobs()).toBe(0);
    },
  );

  it('from the options page, the page is to be reloaded', async () => {
    expect(
      await onMessage({ ...requests(HOME)['submit-change'], change: { ...change, source: 'logs' } }, OPTIONS),
    ).toEqual({
      state: 'failed',
      message: 'This page was showing account Home; it is now Work: reload it. Nothing was changed.',
    });
    expect(jobs.submit).not.toHaveBeenCalled();
  });

  it('made for an account removed since, it says so without a name', async () => {
    expect(await onMessage(requests(GONE)['submit-change'], POPUP)).toEqual({
      state: 'failed',
      message:
        'This popup was showing an account that has been removed; it is now Work: reopen it. Nothing was changed.',
    });
    expect(jobs.submit).not.toHaveBeenCalled();
  });

  it('made for the active account, it goes through', async () => {
    for (const request of Object.values(requests(WORK))) {
      expect(await onMessage(request, POPUP)).toMatchObject({ state: 'delivered' });
    }
    expect(jobs.submit).toHaveBeenCalledWith(change);
    expect(startedJobs()).toBe(4);
  });

  it('without an account, it is not a change request the worker answers', () => {
    expect(onMessage({ type: 'submit-change', change }, POPUP)).toBeUndefined();
    expect(startedJobs()).toBe(0);
  });
});
