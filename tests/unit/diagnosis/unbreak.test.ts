/**
 * "Unbreak this page" in the worker (lib/diagnosis/unbreak.ts), with the real temporary allows and
 * outbox against the shared fake service: the allows, what counts as needed, and the review after
 * the allows ended, also when the worker was stopped in between.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { TEMPORARY_ALLOW_ALARM, type TemporaryAllowDeps } from '@/lib/diagnosis/temporary-allow';
import {
  afterLoad,
  noteLoad,
  pruneSessions,
  REVIEW_KEPT_MS,
  type UnbreakDeps,
} from '@/lib/diagnosis/unbreak';
import { reviewForSite, reviewOf, reviewText } from '@/lib/diagnosis/unbreak-review';
import { registrableDomain } from '@/lib/filtering/domain';
import type { CurrentAccount } from '@/lib/identity/current';
import type { OutboxDeps } from '@/lib/outbox';
import { MAX_UNBREAK_SESSIONS, type UnbreakSession, unbreakSessionsItem } from '@/lib/settings/storage';
import type { FakeClient } from '../../fakes/fake-client';
import { testAccount } from '../account-ids';
import { catalogueLookup } from '../i18n/catalogue';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T0 = Date.UTC(2026, 4, 1, 12, 0, 0);
const IDENTITY = testAccount('A', '0123456789abcdef', 'http://127.0.0.1:8787');
const OTHER = testAccount('A', 'fedcba9876543210', 'http://127.0.0.1:8787');

const session = (patch: Partial<UnbreakSession> = {}): UnbreakSession => ({
  id: `${T0} news.example`,
  account: IDENTITY.id,
  profile: 'default',
  site: 'news.example',
  pageHost: 'www.news.example',
  startedAt: T0,
  expiresAt: T0 + HOUR,
  domains: [
    { domain: 'a.example', before: 'none', allowedAt: T0, loads: 0 },
    { domain: 'b.example', before: 'none', allowedAt: T0, loads: 0 },
    { domain: 'c.example', before: 'none', allowedAt: T0, loads: 0 },
  ],
  ...patch,
});

/** A request of a page on news.example that the browser finished. */
const load = (url: string, patch: Record<string, unknown> = {}) => ({
  url,
  statusCode: 200,
  type: 'script',
  initiator: 'https://www.news.example',
  timeStamp: T0 + 40 * MINUTE,
  ...patch,
});

describe('what counts as needed', () => {
  const at = T0 + 40 * MINUTE;
  const loaded = (sessions: UnbreakSession[]) =>
    sessions[0]?.domains.filter((entry) => entry.loadedAt !== undefined).map((entry) => entry.domain);

  it('a request to a host the entry covers, after its allow started, from a page of the site', () => {
    const after = afterLoad([session()], { host: 'img.a.example', site: 'news.example', at });
    expect(loaded(after)).toEqual(['a.example']);
    expect(after[0]?.domains[0]).toMatchObject({ loadedAt: at, loads: 1 });
    // A second load keeps the first time and counts.
    const again = afterLoad(after, { host: 'a.example', site: 'news.example', at: at + 1 });
    expect(again[0]?.domains[0]).toMatchObject({ loadedAt: at, loads: 2 });
  });

  it.each([
    ['before the allow started', { host: 'a.example', site: 'news.example', at: T0 - 1 }],
    ['after the allows ended', { host: 'a.example', site: 'news.example', at: T0 + HOUR }],
    ['made by a page of another site', { host: 'a.example', site: 'other.example', at }],
    ['to a host the entry does not cover', { host: 'xa.example', site: 'news.example', at }],
  ])('nothing counts %s', (_case, request) => {
    const sessions = [session()];
    expect(afterLoad(sessions, request)).toBe(sessions);
  });

  describe('from the browser\u2019s events', () => {
    beforeEach(async () => {
      fakeBrowser.reset();
      await unbreakSessionsItem.setValue([session()]);
    });
    const deps = { registrable: registrableDomain, now: () => T0 + 40 * MINUTE };
    const neededNow = async () =>
      reviewOf((await unbreakSessionsItem.getValue())[0]!, T0 + HOUR).needed.map((entry) => entry.domain);

    it('a succeeded sub-resource of the site counts; Firefox names the page by documentUrl', async () => {
      await noteLoad(deps, load('https://cdn.a.example/app.js'));
      await noteLoad(
        deps,
        load('https://b.example/x.png', { initiator: undefined, documentUrl: 'https://news.example/story' }),
      );
      expect(await neededNow()).toEqual(['a.example', 'b.example']);
    });

    it.each([
      ['failed with an HTTP error', { statusCode: 503 }],
      ['had no HTTP answer', { statusCode: undefined }],
      ['was the page itself (a navigation to the domain)', { type: 'main_frame' }],
      ['came from another site', { initiator: 'https://elsewhere.example' }],
      ['names no page at all', { initiator: undefined }],
      ['finished before the allow', { timeStamp: T0 - 1 }],
    ])('a request that %s does not count', async (_case, patch) => {
      await noteLoad(deps, load('https://a.example/app.js', patch));
      expect(await neededNow()).toEqual([]);
    });

    it('does not even read the page when no unbreak covers the host', async () => {
      const registrable = vi.fn(registrableDomain);
      await noteLoad({ ...deps, registrable }, load('https://unrelated.example/app.js'));
      expect(registrable).not.toHaveBeenCalled();
    });
  });
});

