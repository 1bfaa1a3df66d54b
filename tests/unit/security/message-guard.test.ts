/**
 * The worker's message guard (lib/messaging/handlers.ts `createMessageListener`): only this
 * extension's own pages are answered, and only with messages the zod protocol accepts. Anything
 * else, whoever sends it and whatever it holds, gets no answer and starts no job.
 * (tests/unit/worker/worker.test.ts checks a few cases end to end against the emulator.)
 */
import fc from 'fast-check';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { createMessageListener, createRequestHandlers } from '@/lib/messaging/handlers';
import { fakeWorkerJobs } from '../../fakes/fake-worker-jobs';

/** The stable id of the account the page shows, and the active one. */
const ACCOUNT = 'home-account-0001';

const jobs = fakeWorkerJobs();

const onMessage = createMessageListener(createRequestHandlers(jobs), fakeBrowser.runtime);

const OWN_ID = fakeBrowser.runtime.id;
const OWN_BASE = fakeBrowser.runtime.getURL('/');
const OWN_POPUP = { id: OWN_ID, url: `${OWN_BASE}popup.html` };
const VALID_CHANGE = {
  type: 'submit-change',
  change: { op: 'add', list: 'whitelist', domain: 'example.com', profile: 'default', source: 'popup' },
  accountId: ACCOUNT,
};

beforeEach(() => {
  vi.clearAllMocks();
});

const startedJobs = () =>
  jobs.submit.mock.calls.length +
  jobs.register.mock.calls.length +
  jobs.deliverOutbox.mock.calls.length +
  jobs.temporaryAllow.mock.calls.length;

describe('who may talk to the worker', () => {
  it('answers its own popup and options page', async () => {
    expect(await onMessage(VALID_CHANGE, OWN_POPUP)).toEqual({ state: 'delivered', message: 'ok' });
    expect(onMessage({ type: 'retry-outbox' }, { id: OWN_ID, url: `${OWN_BASE}options.html` })).toBeDefined();
    expect(jobs.submit).toHaveBeenCalledWith(VALID_CHANGE.change);
  });

  it.each([
    ['another extension', { id: 'other-extension-id', url: 'chrome-extension://other-extension-id/x.html' }],
    ['another extension naming our page', { id: 'other-extension-id', url: `${OWN_BASE}popup.html` }],
    ['a web page through a content script', { id: OWN_ID, url: 'https://evil.example/', tab: { id: 3 } }],
    [
      'a page whose address only starts like ours',
      { id: OWN_ID, url: `chrome-extension://${OWN_ID}.evil.example/popup.html`, tab: { id: 3 } },
    ],
    [
      'an extension id that only starts like ours',
      { id: `${OWN_ID}x`, url: `chrome-extension://${OWN_ID}x/` },
    ],
    ['a sender without an id', { url: `${OWN_BASE}popup.html` }],
    ['a tab without an address', { id: OWN_ID, tab: { id: 3 } }],
    ['a file page', { id: OWN_ID, url: 'file:///home/user/evil.html', tab: { id: 9 } }],
  ])('ignores %s', (_who, sender) => {
    expect(onMessage(VALID_CHANGE, sender)).toBeUndefined();
    expect(onMessage({ type: 'register-now' }, sender)).toBeUndefined();
    expect(startedJobs()).toBe(0);
  });

  it('ignores any sender that is not its own page, whatever the message (property)', () => {
    const foreignSender = fc.oneof(
      fc.record(
        {
          id: fc.oneof(fc.string(), fc.constant(`${OWN_ID}-other`)),
          url: fc.oneof(fc.webUrl(), fc.constant(`${OWN_BASE}popup.html`)),
          tab: fc.record({ id: fc.nat() }),
        },
        { requiredKeys: [] },
      ),
      fc.record({ id: fc.constant(OWN_ID), url: fc.webUrl(), tab: fc.record({ id: fc.nat() }) }),
    );
    const message = fc.oneof(
      fc.constant(VALID_CHANGE),
      fc.constant({ type: 'register-now' }),
      fc.constant({ type: 'retry-outbox' }),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(foreignSender, message, (sender, sent) => {
        fc.pre(sender.id !== OWN_ID || (sender.url !== undefined && !sender.url.startsWith(OWN_BASE)));
        expect(onMessage(sent, sender)).toBeUndefined();
      }),
      { numRuns: 500 },
    );
    expect(startedJobs()).toBe(0);
  });
});

