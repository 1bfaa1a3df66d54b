import { describe, expect, it } from 'vitest';
import type { ApiError } from '@/lib/api/errors';
import {
  decideRegistration,
  type LookupResult,
  parseLookupAnswer,
  type RegistrationFacts,
  registrationIsFailing,
  registrationRetryMinutes,
  runRegistration,
} from '@/lib/network';
import type { RegisteredAddress } from '@/lib/settings/storage';
import { createFakeClient, offline, refused } from '../../fakes/fake-client';

const ACCOUNT = 'A http://127.0.0.1:1';
const target = { label: 'Home', profile: 'default', account: ACCOUNT };
const found = (ip: string): LookupResult => ({ ok: true, ip, url: 'https://lookup.example/' });
const registered = (ip: string, extra: Partial<RegisteredAddress> = {}): RegisteredAddress => ({
  ip,
  profile: 'default',
  account: ACCOUNT,
  at: 1,
  ...extra,
});
const lookupAnswer = (body: string): LookupResult => {
  const answer = parseLookupAnswer(body);
  return answer.ok
    ? { ok: true, ip: answer.ip, url: 'u' }
    : {
        ok: false,
        reason: answer.reason,
        message: `The public IPv4 address could not be found (u: ${answer.problem}).`,
        problems: [],
      };
};

describe('decideRegistration: what happens next', () => {
  const base = (overrides: Partial<RegistrationFacts>): RegistrationFacts => ({
    lookup: found('198.51.100.2'),
    target,
    registered: { current: registered('198.51.100.1'), stale: [] },
    removePrevious: true,
    now: 10,
    ...overrides,
  });
  const cases: { name: string; facts: RegistrationFacts; expected: Record<string, unknown> }[] = [
    {
      name: 'same IP: it is added again (the service keeps it), nothing is deleted',
      facts: base({ lookup: found('198.51.100.1'), add: { ok: true } }),
      expected: { next: 'done', verdict: { ok: true, ip: '198.51.100.1' } },
    },
    {
      name: 'new IP: the new address is added first',
      facts: base({}),
      expected: { next: 'add', entry: { ip: '198.51.100.2', label: 'Home', profile: 'default' } },
    },
    {
      name: 'new IP, added: the previous address is deleted next',
      facts: base({ add: { ok: true } }),
      expected: { next: 'delete', address: registered('198.51.100.1') },
    },
    {
      name: 'new IP, added, remove-previous off: nothing is deleted',
      facts: base({ add: { ok: true }, removePrevious: false }),
      expected: { next: 'done', verdict: { ok: true }, registered: { stale: [] } },
    },
    {
      name: 'lookup failure: nothing is added or deleted',
      facts: base({
        lookup: { ok: false, reason: 'unreachable', message: 'No answer.', problems: [] },
      }),
      expected: { next: 'done', verdict: { ok: false, reason: 'lookup' } },
    },
    {
      name: 'add failure: the previous address is kept',
      facts: base({ add: { ok: false, error: refused('Invalid profile') } }),
      expected: {
        next: 'done',
        verdict: { ok: false, reason: 'service', ip: '198.51.100.2' },
        registered: { current: registered('198.51.100.1') },
      },
    },
    {
      name: 'IPv6 answer: rejected before any call',
      facts: base({ lookup: lookupAnswer('2001:db8::1') }),
      expected: { next: 'done', verdict: { ok: false, reason: 'lookup' } },
    },
    {
      name: 'malformed answer: rejected before any call',
      facts: base({ lookup: lookupAnswer('<html>rate limited</html>') }),
      expected: { next: 'done', verdict: { ok: false, reason: 'lookup' } },
    },
    {
      name: 'delete failure (unreachable): registered, the old address is tried again next time',
      facts: base({
        add: { ok: true },
        deletions: { [`${ACCOUNT}|default|198.51.100.1`]: { ok: false, error: offline() } },
      }),
      expected: {
        next: 'done',
        verdict: { ok: true, ip: '198.51.100.2' },
        registered: { current: { ip: '198.51.100.2' }, stale: [registered('198.51.100.1')] },
      },
    },
    {
      name: 'delete refused (already gone): registered, not tried again',
      facts: base({
        add: { ok: true },
        deletions: {
          [`${ACCOUNT}|default|198.51.100.1`]: { ok: false, error: refused('Network not found') },
        },
      }),
      expected: { next: 'done', verdict: { ok: true }, registered: { stale: [] } },
    },
    {
      name: 'an address of another account is never deleted',
      facts: base({
        add: { ok: true },
        registered: {
          current: registered('198.51.100.1', { account: 'A https://other.example' }),
          stale: [],
        },
      }),
      expected: { next: 'done', verdict: { ok: true } },
    },
    {
      name: 'Form B, same IP registered before: never deleted (it is the new registration)',
      facts: base({
        lookup: found('198.51.100.1'),
        target: { label: 'Home', profile: undefined, account: 'B x' },
        registered: {
          current: registered('198.51.100.1', { profile: undefined, account: 'B x' }),
          stale: [],
        },
        add: { ok: true },
      }),
      expected: { next: 'done', verdict: { ok: true } },
    },
    {
      name: 'Form A, profile changed, same IP: the entry under the old profile goes',
      facts: base({
        lookup: found('198.51.100.1'),
        registered: { current: registered('198.51.100.1', { profile: 'kids' }), stale: [] },
        add: { ok: true },
      }),
      expected: { next: 'delete', address: registered('198.51.100.1', { profile: 'kids' }) },
    },
  ];
  it.each(cases)('$name', ({ facts, expected }) => {
    expect(decideRegistration(facts)).toMatchObject(expected);
  });

  it('says "Registered" and names the IPv4 and label on success', () => {
    const decision = decideRegistration(base({ add: { ok: true }, removePrevious: false }));
    expect(decision.next === 'done' && decision.verdict.message).toBe(
      'Registered 198.51.100.2 as “Home” (profile default).',
    );
  });
});