describe('the review', () => {
  it('says what the page used and what it never needed', () => {
    const review = reviewOf(
      session({
        domains: [
          { domain: 'a.example', before: 'none', allowedAt: T0, loadedAt: T0 + 1, loads: 3 },
          { domain: 'b.example', before: 'none', allowedAt: T0, loadedAt: T0 + 2, loads: 1 },
          { domain: 'c.example', before: 'none', allowedAt: T0, loads: 0 },
        ],
      }),
      T0 + HOUR,
    );
    expect(review.phase).toBe('ended');
    expect(reviewText(review)).toBe('This page used a.example and b.example; c.example was never needed.');
    expect(reviewText({ ...review, phase: 'running' })).toMatch(
      /^So far this page used a\.example and b\.example; c\.example has not been needed yet\. The allows end at /,
    );
    expect(reviewText({ ...review, needed: [] })).toBe('This page never needed c.example.');
  });

  it('is the newest unbreak of this account on the site, whichever page of it', () => {
    const older = session({ id: 'old', startedAt: T0 - HOUR });
    const newer = session({ id: 'new' });
    const otherAccount = session({ id: 'other', account: OTHER.id, startedAt: T0 + 1 });
    const sessions = [older, newer, otherAccount];
    expect(reviewForSite(sessions, { account: IDENTITY.id, site: 'NEWS.example' }, T0)?.session.id).toBe(
      'new',
    );
    expect(reviewForSite(sessions, { account: IDENTITY.id, site: 'other.example' }, T0)).toBeNull();
  });

  it('keeps a bounded number, and drops reviews nobody opened for a week', () => {
    const many = Array.from({ length: MAX_UNBREAK_SESSIONS + 3 }, (_, i) =>
      session({ id: `s${i}`, startedAt: T0 + i, expiresAt: T0 + HOUR + i }),
    );
    const kept = pruneSessions(many, T0 + HOUR);
    expect(kept.map((entry) => entry.id)).toEqual(many.slice(3).map((entry) => entry.id));
    expect(pruneSessions([session()], T0 + HOUR + REVIEW_KEPT_MS)).toEqual([]);
  });
});

