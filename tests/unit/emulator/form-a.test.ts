// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { FORM_A_CATEGORIES } from '../../../emulator/categories.ts';
import { call, TODAY, useEmulator } from './helpers.ts';

const ctx = useEmulator();
const A = (action: string, params: Record<string, string> = {}) => call(ctx.emulator, 'A', action, params);
const state = () => ctx.emulator.admin.state();
const SUCCESS = { status: 'success' };

describe('Form A happy paths', () => {
  it('profiles/list, profile/add and profile/delete', async () => {
    expect((await A('profiles/list')).body).toEqual({
      status: 'success',
      profiles: ['default', 'kids1', 'office', 'guests'],
    });
    expect((await A('profile/add', { profile_name: 'lab42' })).body).toEqual(SUCCESS);
    expect((await A('profiles/list')).body.profiles).toContain('lab42');
    expect((await A('profile/delete', { profile_name: 'lab42' })).body).toEqual(SUCCESS);
    expect((await A('profiles/list')).body.profiles).not.toContain('lab42');
  });

  it('a new profile starts with default-block disabled and nothing blocked', async () => {
    await A('profile/add', { profile_name: 'fresh1' });
    expect(state().profiles.fresh1).toEqual({
      blockedCategories: [],
      whitelist: [],
      blocklist: [],
      tlds: [],
      defaultBlock: false,
    });
  });

  it('category/block and category/allow change categories/list of the given profile only', async () => {
    expect((await A('categories/list')).body).toEqual({
      status: 'success',
      categories: ['category_adult', 'category_advertising_tracking', 'category_malicious_blacklisted'],
    });
    expect((await A('category/block', { category_name: 'category_gaming' })).body).toEqual(SUCCESS);
    expect((await A('category/allow', { category_name: 'category_adult' })).body).toEqual(SUCCESS);
    expect((await A('categories/list')).body.categories).toEqual([
      'category_advertising_tracking',
      'category_gaming',
      'category_malicious_blacklisted',
    ]);
    await A('category/block', { category_name: 'category_lingerie', profile_name: 'guests' });
    expect((await A('categories/list', { profile_name: 'guests' })).body.categories).toEqual([
      'category_adult',
      'category_malicious_blacklisted',
      'category_lingerie',
    ]);
    expect((await A('categories/list')).body.categories).not.toContain('category_lingerie');
  });

  it('accepts every one of the 20 Form A category identifiers', async () => {
    for (const category_name of FORM_A_CATEGORIES) {
      expect((await A('category/block', { category_name, profile_name: 'guests' })).body).toEqual(SUCCESS);
    }
    expect((await A('categories/list', { profile_name: 'guests' })).body.categories).toHaveLength(20);
  });

  it.each(['whitelist', 'blocklist'] as const)(
    '%s add, list (one profile, all profiles) and delete',
    async (list) => {
      expect((await A(`${list}/add`, { domain_name: 'News.Example.COM.' })).body).toEqual(SUCCESS);
      await A(`${list}/add`, { domain_name: 'news.example.com' });
      const defaultOnly = (await A(`${list}/list`, { profile_name: 'default' })).body;
      expect(Object.keys(defaultOnly[list])).toEqual(['default']);
      expect(defaultOnly[list].default.filter((d: string) => d === 'news.example.com')).toHaveLength(1);

      await A(`${list}/add`, { domain_name: 'homework.example', profile_name: 'kids1' });
      const all = (await A(`${list}/list`)).body;
      expect(all.status).toBe('success');
      expect(Object.keys(all[list])).toEqual(['default', 'kids1', 'office', 'guests']);
      expect(all[list].kids1).toContain('homework.example');
      expect(all[list].default).not.toContain('homework.example');

      expect((await A(`${list}/delete`, { domain_name: 'news.example.com' })).body).toEqual(SUCCESS);
      expect((await A(`${list}/list`, { profile_name: 'default' })).body[list].default).not.toContain(
        'news.example.com',
      );
    },
  );

  it('seeds the demo lists the demo relies on', async () => {
    expect((await A('blocklist/list', { profile_name: 'default' })).body.blocklist.default).toContain(
      'blocked-demo.example',
    );
    expect((await A('whitelist/list', { profile_name: 'default' })).body.whitelist.default).toContain(
      'allowed-demo.example',
    );
  });

  it('tld_blocklist/add stores the TLD in lower case with its dot', async () => {
    expect((await A('tld_blocklist/add', { tld: '.TOP', profile_name: 'office' })).body).toEqual(SUCCESS);
    expect(state().profiles.office!.tlds).toContain('.top');
  });

  it('default-block/enable and disable switch the named profile', async () => {
    expect((await A('default-block/enable', { profile_name: 'kids1' })).body).toEqual(SUCCESS);
    expect(state().profiles.kids1!.defaultBlock).toBe(true);
    expect(state().profiles.default!.defaultBlock).toBe(false);
    expect((await A('default-block/disable', { profile_name: 'kids1' })).body).toEqual(SUCCESS);
    expect(state().profiles.kids1!.defaultBlock).toBe(false);
  });

  it('network/add (idempotent, with label), network/list and network/delete', async () => {
    const add = { ip_address: '203.0.113.7', label: ' Cabin ', profile_name: 'guests' };
    expect((await A('network/add', add)).body).toEqual(SUCCESS);
    expect((await A('network/add', add)).body).toEqual(SUCCESS);
    expect(state().networks.filter((n) => n.ip === '203.0.113.7')).toEqual([
      { ip: '203.0.113.7', label: 'Cabin', profile: 'guests' },
    ]);
    expect((await A('network/list', { profile_name: 'guests' })).body).toEqual({
      status: 'success',
      networks: { guests: ['203.0.113.7'] },
    });
    expect((await A('network/list')).body.networks).toEqual({
      default: ['203.0.113.50'],
      kids1: ['198.51.100.23'],
      office: ['192.0.2.10', '192.0.2.11'],
      guests: ['203.0.113.7'],
    });
    expect((await A('network/delete', { ip_address: '203.0.113.7', profile_name: 'guests' })).body).toEqual(
      SUCCESS,
    );
    expect((await A('network/list', { profile_name: 'guests' })).body.networks.guests).toEqual([]);
  });

  it('network/add without profile registers in default', async () => {
    await A('network/add', { ip_address: '198.51.100.200' });
    expect((await A('network/list', { profile_name: 'default' })).body.networks.default).toContain(
      '198.51.100.200',
    );
  });

  it('deleting a profile removes its networks', async () => {
    await A('profile/delete', { profile_name: 'office' });
    expect(state().networks.map((n) => n.profile)).not.toContain('office');
  });

  it('logs/list, logs/getstats, logs/getdump and logs/delete', async () => {
    const days = (await A('logs/list')).body;
    expect(days.status).toBe('success');
    expect(days.logs[0]).toBe(TODAY);
    expect(days.logs).toHaveLength(7);
    expect([...days.logs].sort().reverse()).toEqual(days.logs);

    const stats = (await A('logs/getstats', { date: TODAY })).body;
    expect(stats.status).toBe('success');
    expect(Object.keys(stats.action)).toHaveLength(24);

    const dump = await fetch(
      `${ctx.emulator.url}/api?${new URLSearchParams({ apikey: ctx.emulator.key, action: 'logs/getdump', date: TODAY })}`,
    );
    expect(dump.headers.get('content-type')).toMatch(/^text\/plain/);
    expect((await dump.text()).startsWith(`${TODAY} 00:`)).toBe(true);

    expect((await A('logs/delete', { date: TODAY })).body).toEqual(SUCCESS);
  });
});

