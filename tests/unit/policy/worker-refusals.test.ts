/**
 * The worker enforces the administrator's policy (lib/messaging/handlers.ts with lib/policy): the
 * pages do not offer what the policy closes, and a request for it is refused all the same, with a
 * message that says who decided.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { createMessageListener, createRequestHandlers } from '@/lib/messaging/handlers';
import { readCurrentPolicy } from '@/lib/policy/current';
import { policyAccountsItem } from '@/lib/policy/stored';
import { fakeManagedStorage } from '../../fakes/fake-managed-storage';
import { fakeWorkerJobs } from '../../fakes/fake-worker-jobs';

const ACCOUNT = 'home-account-0001';
const MANAGED = 'office-account-01';
const BASE = fakeBrowser.runtime.getURL('/');
const POPUP = { id: fakeBrowser.runtime.id, url: `${BASE}popup.html` };
const OPTIONS = { id: fakeBrowser.runtime.id, url: `${BASE}options.html` };
const change = { op: 'add', list: 'whitelist', domain: 'example.com', source: 'popup' } as const;

beforeEach(() => fakeBrowser.reset());

function workerWith(policy: Record<string, unknown>) {
  const managed = fakeManagedStorage(policy);
  const jobs = fakeWorkerJobs({ policy: () => readCurrentPolicy(managed) });
  return { jobs, onMessage: createMessageListener(createRequestHandlers(jobs), fakeBrowser.runtime) };
}

describe('changes the policy closes', () => {
  it('refuses the popup’s Whitelist and temporary allow when the popup may not change', async () => {
    const { jobs, onMessage } = workerWith({ popupChanges: false });
    expect(await onMessage({ type: 'submit-change', change, accountId: ACCOUNT }, POPUP)).toEqual({
      state: 'failed',
      message: 'Your organization does not allow changes from the popup.',
    });
    expect(
      await onMessage(
        {
          type: 'temporary-allow',
          domain: 'example.com',
          durationMs: 60_000,
          before: 'none',
          accountId: ACCOUNT,
        },
        POPUP,
      ),
    ).toMatchObject({ state: 'failed' });
    expect(jobs.submit).not.toHaveBeenCalled();
    expect(jobs.temporaryAllow).not.toHaveBeenCalled();
    // The options page is another surface: its own sections decide there.
    expect(
      await onMessage(
        { type: 'submit-change', change: { ...change, source: 'logs' }, accountId: ACCOUNT },
        OPTIONS,
      ),
    ).toMatchObject({ state: 'delivered' });
  });

  it('refuses the popup’s change to several profiles, one refusal per profile, nothing queued', async () => {
    const { jobs, onMessage } = workerWith({ popupChanges: false });
    const answer = await onMessage(
      { type: 'submit-to-profiles', change, profiles: ['default', 'kids'], accountId: ACCOUNT },
      POPUP,
    );
    expect(answer).toEqual({
      outcomes: ['default', 'kids'].map((profile) => ({
        profile,
        state: 'failed',
        message: 'Your organization does not allow changes from the popup.',
      })),
    });
    expect(jobs.submitToProfiles).not.toHaveBeenCalled();
  });

  it('refuses a change to a list whose options section is closed, from any page', async () => {
    const { jobs, onMessage } = workerWith({ closedOptionsSections: ['blocklist'] });
    const blocklist = { ...change, list: 'blocklist', source: 'logs' } as const;
    expect(
      await onMessage({ type: 'submit-change', change: blocklist, accountId: ACCOUNT }, OPTIONS),
    ).toMatchObject({
      state: 'failed',
    });
    expect(await onMessage({ type: 'submit-change', change, accountId: ACCOUNT }, OPTIONS)).toMatchObject({
      state: 'delivered',
    });
    expect(jobs.submit).toHaveBeenCalledTimes(1);
  });

  it('lets everything through without a policy', async () => {
    const { onMessage } = workerWith({});
    expect(await onMessage({ type: 'submit-change', change, accountId: ACCOUNT }, POPUP)).toMatchObject({
      state: 'delivered',
    });
  });
});

describe('removing an account', () => {
  it('refuses to remove an account the policy set up, and removes the user’s own', async () => {
    await policyAccountsItem.setValue({ [MANAGED]: 'Office' });
    const { jobs, onMessage } = workerWith({
      accounts: [{ name: 'Office', baseUrl: 'https://my.cleanbrowsing.org', form: 'A', key: 'office-key' }],
    });
    expect(await onMessage({ type: 'remove-account', accountId: MANAGED }, OPTIONS)).toEqual({
      removed: false,
      discarded: 0,
    });
    expect(jobs.removeAccount).not.toHaveBeenCalled();
    expect(await onMessage({ type: 'remove-account', accountId: ACCOUNT }, OPTIONS)).toMatchObject({
      removed: true,
    });
  });
});
