/**
 * Every surface's additions are recorded where they are queued (the outbox), with no code of
 * their own: the popup, the logs table, unbreak and temporary allows through `submitChange`, the
 * right-click menu and shortcuts through the worker (tests/unit/worker/worker.test.ts), the
 * options page's direct edits through `followDirectEdits`.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { ApiError } from '@/lib/api/errors';
import type { ChangeSource, ListChange } from '@/lib/messaging/protocol';
import { followDirectEdits, notes, recordOf } from '@/lib/notes';
import { deliverPending, enqueueChange, type OutboxDeps, submitChange } from '@/lib/outbox';
import { createFakeClient, type FakeClient, offline, refused } from '../../fakes/fake-client';
import { currentAccountOf, testAccount } from '../account-ids';

const ACCOUNT_A = testAccount('A').id;
const ACCOUNT_B = testAccount('B').id;

beforeEach(() => fakeBrowser.reset());

function depsFor(service: FakeClient, clock = 5_000_000): OutboxDeps {
  return { getAccount: currentAccountOf(service), alarms: fakeBrowser.alarms, now: () => clock };
}

const add = (source: ChangeSource, extra: Partial<ListChange> = {}): ListChange => ({
  op: 'add',
  list: 'whitelist',
  domain: 'school.example',
  profile: 'kids',
  source,
  ...extra,
});

describe('recording through the enqueue path', () => {
  it.each([
    ['popup', 'portal.school.example'],
    ['logs', undefined],
    ['unbreak', 'video.example'],
    ['temporary-allow', undefined],
  ] as const)('an addition from %s is recorded with its page', async (source, page) => {
    const service = createFakeClient('A', { profiles: ['default', 'kids'] });
    const outcome = await submitChange(add(source, page === undefined ? {} : { page }), depsFor(service));
    expect(outcome.state).toBe('delivered');

    const record = recordOf(await notes.read(ACCOUNT_A), {
      scope: 'A:kids',
      list: 'whitelist',
      domain: 'school.example',
    });
    expect(record).toEqual({
      scope: 'A:kids',
      list: 'whitelist',
      domain: 'school.example',
      addedAt: expect.any(Number),
      source,
      ...(page === undefined ? {} : { page }),
      at: expect.any(Number),
    });
  });

  it('in Form B the record is the whole account’s', async () => {
    const service = createFakeClient('B');
    await submitChange(add('popup', { profile: undefined }), depsFor(service));
    expect((await notes.read(ACCOUNT_B)).entries).toMatchObject([{ scope: 'B:account', source: 'popup' }]);
  });

  it('a change still waiting is recorded already (it shows as soon as it is queued)', async () => {
    await enqueueChange(add('popup', { domain: 'queued.example' }), ACCOUNT_A);
    expect((await notes.read(ACCOUNT_A)).entries.map((entry) => entry.domain)).toEqual(['queued.example']);
  });

  it('an addition the service refuses leaves no record', async () => {
    const service = createFakeClient('A', { profiles: ['default', 'kids'] });
    service.failNext('addDomain', refused('not allowed'));
    service.failNext('listDomains', refused('not allowed'));
    const outcome = await submitChange(add('popup'), depsFor(service));
    expect(outcome.state).toBe('failed');
    expect((await notes.read(ACCOUNT_A)).entries).toEqual([]);
  });

  it('a transient failure keeps the record while the change waits', async () => {
    const service = createFakeClient('A', { profiles: ['default', 'kids'] });
    service.failWith(offline());
    const outcome = await submitChange(add('popup'), depsFor(service));
    expect(outcome.state).toBe('pending');
    expect((await notes.read(ACCOUNT_A)).entries).toHaveLength(1);
  });
});

describe('removal with the entry', () => {
  it('a removal the service confirmed takes the record and its note, whoever removed it', async () => {
    const service = createFakeClient('A', { profiles: ['default', 'kids'] });
    const deps = depsFor(service);
    await submitChange(add('menu'), deps);
    const address = { scope: 'A:kids', list: 'whitelist', domain: 'school.example' } as const;
    await notes.setNote(ACCOUNT_A, address, 'school portal');

    await submitChange({ ...add('temporary-allow'), op: 'remove' }, deps);
    expect(recordOf(await notes.read(ACCOUNT_A), address)).toBeUndefined();
  });

  it('a removal not yet confirmed keeps the record', async () => {
    const service = createFakeClient('A', { profiles: ['default', 'kids'] });
    await submitChange(add('popup'), depsFor(service));
    service.failWith(new ApiError('server', 'busy'));
    await submitChange({ ...add('popup'), op: 'remove' }, depsFor(service));
    expect((await notes.read(ACCOUNT_A)).entries).toHaveLength(1);
  });

  it('a removal undone while it waited keeps the record and its note once both go out', async () => {
    const service = createFakeClient('A', { profiles: ['default', 'kids'] });
    await submitChange(add('menu'), depsFor(service));
    const address = { scope: 'A:kids', list: 'whitelist', domain: 'school.example' } as const;
    await notes.setNote(ACCOUNT_A, address, 'school portal');
    service.failWith(offline());
    await submitChange({ ...add('popup'), op: 'remove' }, depsFor(service));
    await submitChange(add('popup'), depsFor(service));

    service.failWith(null);
    await deliverPending(depsFor(service), { force: true });
    expect(await service.listDomains('whitelist', 'kids')).toContain('school.example');
    expect(recordOf(await notes.read(ACCOUNT_A), address)?.note).toBe('school portal');
  });

  it('moving an entry to the other list takes the first list’s record', async () => {
    const service = createFakeClient('A', { profiles: ['default', 'kids'] });
    await submitChange(add('popup'), depsFor(service));
    await submitChange(add('logs', { list: 'blocklist' }), depsFor(service));
    expect((await notes.read(ACCOUNT_A)).entries).toMatchObject([{ list: 'blocklist', source: 'logs' }]);
  });
});

describe('the options page’s direct edits', () => {
  it('record additions as from the options page and forget removals', async () => {
    await followDirectEdits(notes, ACCOUNT_A, 'A:default', [
      { op: 'add', list: 'blocklist', domain: 'a.example' },
      { op: 'add', list: 'blocklist', domain: 'b.example' },
    ]);
    await followDirectEdits(notes, ACCOUNT_A, 'A:default', [
      { op: 'remove', list: 'blocklist', domain: 'a.example' },
    ]);
    expect((await notes.read(ACCOUNT_A)).entries).toMatchObject([
      { scope: 'A:default', list: 'blocklist', domain: 'b.example', source: 'options' },
    ]);
  });
});