describe('Form A validation', () => {
  it.each([
    ['category/block', { category_name: 'adult' }, /Invalid category/],
    ['category/block', {}, /Missing parameter: category_name/],
    ['category/allow', { category_name: 'category_adult', profile_name: 'nobody' }, /Profile not found/],
    ['categories/list', { profile_name: 'nobody' }, /Profile not found/],
    ['profile/add', { profile_name: 'abc' }, /Invalid profile name/],
    ['profile/add', { profile_name: 'kids-1' }, /Invalid profile name/],
    ['profile/add', { profile_name: 'a'.repeat(65) }, /Invalid profile name/],
    ['profile/add', { profile_name: 'kids1' }, /already exists/],
    ['profile/delete', { profile_name: 'default' }, /default profile cannot be deleted/],
    ['profile/delete', { profile_name: 'nobody' }, /Profile not found/],
    ['whitelist/add', { domain_name: 'localhost' }, /Invalid domain name/],
    ['whitelist/add', { domain_name: '*.example.com' }, /Invalid domain name/],
    ['whitelist/add', { domain_name: 'https://example.com/path' }, /Invalid domain name/],
    ['whitelist/add', { domain_name: 'bücher.example' }, /Invalid domain name/],
    ['whitelist/add', { domain_name: '192.168.1.1' }, /Invalid domain name/],
    ['blocklist/add', { domain_name: `${'a'.repeat(64)}.example` }, /Invalid domain name/],
    ['blocklist/add', { domain_name: 'ok.example', profile_name: 'nobody' }, /Profile not found/],
    ['blocklist/delete', {}, /Missing parameter: domain_name/],
    ['whitelist/list', { profile_name: 'nobody' }, /Profile not found/],
    ['tld_blocklist/add', { tld: 'xyz' }, /Invalid TLD/],
    ['tld_blocklist/add', { tld: '.co.uk' }, /Invalid TLD/],
    ['default-block/enable', {}, /Missing parameter: profile_name/],
    ['default-block/disable', { profile_name: 'nobody' }, /Profile not found/],
    ['network/add', { ip_address: '2001:db8::1' }, /Invalid IP address/],
    ['network/add', { ip_address: '256.1.1.1' }, /Invalid IP address/],
    ['network/add', { ip_address: '01.2.3.4' }, /Invalid IP address/],
    [
      'network/add',
      { ip_address: '203.0.113.50', profile_name: 'kids1' },
      /already registered to profile default/,
    ],
    ['network/add', { ip_address: '203.0.113.9', label: 'bad\u0007label' }, /Invalid label/],
    ['network/add', { ip_address: '203.0.113.9', label: 'x'.repeat(65) }, /Invalid label/],
    ['network/delete', { ip_address: 'junk' }, /Invalid IP address/],
    ['network/list', { profile_name: 'nobody' }, /Profile not found/],
    ['logs/getstats', { date: '2026-02-30' }, /Invalid date/],
    ['logs/getstats', { date: '22.11.2026' }, /Invalid date/],
    ['logs/getstats', { date: '2020-01-01' }, /No logs/],
    ['logs/getdump', {}, /Missing parameter: date/],
    ['logs/delete', { date: '2020-01-01' }, /No logs/],
    ['no/such-action', {}, /Unknown action/],
  ] as const)('%s %j fails with a reason', async (action, params, reason) => {
    const answer = await A(action, params);
    expect(answer.httpStatus).toBeGreaterThanOrEqual(400);
    expect(answer.body).toEqual({ status: 'failed', reason: expect.stringMatching(reason) });
  });

  it('a failed call changes nothing', async () => {
    const before = state();
    await A('network/add', { ip_address: '203.0.113.50', profile_name: 'kids1' });
    await A('profile/add', { profile_name: 'abc' });
    expect(state()).toEqual(before);
  });
});

describe('Form A authentication and transport', () => {
  it.each([
    ['a wrong key', 'wrong-key'],
    ['an empty key', ''],
  ])('refuses %s with "Invalid API key"', async (_name, apikey) => {
    const response = await fetch(`${ctx.emulator.url}/api?apikey=${apikey}&action=profiles/list`);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ status: 'failed', reason: 'Invalid API key' });
  });

  it('refuses a missing key', async () => {
    const response = await fetch(`${ctx.emulator.url}/api?action=profiles/list`);
    expect(await response.json()).toEqual({ status: 'failed', reason: 'Invalid API key' });
  });

  it('answers at /api and /api/ alike, JSON with CORS', async () => {
    for (const path of ['/api', '/api/']) {
      const response = await fetch(
        `${ctx.emulator.url}${path}?apikey=${ctx.emulator.key}&action=profiles/list`,
      );
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('content-type')).toBe('application/json');
      expect((await response.json()).status).toBe('success');
    }
  });

  it('answers a CORS preflight', async () => {
    const response = await fetch(`${ctx.emulator.url}/api`, {
      method: 'OPTIONS',
      headers: { 'Access-Control-Request-Method': 'GET', Origin: 'chrome-extension://abc' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('GET');
  });
});