describe('runRegistration against a service', () => {
  const cases: {
    name: string;
    answer: string;
    before: string[];
    failAdd?: ApiError;
    failDelete?: ApiError;
    after: string[];
    ok: boolean;
    message: RegExp;
  }[] = [
    {
      name: 'same IP',
      answer: '198.51.100.1\n',
      before: ['198.51.100.1'],
      after: ['198.51.100.1'],
      ok: true,
      message: /^Registered 198\.51\.100\.1 as “Home”/,
    },
    {
      name: 'new IP (JSON answer)',
      answer: '{"ip":"198.51.100.2"}',
      before: ['198.51.100.1'],
      after: ['198.51.100.2'],
      ok: true,
      message: /^Registered 198\.51\.100\.2 .*removed the previous address 198\.51\.100\.1/,
    },
    {
      name: 'add failure',
      answer: '198.51.100.2',
      before: ['198.51.100.1'],
      failAdd: refused('Profile does not exist'),
      after: ['198.51.100.1'],
      ok: false,
      message: /^Not registered: .*Profile does not exist/,
    },
    {
      name: 'delete failure',
      answer: '198.51.100.2',
      before: ['198.51.100.1'],
      failDelete: offline(),
      after: ['198.51.100.1', '198.51.100.2'],
      ok: true,
      message: /previous address 198\.51\.100\.1 could not be removed yet .*tried again/,
    },
    {
      name: 'IPv6 answer',
      answer: '2001:db8::7',
      before: ['198.51.100.1'],
      after: ['198.51.100.1'],
      ok: false,
      message: /IPv6/,
    },
    {
      name: 'malformed answer',
      answer: '{"address": 5}',
      before: ['198.51.100.1'],
      after: ['198.51.100.1'],
      ok: false,
      message: /^Not registered: The public IPv4 address could not be found/,
    },
  ];
  it.each(cases)('$name', async ({ answer, before, failAdd, failDelete, after, ok, message }) => {
    const service = createFakeClient('A');
    for (const ip of before) service.state.networks.push({ ip, profile: 'default' });
    if (failAdd) service.failNext('addNetwork', failAdd);
    if (failDelete) service.failNext('deleteNetwork', failDelete);
    const result = await runRegistration({
      lookup: async () => lookupAnswer(answer),
      client: service,
      target,
      registered: { current: registered(before[0]!), stale: [] },
      removePrevious: true,
      now: 5,
    });
    expect(result.verdict.ok).toBe(ok);
    expect(result.verdict.message).toMatch(message);
    expect(service.state.networks.map((n) => n.ip).sort()).toEqual(after);
  });

  it('retries a deletion that failed on the next run, then forgets it', async () => {
    const service = createFakeClient('A');
    service.state.networks.push({ ip: '198.51.100.1', profile: 'default' });
    service.failNext('deleteNetwork', offline());
    const input = {
      lookup: async () => found('198.51.100.2'),
      client: service,
      target,
      removePrevious: true,
      now: 5,
    };
    const first = await runRegistration({
      ...input,
      registered: { current: registered('198.51.100.1'), stale: [] },
    });
    expect(first.registered.stale.map((a) => a.ip)).toEqual(['198.51.100.1']);
    const second = await runRegistration({ ...input, registered: first.registered });
    expect(service.state.networks.map((n) => n.ip)).toEqual(['198.51.100.2']);
    expect(second.registered.stale).toEqual([]);
  });
});

