// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { apiUrl, call, useEmulator } from './helpers.ts';

const ctx = useEmulator();
const A = (action: string, params: Record<string, string> = {}) => call(ctx.emulator, 'A', action, params);
const fetchA = (action: string, params: Record<string, string> = {}) =>
  fetch(apiUrl(ctx.emulator, 'A', { action, ...params }));
const admin = () => ctx.emulator.admin;

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await run();
  return [result, performance.now() - started];
}

describe('fault injection', () => {
  it('http-500 answers 500 with a non-JSON body, once, without running the action', async () => {
    admin().injectFault({ kind: 'http-500' });
    const response = await fetchA('profile/add', { profile_name: 'lab42' });
    expect(response.status).toBe(500);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.text()).toBe('Internal Server Error');
    expect(admin().state().profiles).not.toHaveProperty('lab42');
    expect((await A('profiles/list')).httpStatus).toBe(200);
  });

  it('redirect answers a 302 to another host, without running the action', async () => {
    admin().injectFault({ kind: 'redirect' });
    const response = await fetch(
      apiUrl(ctx.emulator, 'A', { action: 'profile/add', profile_name: 'lab43' }),
      {
        redirect: 'manual',
      },
    );
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('http://redirect-target.invalid/collect');
    expect(admin().state().profiles).not.toHaveProperty('lab43');
  });

  it('http-503-failure and rate-limit answer a failure body of the form, 429 with Retry-After', async () => {
    admin().injectFault({ kind: 'http-503-failure' });
    admin().injectFault({ kind: 'rate-limit', retryAfter: '30' });
    const busy = await fetchA('profiles/list');
    expect(busy.status).toBe(503);
    expect(await busy.json()).toEqual({ status: 'failed', reason: 'Service temporarily unavailable' });
    const limited = await fetch(apiUrl(ctx.emulator, 'B', { action: 'profiles/list' }));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('30');
    expect(limited.headers.get('access-control-expose-headers')).toContain('Retry-After');
    expect(await limited.json()).toEqual({ status: 'error', message: 'Too many requests' });
  });

  it('html answers an HTML page', async () => {
    admin().injectFault({ kind: 'html' });
    const response = await fetchA('profiles/list');
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toMatch(/^<!DOCTYPE html>/);
  });

  it('malformed-json answers JSON that does not parse', async () => {
    admin().injectFault({ kind: 'malformed-json' });
    const response = await fetchA('profiles/list');
    expect(response.headers.get('content-type')).toBe('application/json');
    const text = await response.text();
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
  });

  it('slow waits delayMs, then answers normally', async () => {
    admin().injectFault({ kind: 'slow', delayMs: 150 });
    const [answer, elapsed] = await timed(() => A('profiles/list'));
    expect(elapsed).toBeGreaterThanOrEqual(140);
    expect(answer.body.status).toBe('success');
  });

  it('drop closes the connection without an answer', async () => {
    admin().injectFault({ kind: 'drop' });
    await expect(fetchA('profiles/list')).rejects.toThrow(TypeError);
    expect((await A('profiles/list')).body.status).toBe('success');
  });

  it('odd-reason answers a failure body of the form with the given reason', async () => {
    const reason = `<b>Nope</b> ${'x'.repeat(2000)}`;
    admin().injectFault({ kind: 'odd-reason', reason, count: 2 });
    expect((await A('profiles/list')).body).toEqual({ status: 'failed', reason });
    expect((await call(ctx.emulator, 'B', 'profiles/list')).body).toEqual({
      status: 'error',
      message: reason,
    });
  });

  it('odd-reason without a reason sends a long one with markup', async () => {
    admin().injectFault({ kind: 'odd-reason' });
    const { body } = await A('profiles/list');
    expect(body.status).toBe('failed');
    expect(body.reason.length).toBeGreaterThan(200);
    expect(body.reason).toContain('<');
  });

  it('count applies a fault to that many calls, and faults queue in order', async () => {
    admin().injectFault({ kind: 'http-500', count: 2 });
    admin().injectFault({ kind: 'html' });
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const response = await fetchA('profiles/list');
      statuses.push(`${response.status} ${response.headers.get('content-type')}`);
      await response.text();
    }
    expect(statuses).toEqual([
      '500 text/plain',
      '500 text/plain',
      '200 text/html; charset=utf-8',
      '200 application/json',
    ]);
  });

  it('a fault for one action passes the calls of other actions by', async () => {
    admin().injectFault({ kind: 'rate-limit', action: 'logs/getstats' });
    expect((await A('profiles/list')).httpStatus).toBe(200);
    expect((await A('logs/list')).httpStatus).toBe(200);
    const limited = await fetchA('logs/getstats', { date: admin().state().logs[0]?.date ?? '' });
    expect(limited.status).toBe(429);
    await limited.text();
    expect(admin().state().emulator.pendingFaults).toEqual([]);
    expect((await A('profiles/list')).httpStatus).toBe(200);
  });

  it('reset clears pending faults', async () => {
    admin().injectFault({ kind: 'http-500', count: 5 });
    admin().reset();
    expect((await A('profiles/list')).httpStatus).toBe(200);
  });

  it('refuses an unknown fault kind', () => {
    // @ts-expect-error the kind is checked at run time for scripts too
    expect(() => admin().injectFault({ kind: 'teapot' })).toThrow();
  });
});