describe('unbreak, end to end in the worker', () => {
  let service: FakeClient | undefined;
  let clock: number;
  let current: CurrentAccount;
  let notified: { title: string; message: string }[];
  let worker: Awaited<ReturnType<typeof startWorker>>;

  /**
   * A worker as it starts: its modules loaded afresh, its deps built anew. Nothing but storage
   * (and the fake service) carries over from a worker that ran before.
   */
  async function startWorker() {
    vi.resetModules();
    (await import('@/lib/i18n')).useMessageLookup(catalogueLookup('en'));
    const unbreak = await import('@/lib/diagnosis/unbreak');
    const review = await import('@/lib/diagnosis/unbreak-review');
    const temporary = await import('@/lib/diagnosis/temporary-allow');
    const outbox = await import('@/lib/outbox');
    const storage = await import('@/lib/settings/storage');
    // The same service (its lists carry over), its errors from the modules this worker loaded.
    const fakes = await import('../../fakes/fake-client');
    service = fakes.createFakeClient('A', service?.state);
    current = { ...current, client: service };
    const outboxDeps: OutboxDeps = {
      getAccount: async () => current,
      alarms: fakeBrowser.alarms,
      now: () => clock,
    };
    const temporaryDeps: TemporaryAllowDeps = {
      getAccount: async () => current,
      submit: (change) => outbox.submitChange(change, outboxDeps),
      enqueue: (change, account) => outbox.enqueueChange(change, account, () => clock),
      deliver: () => outbox.deliverPending(outboxDeps, { force: true }),
      alarms: fakeBrowser.alarms,
      notify: async () => undefined,
      now: () => clock,
    };
    const deps: UnbreakDeps = {
      getAccount: async () => current,
      allowForAWhile: (request) => temporary.startTemporaryAllow(temporaryDeps, request),
      submit: (change) => outbox.submitChange(change, outboxDeps),
      registrable: registrableDomain,
      notify: async (title, message) => {
        notified.push({ title, message });
      },
      now: () => clock,
    };
    return { unbreak, review, temporary, storage, fakes, deps, temporaryDeps };
  }

  beforeEach(async () => {
    fakeBrowser.reset();
    service = undefined;
    clock = T0;
    current = { identity: IDENTITY, client: null };
    notified = [];
    worker = await startWorker();
    await worker.storage.connectionItem.setValue({ baseUrl: 'http://127.0.0.1:8787', form: 'A' });
  });

  const lists = () => service!.state.lists;
  const whitelisted = () => [...(lists().whitelist.default ?? [])].sort();
  const blocklisted = () => [...(lists().blocklist.default ?? [])].sort();
  const sessions = () => worker.storage.unbreakSessionsItem.getValue();
  const unbreakNewsPage = () =>
    worker.unbreak.startUnbreak(worker.deps, {
      pageHost: 'www.news.example',
      profile: 'default',
      durationMs: HOUR,
      domains: [
        { domain: 'cdn.example', before: 'none' },
        { domain: 'login.example', before: 'none' },
        { domain: 'tracker.example', before: 'blocklist' },
      ],
    });
  const noteNewsLoad = (url: string, patch: Record<string, unknown> = {}) =>
    worker.unbreak.noteLoad(worker.deps, load(url, { timeStamp: clock, ...patch }));

  it('allows every chosen domain for a while in one click, and says the resolvers take time', async () => {
    lists().blocklist.default = new Set(['tracker.example']);
    const answer = await unbreakNewsPage();
    expect(answer).toMatchObject({ state: 'delivered', expiresAt: T0 + HOUR });
    expect(answer.allowed).toEqual(['cdn.example', 'login.example', 'tracker.example']);
    expect(answer.message).toMatch(
      /^Allowed in profile default until .*: cdn\.example, login\.example, and tracker\.example\./,
    );
    expect(answer.message).toMatch(/30 to 45 minutes/);
    expect(whitelisted()).toEqual(['cdn.example', 'login.example', 'tracker.example']);
    expect(blocklisted()).toEqual([]);
    expect((await fakeBrowser.alarms.get(TEMPORARY_ALLOW_ALARM))?.scheduledTime).toBe(T0 + HOUR);
    expect(
      (await worker.storage.temporaryAllowsItem.getValue()).map((entry) => [entry.domain, entry.before]),
    ).toEqual([
      ['cdn.example', 'none'],
      ['login.example', 'none'],
      ['tracker.example', 'blocklist'],
    ]);
  });

  it('leaves out of the review what the service refused or what was whitelisted for good already', async () => {
    lists().whitelist.default = new Set(['login.example']);
    service?.failNext('addDomain', worker.fakes.refused('Domain not allowed'));
    const answer = await unbreakNewsPage();
    const [stored] = await sessions();
    // One of cdn.example and tracker.example was refused (they are sent at the same time).
    expect(answer.allowed).toHaveLength(1);
    expect(answer.message).toMatch(/Domain not allowed/);
    expect(stored?.domains.map((entry) => entry.domain)).toEqual(answer.allowed);
    expect(answer.message).toMatch(/Already on the whitelist for good: login\.example\./);
  });

  it('after the allows end, also across a worker restart, reviews and keeps only what loaded', async () => {
    lists().blocklist.default = new Set(['tracker.example']);
    await unbreakNewsPage();
    // The resolvers caught up after 35 minutes: the page loads from cdn.example, later visits too.
    clock = T0 + 35 * MINUTE;
    await noteNewsLoad('https://static.cdn.example/app.js');
    await noteNewsLoad('https://cdn.example/b.css', {
      timeStamp: clock + 1,
      initiator: 'https://news.example',
    });

    // The worker stops; a new one wakes for the alarm at the end.
    clock = T0 + HOUR;
    worker = await startWorker();
    await worker.temporary.expireTemporaryAllows(worker.temporaryDeps);
    expect(whitelisted()).toEqual([]);
    expect(blocklisted()).toEqual(['tracker.example']);

    await worker.unbreak.announceEndedUnbreaks(worker.deps);
    expect(notified).toEqual([
      {
        title: 'Unbreak of news.example ended',
        message:
          'This page used cdn.example; login.example and tracker.example were never needed. Open the popup on news.example to keep what it needed.',
      },
    ]);
    // Once only, even from yet another worker.
    worker = await startWorker();
    await worker.unbreak.announceEndedUnbreaks(worker.deps);
    expect(notified).toHaveLength(1);

    const review = worker.review.reviewForSite(
      await sessions(),
      { account: IDENTITY.id, site: 'news.example' },
      clock,
    );
    expect(review?.phase).toBe('ended');
    expect(review?.needed.map((entry) => [entry.domain, entry.loads])).toEqual([['cdn.example', 2]]);

    // Nothing kept without the click.
    expect(whitelisted()).toEqual([]);
    const kept = await worker.unbreak.reviewUnbreak(worker.deps, { id: review!.session.id, keep: true });
    expect(kept).toEqual({
      state: 'delivered',
      message: 'Kept on the whitelist for good: cdn.example. login.example and tracker.example lapse.',
    });
    expect(whitelisted()).toEqual(['cdn.example']);
    expect(blocklisted()).toEqual(['tracker.example']);
    expect(await sessions()).toEqual([]);
    // Kept from this page, through the outbox: the entry's record says so (lib/notes).
    const [settled] = await worker.storage.settledChangesItem.getValue();
    expect(settled?.change).toMatchObject({
      domain: 'cdn.example',
      source: 'unbreak',
      page: 'www.news.example',
    });
  });

  it('letting it lapse keeps nothing, and a review of another account is never carried out here', async () => {
    await unbreakNewsPage();
    const [stored] = await sessions();
    current = { ...current, identity: OTHER };
    expect((await worker.unbreak.reviewUnbreak(worker.deps, { id: stored!.id, keep: true })).state).toBe(
      'failed',
    );
    expect(await worker.unbreak.announceEndedUnbreaks({ ...worker.deps, now: () => T0 + HOUR })).toEqual([]);
    current = { ...current, identity: IDENTITY };
    expect(await worker.unbreak.reviewUnbreak(worker.deps, { id: stored!.id, keep: false })).toEqual({
      state: 'delivered',
      message: expect.stringMatching(/^Nothing kept: the allows end at /),
    });
    expect(await sessions()).toEqual([]);
    // The allows still end on time.
    clock = T0 + HOUR;
    await worker.temporary.expireTemporaryAllows(worker.temporaryDeps);
    expect(whitelisted()).toEqual([]);
  });

  it('a second unbreak of the site joins the first: what loaded stays needed, the end moves', async () => {
    await unbreakNewsPage();
    clock = T0 + 10 * MINUTE;
    await noteNewsLoad('https://cdn.example/a.js');
    const answer = await worker.unbreak.startUnbreak(worker.deps, {
      pageHost: 'news.example',
      profile: 'default',
      durationMs: HOUR,
      domains: [{ domain: 'video.example', before: 'none' }],
    });
    expect(answer.expiresAt).toBe(clock + HOUR);
    const stored = await sessions();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.expiresAt).toBe(clock + HOUR);
    expect(stored[0]?.domains.map((entry) => [entry.domain, entry.loadedAt !== undefined])).toEqual([
      ['cdn.example', true],
      ['login.example', false],
      ['tracker.example', false],
      ['video.example', false],
    ]);
  });
});