describe('retry timing and the warning', () => {
  it.each([
    [1, 15, 1],
    [2, 15, 2],
    [4, 15, 8],
    [5, 15, null],
    [3, 5, 4],
    [9, 1440, 256],
    [0, 15, null],
  ])('after %i failures with a %i minute interval, retry in %s minutes', (failures, interval, expected) => {
    expect(registrationRetryMinutes(failures, interval)).toBe(expected);
  });

  it.each([
    [null, false],
    [{ ok: true, consecutiveFailures: 0 }, false],
    [{ ok: false, reason: 'network', consecutiveFailures: 1 }, false],
    [{ ok: false, reason: 'network', consecutiveFailures: 2 }, true],
    [{ ok: false, reason: 'lookup', consecutiveFailures: 3 }, true],
    [{ ok: false, reason: 'service', consecutiveFailures: 1 }, true],
    [{ ok: false, reason: 'no-key', consecutiveFailures: 1 }, true],
  ])('outcome %j is failing: %s', (outcome, expected) => {
    expect(registrationIsFailing(outcome)).toBe(expected);
  });
});

describe('runRegistration when its lease is lost', () => {
  it('before the add: nothing is sent, and the failure is transient', async () => {
    const service = createFakeClient('A');
    const result = await runRegistration({
      lookup: async () => found('198.51.100.2'),
      client: service,
      target,
      registered: { current: registered('198.51.100.1'), stale: [] },
      removePrevious: true,
      now: 5,
      beforeStep: async () => false,
    });
    expect(service.calls).toEqual([]);
    expect(result.verdict).toMatchObject({ ok: false, reason: 'aborted' });
    expect(result.verdict.message).toMatch(/another registration took over/);
    expect(result.registered.current?.ip).toBe('198.51.100.1');
  });

  it('after the add: the new address is remembered and the old one kept for the next run', async () => {
    const service = createFakeClient('A');
    service.state.networks.push({ ip: '198.51.100.1', profile: 'default' });
    let steps = 0;
    const result = await runRegistration({
      lookup: async () => found('198.51.100.2'),
      client: service,
      target,
      registered: { current: registered('198.51.100.1'), stale: [] },
      removePrevious: true,
      now: 5,
      beforeStep: async () => ++steps === 1,
    });
    expect(service.calls.filter((call) => call.startsWith('network/delete'))).toEqual([]);
    expect(result.verdict.ok).toBe(true);
    expect(result.verdict.message).toMatch(/198\.51\.100\.1 could not be removed yet .*another registration/);
    expect(result.registered.current?.ip).toBe('198.51.100.2');
    expect(result.registered.stale.map((address) => address.ip)).toEqual(['198.51.100.1']);
  });
});
