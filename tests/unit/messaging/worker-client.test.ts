/**
 * The pages' client of the worker (lib/messaging/worker-client.ts) against the worker's own
 * handlers (lib/messaging/handlers.ts): each request reaches its handler, and each answer is
 * checked with the schema its request promises before a page sees it.
 */
import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { createMessageListener, createRequestHandlers, type WorkerJobs } from '@/lib/messaging/handlers';
import type { Request } from '@/lib/messaging/protocol';
import { createWorkerClient, WorkerUnanswered } from '@/lib/messaging/worker-client';
import { fakeWorkerJobs } from '../../fakes/fake-worker-jobs';

const OWN_PAGE = { id: fakeBrowser.runtime.id, url: fakeBrowser.runtime.getURL('/options.html') };
/** The stable id of the account the page shows, and the active one. */
const ACCOUNT = 'home-account-0001';

function workerWith(jobs: Partial<WorkerJobs> = {}) {
  // Answers each request can be told apart by, so a test sees that the right one came back.
  const all = fakeWorkerJobs({
    submit: async () => ({ state: 'pending', message: 'Queued' }),
    register: async () => ({ ok: true, ip: '203.0.113.7', message: 'Registered 203.0.113.7' }),
    deliverOutbox: async () => ({ remaining: ['a', 'b'] }),
    temporaryAllow: async () => ({ state: 'delivered', message: 'Allowed', expiresAt: 5 }),
    otherAccountChanges: async () => ({ count: 2 }),
    removeAccount: async () => ({ removed: true, discarded: 3 }),
    unbreak: async () => ({ state: 'delivered', message: 'Allowed', allowed: ['cdn.example'] }),
    reviewUnbreak: async () => ({ state: 'delivered', message: 'Kept' }),
    ...jobs,
  });
  const listen = createMessageListener(createRequestHandlers(all), fakeBrowser.runtime);
  const sent: Request[] = [];
  const client = createWorkerClient(async (message) => {
    sent.push(message);
    return listen(message, OWN_PAGE);
  });
  return { client, jobs: all, sent };
}

describe('the worker client', () => {
  it('each request reaches its handler and brings back its answer', async () => {
    const { client, jobs } = workerWith();
    const change = { op: 'add', list: 'whitelist', domain: 'example.com', source: 'logs' } as const;
    expect(await client.submitChange(change, { accountId: ACCOUNT })).toEqual({
      state: 'pending',
      message: 'Queued',
    });
    expect(jobs.submit).toHaveBeenCalledWith(change);
    expect(await client.registerNow()).toEqual({
      ok: true,
      ip: '203.0.113.7',
      message: 'Registered 203.0.113.7',
    });
    expect(await client.retryOutbox()).toEqual({ pending: 2 });
    expect(jobs.deliverOutbox).toHaveBeenCalledWith(true);
    const allow = { domain: 'example.com', durationMs: 3_600_000, before: 'none' } as const;
    expect(await client.temporaryAllow({ ...allow, accountId: ACCOUNT })).toEqual({
      state: 'delivered',
      message: 'Allowed',
      expiresAt: 5,
    });
    // The account was checked; the job gets what was asked for.
    expect(jobs.temporaryAllow).toHaveBeenCalledWith(allow);
    expect(
      await client.otherAccountChanges('keep', 'A https://x.example 0123456789abcdef', ['c1', 'c2']),
    ).toEqual({
      count: 2,
    });
    expect(jobs.otherAccountChanges).toHaveBeenCalledWith('keep', 'A https://x.example 0123456789abcdef', [
      'c1',
      'c2',
    ]);
    expect(await client.registrableDomains(['www.example.co.uk', 'a.b.example.com'])).toEqual({
      domains: ['example.co.uk', 'example.com'],
    });
    const unbreak = {
      pageHost: 'news.example',
      profile: 'default',
      durationMs: 3_600_000,
      domains: [{ domain: 'cdn.example', before: 'none' as const }],
    };
    expect(await client.unbreak({ ...unbreak, accountId: ACCOUNT })).toEqual({
      state: 'delivered',
      message: 'Allowed',
      allowed: ['cdn.example'],
    });
    expect(jobs.unbreak).toHaveBeenCalledWith(unbreak);
    expect(await client.reviewUnbreak('1 news.example', true, ACCOUNT)).toEqual({
      state: 'delivered',
      message: 'Kept',
    });
    expect(jobs.reviewUnbreak).toHaveBeenCalledWith({ id: '1 news.example', keep: true });
  });

  it('an unbreak of no domain, or of more than one unbreak takes, never reaches the worker', async () => {
    const { client, jobs } = workerWith();
    const many = Array.from({ length: 26 }, (_, i) => ({ domain: `d${i}.example`, before: 'none' as const }));
    for (const domains of [[], many]) {
      await expect(
        client.unbreak({ pageHost: 'news.example', durationMs: 3_600_000, domains, accountId: ACCOUNT }),
      ).rejects.toMatchObject({ reason: 'not-understood' });
    }
    expect(jobs.unbreak).not.toHaveBeenCalled();
  });

  it('a registration already running is answered as not done', async () => {
    const { client } = workerWith({ register: async () => null });
    expect(await client.registerNow()).toMatchObject({ ok: false });
  });

  it('an answer that does not fit its request is refused, not handed on', async () => {
    const client = createWorkerClient(async () => ({ state: 'done', message: 'ok' }));
    const change = { op: 'add', list: 'blocklist', domain: 'example.com', source: 'popup' } as const;
    await expect(client.submitChange(change, { accountId: ACCOUNT })).rejects.toEqual(
      new WorkerUnanswered('not-understood'),
    );
    // No answer at all (no listener answered) is not understood either.
    await expect(createWorkerClient(async () => undefined).retryOutbox()).rejects.toMatchObject({
      reason: 'not-understood',
    });
  });

  it('a worker that cannot be reached is told apart from one that answered nonsense', async () => {
    const client = createWorkerClient(async () => {
      throw new Error('Could not establish connection. Receiving end does not exist.');
    });
    await expect(client.registerNow()).rejects.toMatchObject({ reason: 'no-answer' });
  });
});
