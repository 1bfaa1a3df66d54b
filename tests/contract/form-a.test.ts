// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { CATEGORY_CATALOGUE } from '@/lib/api';
import type { DnsFilterApi } from '@/lib/api/types';
import { apiErrorOf, dumpLines, TODAY, useEmulator, YESTERDAY } from './helpers';

const ctx = useEmulator();
const api = (): DnsFilterApi => ctx.client('A');
const state = () => ctx.emulator.admin.state();
const lastCall = () => ctx.emulator.admin.calls().at(-1);
/** Parameters the service received, apart from `action` (the emulator never records the key). */
const lastParams = () => {
  const { action: _, ...params } = lastCall()?.params ?? {};
  return params;
};

describe('Form A against the emulator: every action succeeds', () => {
  it('profiles/list', async () => {
    expect(await api().listProfiles()).toEqual(['default', 'kids1', 'office', 'guests']);
  });

  it('profile/add and profile/delete', async () => {
    await api().addProfile(' Teens2024 ');
    expect(lastCall()?.action).toBe('profile/add');
    expect(lastParams()).toEqual({ profile_name: 'Teens2024' });
    expect(await api().listProfiles()).toContain('Teens2024');
    await api().deleteProfile('Teens2024');
    expect(await api().listProfiles()).not.toContain('Teens2024');
  });

  it('categories/list: every category, blocked where the profile blocks it', async () => {
    const categories = await api().listCategories('office');
    expect(categories.map((c) => c.id)).toEqual(CATEGORY_CATALOGUE.A.map((c) => c.id));
    expect(
      categories
        .filter((c) => c.blocked)
        .map((c) => c.id)
        .sort(),
    ).toEqual([...state().profiles.office!.blockedCategories].sort());
    expect((await api().listCategories()).filter((c) => c.blocked)).toHaveLength(3);
  });

  it('category/block and category/allow', async () => {
    await api().setCategoryBlocked('category_gaming', true, 'kids1');
    expect((await api().listCategories('kids1')).find((c) => c.id === 'category_gaming')?.blocked).toBe(true);
    await api().setCategoryBlocked('category_gaming', false, 'kids1');
    expect((await api().listCategories('kids1')).find((c) => c.id === 'category_gaming')?.blocked).toBe(
      false,
    );
    expect(state().profiles.default!.blockedCategories).not.toContain('category_gaming');
  });

  it('whitelist/list and blocklist/list, of one profile and of all', async () => {
    expect(await api().listDomains('whitelist', 'kids1')).toEqual(['khanacademy.org', 'scratch.mit.edu']);
    expect(await api().listDomains('blocklist')).toEqual(['blocked-demo.example', 'tracker.example.net']);
    const all = await api().listDomainsByProfile('whitelist');
    expect(Object.keys(all)).toEqual(['default', 'kids1', 'office', 'guests']);
    expect(all.office).toEqual(['github.com']);
  });

  it.each(['whitelist', 'blocklist'] as const)('%s add and delete, from a pasted URL', async (list) => {
    await api().addDomain(list, 'https://News.Example.org/today', 'office');
    expect(lastParams()).toEqual({ domain_name: 'news.example.org', profile_name: 'office' });
    expect(await api().listDomains(list, 'office')).toContain('news.example.org');
    await api().deleteDomain(list, 'news.example.org.', 'office');
    expect(await api().listDomains(list, 'office')).not.toContain('news.example.org');
  });

  it('whitelist/add of an IDN stores punycode', async () => {
    await api().addDomain('whitelist', 'bücher.de');
    expect(await api().listDomains('whitelist')).toContain('xn--bcher-kva.de');
  });

  it('tld_blocklist/add', async () => {
    await api().blockTld('top', 'office');
    expect(state().profiles.office!.tlds).toContain('.top');
  });

  it('default-block/enable and default-block/disable', async () => {
    await api().setDefaultBlock(true, 'kids1');
    expect(state().profiles.kids1!.defaultBlock).toBe(true);
    await api().setDefaultBlock(false, 'kids1');
    expect(state().profiles.kids1!.defaultBlock).toBe(false);
    await api().setDefaultBlock(true);
    expect(lastParams()).toEqual({ profile_name: 'default' });
    expect(state().profiles.default!.defaultBlock).toBe(true);
  });

  it('network/list, network/add, network/delete', async () => {
    expect(await api().listNetworks()).toContainEqual({ ip: '198.51.100.23', profile: 'kids1' });
    await api().addNetwork({ ip: '198.51.100.99', label: ' Cabin ', profile: 'guests' });
    expect(state().networks).toContainEqual({ ip: '198.51.100.99', label: 'Cabin', profile: 'guests' });
    expect(await api().listNetworks()).toContainEqual({ ip: '198.51.100.99', profile: 'guests' });
    // Registering the same address again is how a dynamic IP is kept: it must succeed.
    await api().addNetwork({ ip: '198.51.100.99', label: 'Cabin', profile: 'guests' });
    await api().deleteNetwork({ ip: '198.51.100.99', profile: 'guests' });
    expect((await api().listNetworks()).map((n) => n.ip)).not.toContain('198.51.100.99');
  });

  it('network/list of one profile sends profile_name and lists only its networks', async () => {
    const networks = await api().listNetworks({ profile: 'kids1' });
    expect(lastParams()).toEqual({ profile_name: 'kids1' });
    expect(networks).toContainEqual({ ip: '198.51.100.23', profile: 'kids1' });
    expect(networks.every((network) => network.profile === 'kids1')).toBe(true);
    // A profile the account does not have: the service's refusal, with its reason.
    await expect(api().listNetworks({ profile: 'nosuchprofile' })).rejects.toMatchObject({
      kind: 'service',
      message: expect.stringMatching(/^Could not list the networks: .*nosuchprofile/),
    });
  });

  it('logs/list: the demo days, newest first', async () => {
    const days = await api().listLogDays();
    expect(days).toHaveLength(7);
    expect(days[0]).toBe(TODAY);
    expect(days).toEqual([...days].sort().reverse());
  });

  it('logs/getstats and logs/getdump agree on the number of queries', async () => {
    const stats = await api().getStats(YESTERDAY);
    const total = Object.values(stats.action).reduce(
      (sum, hour) => sum + (hour.Allowed ?? 0) + (hour.Blocked ?? 0),
      0,
    );
    expect(total).toBeGreaterThan(100);
    const someHour = Object.values(stats.domains)[0];
    expect(Object.keys(someHour?.Allowed ?? {}).every((domain) => domain.endsWith('.'))).toBe(true);
    const lines = await dumpLines(await api().getDump(YESTERDAY));
    expect(lines).toHaveLength(total);
    expect(lines[0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \d+ pass-through: (allowed|blocked): /);
  });

  it('logs/delete removes the raw lines only', async () => {
    await api().deleteLogDay(YESTERDAY);
    const error = await apiErrorOf(api().getDump(YESTERDAY));
    expect(error.kind).toBe('service');
    expect(error.message).toBe(
      `Could not download the raw log of ${YESTERDAY}: The raw log of ${YESTERDAY} has been deleted`,
    );
    expect(Object.keys((await api().getStats(YESTERDAY)).action).length).toBeGreaterThan(0);
    expect(await api().listLogDays()).toContain(YESTERDAY);
  });
});

describe('Form A: parameters the service refuses come back as service errors, verbatim', () => {
  it.each<[string, (api: DnsFilterApi) => Promise<unknown>, string]>([
    [
      'profile that exists',
      (a) => a.addProfile('kids1'),
      'Could not create the profile kids1: Profile already exists: kids1',
    ],
    [
      'the default profile',
      (a) => a.deleteProfile('default'),
      'Could not delete the profile default: The default profile cannot be deleted',
    ],
    [
      'unknown profile to delete',
      (a) => a.deleteProfile('nobody99'),
      'Could not delete the profile nobody99: Profile not found: nobody99',
    ],
    [
      'categories of an unknown profile',
      (a) => a.listCategories('nobody99'),
      'Could not list the categories of profile nobody99: Profile not found: nobody99',
    ],
    [
      'unknown category',
      (a) => a.setCategoryBlocked('category_unknown', true),
      'Could not block the category Unknown: Invalid category',
    ],
    [
      'whitelist of an unknown profile',
      (a) => a.listDomains('whitelist', 'nobody99'),
      'Could not list the whitelist of profile nobody99: Profile not found: nobody99',
    ],
    [
      'domain for an unknown profile',
      (a) => a.addDomain('blocklist', 'example.com', 'nobody99'),
      'Could not add example.com to the blocklist of profile nobody99: Profile not found: nobody99',
    ],
    // The client accepts underscores (real DNS names have them); this service does not.
    [
      'domain the service finds invalid',
      (a) => a.addDomain('whitelist', '_dmarc.example.com'),
      'Could not add _dmarc.example.com to the whitelist: Invalid domain name',
    ],
    [
      'TLD for an unknown profile',
      (a) => a.blockTld('.xyz', 'nobody99'),
      'Could not block the top-level domain .xyz for profile nobody99: Profile not found: nobody99',
    ],
    [
      'default block of an unknown profile',
      (a) => a.setDefaultBlock(true, 'nobody99'),
      'Could not turn on default block for profile nobody99: Profile not found: nobody99',
    ],
    [
      'address held by another profile',
      (a) => a.addNetwork({ ip: '203.0.113.50', profile: 'office' }),
      'Could not register the network 203.0.113.50 for profile office: IP address 203.0.113.50 is already registered to profile default',
    ],
    [
      'removing from the wrong profile',
      (a) => a.deleteNetwork({ ip: '192.0.2.10' }),
      'Could not remove the network 192.0.2.10: IP address 192.0.2.10 is registered to profile office',
    ],
    [
      'stats of a day without logs',
      (a) => a.getStats('2001-01-01'),
      'Could not load the statistics of 2001-01-01: No logs for 2001-01-01',
    ],
    [
      'dump of a day without logs',
      (a) => a.getDump('2001-01-01'),
      'Could not download the raw log of 2001-01-01: No logs for 2001-01-01',
    ],
    [
      'deleting a day without logs',
      (a) => a.deleteLogDay('2001-01-01'),
      'Could not delete the raw log of 2001-01-01: No logs for 2001-01-01',
    ],
  ])('%s', async (_, run, message) => {
    const error = await apiErrorOf(run(api()));
    expect(error.kind).toBe('service');
    expect(error.message.startsWith(message)).toBe(true);
    expect(error.details.httpStatus).toBeGreaterThanOrEqual(400);
  });

  it('a second dump within the hour is refused with the service reason', async () => {
    ctx.emulator.admin.setDumpGuard(true);
    await dumpLines(await api().getDump(TODAY));
    const error = await apiErrorOf(api().getDump(TODAY));
    // 429: the service's rate limit, transient whatever the body; its reason is still shown.
    expect(error.kind).toBe('server');
    expect(error.details.reason).toMatch(/^Log dumps are limited to one per hour/);
    expect(error.details.httpStatus).toBe(429);
  });
});

describe('Form A: parameters the client refuses never reach the service', () => {
  it.each<[string, (api: DnsFilterApi) => Promise<unknown>, string]>([
    ['profile name too short', (a) => a.addProfile('kid'), 'name'],
    ['profile name with symbols', (a) => a.addProfile('kids-2'), 'name'],
    ['empty profile to delete', (a) => a.deleteProfile(' '), 'name'],
    ['empty profile to list categories', (a) => a.listCategories(''), 'profile'],
    ['empty category', (a) => a.setCategoryBlocked('', false), 'category'],
    ['wildcard domain', (a) => a.addDomain('whitelist', '*.example.com'), 'domain'],
    ['IP address as a domain', (a) => a.deleteDomain('blocklist', '203.0.113.50'), 'domain'],
    ['a full domain as a TLD', (a) => a.blockTld('example.com'), 'tld'],
    ['IPv6 network', (a) => a.addNetwork({ ip: '2001:db8::1' }), 'ip'],
    [
      'label with a control character',
      (a) => a.addNetwork({ ip: '203.0.113.60', label: 'Home\u0007' }),
      'label',
    ],
    ['bad address to delete', (a) => a.deleteNetwork({ ip: '203.0.113' }), 'ip'],
    ['impossible date for stats', (a) => a.getStats('2026-02-30'), 'date'],
    ['badly written date for a dump', (a) => a.getDump('22/11/2026'), 'date'],
    ['badly written date to delete', (a) => a.deleteLogDay('2026-11-2'), 'date'],
  ])('%s', async (_, run, field) => {
    const error = await apiErrorOf(run(api()));
    expect(error.kind).toBe('invalid-input');
    expect(error.details.field).toBe(field);
    expect(ctx.emulator.admin.calls()).toEqual([]);
  });
});
