// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { FORM_B_CATEGORIES } from '../../../emulator/categories.ts';
import { apiUrl, call, TODAY, useEmulator } from './helpers.ts';

const ctx = useEmulator();
const B = (action: string, params: Record<string, string> = {}) => call(ctx.emulator, 'B', action, params);
const A = (action: string, params: Record<string, string> = {}) => call(ctx.emulator, 'A', action, params);
const state = () => ctx.emulator.admin.state();
const SUCCESS = { status: 'success' };

describe('Form B happy paths', () => {
  it('network/list gives ip, label and profile of every network', async () => {
    expect((await B('network/list')).body).toEqual({
      status: 'success',
      networks: [
        { ip: '203.0.113.50', label: 'Home Network', profile: 'default' },
        { ip: '198.51.100.23', label: 'Kids tablet hotspot', profile: 'kids1' },
        { ip: '192.0.2.10', label: 'Office', profile: 'office' },
        { ip: '192.0.2.11', label: 'Office backup line', profile: 'office' },
      ],
    });
  });

  it('network/add is idempotent and updates the label; network/delete removes it', async () => {
    expect((await B('network/add', { ip: '203.0.113.7', label: 'Laptop' })).body).toEqual(SUCCESS);
    expect((await B('network/add', { ip: '203.0.113.7', label: 'Laptop at home' })).body).toEqual(SUCCESS);
    const listed = (await B('network/list')).body.networks.filter(
      (n: { ip: string }) => n.ip === '203.0.113.7',
    );
    expect(listed).toEqual([{ ip: '203.0.113.7', label: 'Laptop at home', profile: 'default' }]);

    expect((await B('network/delete', { ip: '203.0.113.7' })).body).toEqual(SUCCESS);
    expect(state().networks.map((n) => n.ip)).not.toContain('203.0.113.7');
  });

  it('network/add of an address held by another profile keeps that profile', async () => {
    expect((await B('network/add', { ip: '192.0.2.10' })).body).toEqual(SUCCESS);
    expect(state().networks.find((n) => n.ip === '192.0.2.10')).toEqual({
      ip: '192.0.2.10',
      label: 'Office',
      profile: 'office',
    });
  });

  it('network/delete removes an address whichever profile holds it', async () => {
    expect((await B('network/delete', { ip: '198.51.100.23' })).body).toEqual(SUCCESS);
    expect(state().networks.map((n) => n.ip)).not.toContain('198.51.100.23');
  });

  it('categories/list gives all 10 Form B categories with their state', async () => {
    const body = (await B('categories/list')).body;
    expect(body.status).toBe('success');
    expect(body.categories.map((c: { category: string }) => c.category)).toEqual(
      Object.keys(FORM_B_CATEGORIES),
    );
    expect(body.categories.filter((c: { blocked: boolean }) => c.blocked)).toEqual([
      { category: 'adult', blocked: true },
      { category: 'malware', blocked: true },
    ]);
  });

  it('category/block and category/allow act on the account (the default profile)', async () => {
    expect((await B('category/block', { category: 'gaming' })).body).toEqual(SUCCESS);
    expect((await B('category/allow', { category: 'adult' })).body).toEqual(SUCCESS);
    const blocked = (await B('categories/list')).body.categories
      .filter((c: { blocked: boolean }) => c.blocked)
      .map((c: { category: string }) => c.category);
    expect(blocked).toEqual(['malware', 'gaming']);
    expect((await A('categories/list')).body.categories).toContain('category_gaming');
  });

  it('profiles/list, profile/add and profile/delete', async () => {
    expect((await B('profile/add', { name: 'lab42' })).body).toEqual(SUCCESS);
    expect((await B('profiles/list')).body).toEqual({
      status: 'success',
      profiles: ['default', 'kids1', 'office', 'guests', 'lab42'],
    });
    expect((await B('profile/delete', { name: 'lab42' })).body).toEqual(SUCCESS);
    expect((await B('profiles/list')).body.profiles).not.toContain('lab42');
  });

  it('default-block/enable and disable switch the account', async () => {
    expect((await B('default-block/enable')).body).toEqual(SUCCESS);
    expect(state().profiles.default!.defaultBlock).toBe(true);
    expect((await B('default-block/disable')).body).toEqual(SUCCESS);
    expect(state().profiles.default!.defaultBlock).toBe(false);
  });

  it.each(['whitelist', 'blocklist'] as const)('%s list, add and delete', async (list) => {
    const before = (await B(`${list}/list`)).body;
    expect(before.status).toBe('success');
    expect(before.domains).toEqual(state().profiles.default![list]);
    expect((await B(`${list}/add`, { domain: 'Shop.Example.net' })).body).toEqual(SUCCESS);
    expect((await B(`${list}/list`)).body.domains).toContain('shop.example.net');
    expect((await B(`${list}/delete`, { domain: 'shop.example.net' })).body).toEqual(SUCCESS);
    expect((await B(`${list}/list`)).body.domains).toEqual(before.domains);
  });

  it('logs/list, logs/getstats, logs/getdump and logs/delete', async () => {
    const days = (await B('logs/list')).body;
    expect(days.status).toBe('success');
    expect(days.logs[0]).toBe(TODAY);
    const stats = (await B('logs/getstats', { date: TODAY })).body;
    expect(Object.keys(stats).sort()).toEqual(['action', 'blocks', 'domains', 'ips', 'reqtypes', 'status']);
    const dump = await fetch(apiUrl(ctx.emulator, 'B', { action: 'logs/getdump', date: TODAY }));
    expect(dump.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(dump.headers.get('access-control-allow-origin')).toBe('*');
    expect((await dump.text()).split('\n')[0]).toContain('pass-through:');
    expect((await B('logs/delete', { date: TODAY })).body).toEqual(SUCCESS);
  });
});

describe('Form B validation', () => {
  it.each([
    ['network/add', { ip: '2001:db8::1' }, /Invalid IP address/],
    ['network/add', {}, /Missing parameter: ip/],
    ['network/add', { ip: '203.0.113.9', label: 'tab\there' }, /Invalid label/],
    ['network/delete', { ip: '1.2.3' }, /Invalid IP address/],
    ['category/block', { category: 'category_adult' }, /Invalid category/],
    ['category/allow', {}, /Missing parameter: category/],
    ['profile/add', { name: 'ab1' }, /Invalid profile name/],
    ['profile/add', { profile_name: 'lab42' }, /Missing parameter: name/],
    ['profile/delete', { name: 'default' }, /cannot be deleted/],
    ['profile/delete', { name: 'nobody' }, /Profile not found/],
    ['whitelist/add', { domain: 'com' }, /Invalid domain name/],
    ['whitelist/add', { domain_name: 'example.com' }, /Missing parameter: domain/],
    ['blocklist/add', { domain: 'exa mple.com' }, /Invalid domain name/],
    ['blocklist/delete', { domain: '-bad.example' }, /Invalid domain name/],
    ['logs/getstats', { date: '2026-13-01' }, /Invalid date/],
    ['logs/getdump', { date: '1999-01-01' }, /No logs/],
    ['logs/delete', {}, /Missing parameter: date/],
    ['tld_blocklist/add', { tld: '.xyz' }, /Unknown action/],
  ] as const)('%s %j fails with a message', async (action, params, message) => {
    const answer = await B(action, params);
    expect(answer.httpStatus).toBeGreaterThanOrEqual(400);
    expect(answer.body).toEqual({ status: 'error', message: expect.stringMatching(message) });
  });

  it('refuses a bad or missing key with exactly "Invalid API key"', async () => {
    for (const query of ['apikey=nope&action=network/list', 'action=network/list']) {
      const response = await fetch(`${ctx.emulator.url}/api/v1/?${query}`);
      expect(response.status).toBe(403);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toEqual({ status: 'error', message: 'Invalid API key' });
    }
  });

  it('answers at /api/v1 without the trailing slash too', async () => {
    const response = await fetch(
      `${ctx.emulator.url}/api/v1?apikey=${ctx.emulator.key}&action=profiles/list`,
    );
    expect((await response.json()).profiles).toContain('default');
  });
});