describe('latency', () => {
  it('delays every API answer until set back to 0', async () => {
    admin().setLatency(200);
    const [, slow] = await timed(() => A('profiles/list'));
    expect(slow).toBeGreaterThanOrEqual(195);
    admin().setLatency(0);
    const [, fast] = await timed(() => A('profiles/list'));
    expect(fast).toBeLessThan(150);
  });
});

describe('call log and state', () => {
  it('records API calls with their parameters but never the key', async () => {
    await A('whitelist/add', { domain_name: 'example.org', profile_name: 'kids1' });
    await call(ctx.emulator, 'B', 'network/list');
    await fetch(`${ctx.emulator.url}/api?action=profiles/list&apikey=wrong`);
    const calls = admin().calls();
    expect(calls.map(({ form, action, params }) => ({ form, action, params }))).toEqual([
      {
        form: 'A',
        action: 'whitelist/add',
        params: { action: 'whitelist/add', domain_name: 'example.org', profile_name: 'kids1' },
      },
      { form: 'B', action: 'network/list', params: { action: 'network/list' } },
      { form: 'A', action: 'profiles/list', params: { action: 'profiles/list' } },
    ]);
    expect(JSON.stringify(calls)).not.toContain(ctx.emulator.key);
    expect(calls[0]!.at).toBeGreaterThan(Date.now() - 10_000);
  });

  it('reset restores the seeded account and empties the call log', async () => {
    const seeded = admin().state();
    await A('profile/add', { profile_name: 'lab42' });
    await A('blocklist/add', { domain_name: 'x.example' });
    expect(admin().state()).not.toEqual(seeded);
    admin().reset();
    expect(admin().state()).toEqual(seeded);
    expect(admin().calls()).toEqual([]);
  });

  it('state() snapshots the account', () => {
    const state = admin().state();
    expect(Object.keys(state.profiles)).toEqual(['default', 'kids1', 'office', 'guests']);
    expect(state.profiles.default!.blocklist).toContain('blocked-demo.example');
    expect(state.networks).toContainEqual({ ip: '203.0.113.50', label: 'Home Network', profile: 'default' });
    expect(state.emulator.publicIp).toBe('203.0.113.7');
  });
});

describe('admin over HTTP', () => {
  const post = (route: string, body?: unknown) =>
    fetch(`${ctx.emulator.url}/__admin/${route}`, {
      method: 'POST',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const getJson = async (route: string) => (await fetch(`${ctx.emulator.url}/__admin/${route}`)).json();

  it('injects a fault, sets latency, lists calls, snapshots state and resets', async () => {
    expect(await (await post('fault', { kind: 'http-500' })).json()).toEqual({ status: 'success' });
    expect((await fetchA('profiles/list')).status).toBe(500);

    await post('latency', { ms: 60 });
    const [, elapsed] = await timed(() => A('profiles/list'));
    expect(elapsed).toBeGreaterThanOrEqual(55);

    expect((await getJson('calls')).map((c: { action: string }) => c.action)).toEqual([
      'profiles/list',
      'profiles/list',
    ]);
    await A('profile/add', { profile_name: 'lab42' });
    expect(Object.keys((await getJson('state')).profiles)).toContain('lab42');

    await post('reset');
    expect(await getJson('calls')).toEqual([]);
    expect(Object.keys((await getJson('state')).profiles)).not.toContain('lab42');
    expect((await getJson('state')).emulator.latencyMs).toBe(0);
  });

  it('switches the dump guard and the public IP', async () => {
    await post('dump-guard', { enabled: false });
    expect((await getJson('state')).emulator.dumpGuard).toBe(false);
    await post('public-ip', { ip: '198.51.100.99' });
    expect(await (await fetch(`${ctx.emulator.url}/ip`)).text()).toBe('198.51.100.99');
  });

  it('refuses a malformed admin body or route', async () => {
    const bad = await post('fault', { kind: 'nope' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).status).toBe('error');
    expect((await post('latency', 'not json')).status).toBe(400);
    expect((await fetch(`${ctx.emulator.url}/__admin/nothing`)).status).toBe(404);
  });
});

describe('IP lookup stand-in', () => {
  it('answers the public IP as text and JSON, with CORS, outside the API call log', async () => {
    const text = await fetch(`${ctx.emulator.url}/ip`);
    expect(text.headers.get('access-control-allow-origin')).toBe('*');
    expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await text.text()).toBe('203.0.113.7');
    expect(await (await fetch(`${ctx.emulator.url}/ip.json`)).json()).toEqual({ ip: '203.0.113.7' });
    expect(admin().lookups()).toBe(2);
    expect(admin().calls()).toEqual([]);
  });

  it.each(['2001:db8::7', 'not an ip'])('can answer %j to test rejection', async (ip) => {
    admin().setPublicIp(ip);
    expect(await (await fetch(`${ctx.emulator.url}/ip`)).text()).toBe(ip);
    expect(await (await fetch(`${ctx.emulator.url}/ip.json`)).json()).toEqual({ ip });
  });

  it('ignores API faults and latency', async () => {
    admin().injectFault({ kind: 'drop' });
    admin().setLatency(300);
    const [answer, elapsed] = await timed(() => fetch(`${ctx.emulator.url}/ip`));
    expect(await answer.text()).toBe('203.0.113.7');
    expect(elapsed).toBeLessThan(250);
  });
});