describe('what the worker accepts from its own pages', () => {
  it.each([
    ['not an object', 'submit-change'],
    ['null', null],
    ['an unknown type', { type: 'delete-account' }],
    ['a change without its fields', { type: 'submit-change' }],
    ['an unknown list', { ...VALID_CHANGE, change: { ...VALID_CHANGE.change, list: 'greylist' } }],
    ['an unknown operation', { ...VALID_CHANGE, change: { ...VALID_CHANGE.change, op: 'clear' } }],
    ['an unknown source', { ...VALID_CHANGE, change: { ...VALID_CHANGE.change, source: 'web-page' } }],
    ['an empty domain', { ...VALID_CHANGE, change: { ...VALID_CHANGE.change, domain: '' } }],
    [
      'a 10,000-character domain',
      { ...VALID_CHANGE, change: { ...VALID_CHANGE.change, domain: 'a'.repeat(10_000) } },
    ],
    ['a domain that is not text', { ...VALID_CHANGE, change: { ...VALID_CHANGE.change, domain: ['a.com'] } }],
    [
      'a profile that is not text',
      { ...VALID_CHANGE, change: { ...VALID_CHANGE.change, profile: { x: 1 } } },
    ],
    ['the type in another case', { ...VALID_CHANGE, type: 'SUBMIT-CHANGE' }],
  ])('ignores %s', (_what, message) => {
    expect(onMessage(message, OWN_POPUP)).toBeUndefined();
    expect(startedJobs()).toBe(0);
  });

  it('a prototype-polluting message changes nothing and is read like any other', async () => {
    const polluted = JSON.parse(
      '{"type":"submit-change","__proto__":{"isAdmin":true},"accountId":"home-account-0001","change":{"op":"add","list":"whitelist","domain":"example.com","source":"popup","constructor":{"prototype":{"polluted":true}}}}',
    );
    await onMessage(polluted, OWN_POPUP);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // Only the protocol's fields reach the job.
    expect(jobs.submit).toHaveBeenCalledWith({
      op: 'add',
      list: 'whitelist',
      domain: 'example.com',
      source: 'popup',
    });
  });

  it('never throws, whatever its own page sends (property)', () => {
    const nearMessage = fc.record(
      {
        type: fc.constantFrom('submit-change', 'register-now', 'retry-outbox', 'temporary-allow', 'x'),
        change: fc.oneof(
          fc.jsonValue(),
          fc.record(
            {
              op: fc.constantFrom('add', 'remove', 'x'),
              list: fc.constantFrom('whitelist', 'blocklist', 'x'),
              domain: fc.oneof(fc.string({ maxLength: 300 }), fc.jsonValue()),
              profile: fc.oneof(fc.string(), fc.jsonValue()),
              source: fc.constantFrom('popup', 'menu', 'shortcut', 'logs', 'x'),
            },
            { requiredKeys: [] },
          ),
        ),
        domain: fc.string(),
        durationMs: fc.oneof(fc.integer(), fc.double()),
        accountId: fc.oneof(fc.constant(ACCOUNT), fc.constant('work-account-0002'), fc.string()),
      },
      { requiredKeys: ['type'] },
    );
    fc.assert(
      fc.property(fc.oneof(nearMessage, fc.jsonValue()), (message) => {
        expect(() => onMessage(message, OWN_POPUP)).not.toThrow();
      }),
      { numRuns: 1000 },
    );
  });
});
